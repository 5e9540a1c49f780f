// The IndexedDB store in real Chromium (vitest browser mode, the `idb-chromium` project), imported
// from the built package: the same promises as over fake-indexeddb in Node.
import { expect, it } from 'vitest';
import { indexedDbCases, indexedDbConformance } from '../stores/indexeddb-cases.ts';

it('runs in Chromium on its native IndexedDB', () => {
  expect(navigator.userAgent).toMatch(/Chrome\/\d+/);
  expect(Function.prototype.toString.call(IDBFactory)).toContain('[native code]');
  expect(indexedDB).toBeInstanceOf(IDBFactory);
});

indexedDbConformance('chromium');
indexedDbCases('chromium');
