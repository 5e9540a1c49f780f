// The values read lately (src/learn/space-cache.ts) are bounded by their weight too, about their bytes: a page's
// text by its length, a shard by its terms. Past 24 MB the oldest go, whatever their count.
import { describe, expect, it } from 'vitest';
import { scopeKey } from '../../src/learn/scope-key.ts';
import { createSpaceCache } from '../../src/learn/space-cache.ts';
import { sharedStub } from './shared-stub.ts';

describe('the values read lately, bounded by weight', () => {
  it('let the oldest pages go past about 24 MB of text', () => {
    const cache = createSpaceCache(sharedStub(undefined));
    const page = 'x'.repeat(1_000_000);
    const keys = Array.from({ length: 20 }, (_, i) => `${scopeKey(`tenant-${i}`)}:m0:0`);
    // 20 pages of just over 1,000,000 characters, just over 2 MB each: eleven fit, the first nine go.
    for (const key of keys) cache.keep(key, `${page}${key}`);
    expect(keys.map((key) => cache.fresh(key) !== undefined)).toEqual(keys.map((_, i) => i >= 9));
    // A value kept again is the newest, at its new weight: two more pages fit where one did, then the oldest goes.
    cache.keep(keys[9] as string, 'small');
    cache.keep(`${scopeKey('other')}:m0:0`, `${page}other`);
    expect(cache.fresh(keys[10] as string)).toBeDefined();
    cache.keep(`${scopeKey('other')}:m0:1`, `${page}other`);
    expect(cache.fresh(keys[10] as string)).toBeUndefined();
    expect(cache.fresh(keys[9] as string)?.value).toBe('small');
  });

  it("weigh a shard by its terms, and free a value's weight when it is dropped or cleared", () => {
    const cache = createSpaceCache(sharedStub(undefined));
    const shard = (n: number) => ({
      v: 1,
      x: Object.fromEntries(Array.from({ length: n }, (_, i) => [`t${i}`, [1, 1, []]])),
    });
    const keys = Array.from({ length: 40 }, (_, i) => `${scopeKey(`tenant-${i}`)}:32:0`);
    // 40 shards of 5,000 terms, just over 1 MB each: 23 fit, the first 17 go.
    for (const key of keys) cache.keep(key, shard(5_000));
    expect(keys.filter((key) => cache.fresh(key) !== undefined)).toEqual(keys.slice(17));
    // Dropped and cleared values free their weight: as many again fit.
    for (const key of keys.slice(16, 28)) cache.drop(key, cache.fresh(key)?.value);
    for (let i = 28; i < 40; i++) cache.clear(`tenant-${i}`);
    const more = Array.from({ length: 23 }, (_, i) => `${scopeKey(`more-${i}`)}:32:0`);
    for (const key of more) cache.keep(key, shard(5_000));
    expect(more.every((key) => cache.fresh(key) !== undefined)).toBe(true);
  });
});
