// A page of the memory of past requests read again as it fills (src/learn/memory-pages.ts): only what was appended
// since an earlier read is indexed, and only when the page is that very page grown, never one rewritten since.
import { describe, expect, it } from 'vitest';
import {
  appendToPage,
  heldPrefix,
  memoryPageKey,
  memoryPageKeys,
  pageContent,
  pageEntries,
  type Remembered,
} from '../../src/learn/memory-pages.ts';

const request = (session: number, terms: number[], tools: string[]): Remembered => ({ session, turn: 0, terms, tools });
const a = request(1, [10, 20], ['get_forecast']);
const b = request(2, [30], ['send_email']);
const c = request(3, [40, 50], ['calculator']);
const d = request(4, [60], ['get_forecast', 'web_search']);
const grow = (value: unknown, ...requests: Remembered[]) => appendToPage(value, requests, 90_000).page;

describe('a memory page read again as it fills', () => {
  it('reads only the requests appended since the content it held', () => {
    const one = grow(undefined, a);
    const three = grow(grow(one, b), c, d);
    expect(heldPrefix(three, pageContent(one))).toBe(1);
    expect(pageEntries(three, 1)).toEqual([b, c, d]);
    expect(pageEntries(three, heldPrefix(three, pageContent(grow(one, b))))).toEqual([c, d]);
  });

  it('reads a page whole when it was rewritten since, is another filling, or cannot be told apart', () => {
    const one = grow(undefined, a);
    const held = grow(one, b);
    // Two writers appended to the same page at once and one's append was lost: the same filling (its tag) with more
    // entries, but not the entries that were read.
    const rewritten = grow(grow(one, c), d);
    expect(heldPrefix(rewritten, pageContent(held))).toBe(0);
    expect(heldPrefix(rewritten, pageContent(grow(one, c)))).toBe(2);
    // Another filling of the same page (after a clear), with as many entries and more.
    expect(heldPrefix(grow(grow(undefined, a), b, c), pageContent(held))).toBe(0);
    // The same content, or less: nothing appended.
    expect(heldPrefix(held, pageContent(held))).toBe(0);
    expect(heldPrefix(one, pageContent(held))).toBe(0);
    // A page written before tags, a content held as the value itself, and a malformed entry appended.
    const { f: _f, h: _h, ...untagged } = grow(held, c);
    expect(heldPrefix(untagged, pageContent(held))).toBe(0);
    expect(heldPrefix(grow(held, c), held)).toBe(0);
    const broken = { ...grow(held, c), x: [...grow(held, c).x.slice(0, 2), 'not an entry'] };
    expect(heldPrefix(broken, pageContent(held))).toBe(0);
  });
});

describe("a scope's page keys", () => {
  it('are the same whether the scope is escaped once or for each key', () => {
    for (const scope of ['app', 'a:m0', '100%:x'])
      for (const [lane, n] of [
        [0, 0],
        [3, 17],
      ] as const)
        expect(memoryPageKeys(scope)(lane, n)).toBe(memoryPageKey(scope, lane, n));
  });
});
