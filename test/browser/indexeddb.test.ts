// The IndexedDB store in real Chromium (vitest browser mode, the `idb-chromium` project), imported
// from the built package: the same promises as over fake-indexeddb in Node.
import type { Tool } from 'tool-search-layer';
import { expect, it } from 'vitest';
import { indexedDbCases, indexedDbConformance } from '../stores/indexeddb-cases.ts';
import type { ColdSearch } from './vector-isolate.ts';

it('runs in Chromium on its native IndexedDB', () => {
  expect(navigator.userAgent).toMatch(/Chrome\/\d+/);
  expect(Function.prototype.toString.call(IDBFactory)).toContain('[native code]');
  expect(indexedDB).toBeInstanceOf(IDBFactory);
});

indexedDbConformance('chromium');
indexedDbCases('chromium');

/** One search in a new module Worker: a cold isolate with its own copy of the library, over the same database. */
function coldSearch(search: ColdSearch): Promise<{ asked: { tool: string[]; query: string[] }; lines: string[] }> {
  const worker = new Worker(new URL('./vector-isolate.ts', import.meta.url), { type: 'module' });
  return new Promise((resolve, reject) => {
    worker.onmessage = (event) => {
      worker.terminate();
      resolve(event.data);
    };
    worker.onerror = (event) => reject(new Error(event.message));
    worker.postMessage(search);
  });
}

// Chromium cannot load a second copy of a module in one page (vi.resetModules), so the store conformance suite's
// cold isolates are Workers here.
it('keeps tool vectors in IndexedDB: a cold isolate (a Worker) embeds the query alone, and a changed tool', async () => {
  const tools: Tool[] = ['send_email', 'read_inbox', 'get_weather', 'get_forecast', 'create_event', 'list_events'].map(
    (name) => ({ name, description: name.replace('_', ' ') }),
  );
  const search = { dbName: `tsl-vectors-${crypto.randomUUID()}`, model: `model-${crypto.randomUUID()}`, tools };
  const writer = await coldSearch(search);
  expect(writer.asked.tool).toHaveLength(tools.length);
  const reader = await coldSearch(search);
  expect(reader.asked).toEqual({ tool: [], query: ['weather forecast'] });
  const changed = tools.map((tool, i) => (i === 2 ? { ...tool, description: 'the weather at a place, now' } : tool));
  const again = await coldSearch({ ...search, tools: changed });
  expect(again.asked.tool).toEqual([expect.stringContaining('the weather at a place, now')]);
  expect([...writer.lines, ...reader.lines, ...again.lines]).toEqual([]);
});
