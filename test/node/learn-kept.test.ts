// The memory indexes an isolate keeps per storage (src/learn/shared-memory.ts): the four used last whatever their
// size, more while all it keeps hold at most 200,000 terms, never more than 256; an index let go is kept again from
// the layer that still holds it, unless a clear or a forget dropped it.
import { describe, expect, it } from 'vitest';
import { type BuiltMemory, createBuilt, dropShared, heldBuilt, sharedBuilt } from '../../src/learn/shared-memory.ts';

/** An index that says it holds `terms` terms (what the isolate's bound reads). */
function sized(terms: number): BuiltMemory {
  const built = createBuilt(false);
  return { ...built, memory: { ...built.memory, terms } };
}

/** Keeps `built` as scope's index in `identity` (as a layer that last brought it up would), and gives what is kept. */
const keep = (identity: object, scope: string, built: BuiltMemory) =>
  sharedBuilt(identity, scope, 2_000_000, false, built);
const holds = (identity: object, scope: string) => heldBuilt(identity, scope, 2_000_000, false);

describe('the memory indexes an isolate keeps per storage', () => {
  it('keeps the four used last however large, and lets the least recently used go past them', () => {
    const identity = {};
    const big = ['a', 'b', 'c', 'd', 'e'].map((scope) => [scope, sized(150_000)] as const);
    for (const [scope, built] of big.slice(0, 4)) expect(keep(identity, scope, built)).toBe(built);
    for (const [scope] of big.slice(0, 4)) expect(holds(identity, scope)).toBeDefined();
    // Used in that order: "a" is the least recently used when "e" comes.
    keep(identity, 'e', big[4]?.[1] as BuiltMemory);
    expect(holds(identity, 'a')).toBeUndefined();
    for (const scope of ['b', 'c', 'd', 'e']) expect(holds(identity, scope)).toBeDefined();
  });

  it('keeps more while they hold at most 200,000 terms in all, and lets go as they grow', () => {
    const identity = {};
    const scopes = Array.from({ length: 11 }, (_, i) => `tenant-${i}`);
    const built = scopes.map(() => sized(20_000));
    for (const [i, scope] of scopes.slice(0, 10).entries()) keep(identity, scope, built[i] as BuiltMemory);
    for (const scope of scopes.slice(0, 10)) expect(holds(identity, scope)).toBeDefined();
    // 220,000 terms with the eleventh: the least recently used goes (tenant-0, each held() above made it so in turn).
    keep(identity, 'tenant-10', built[10] as BuiltMemory);
    expect(holds(identity, 'tenant-0')).toBeUndefined();
    for (const scope of scopes.slice(1)) expect(holds(identity, scope)).toBeDefined();
    // A scope the isolate holds keeps its index (the one given is not taken), and is the most recently used.
    const large = sized(60_000);
    expect(keep(identity, 'tenant-1', large)).toBe(built[1]);
    // 260,000 terms with a large one: the least recently used go until the rest fit again.
    keep(identity, 'tenant-large', large);
    const kept = scopes.filter((scope) => holds(identity, scope) !== undefined);
    expect(kept).toEqual(['tenant-1', 'tenant-5', 'tenant-6', 'tenant-7', 'tenant-8', 'tenant-9', 'tenant-10']);
    expect(holds(identity, 'tenant-large')).toBe(large);
    // An index that grew past what the rest leave room for: its next use lets the least recently used go.
    (built[1] as { memory: { terms: number } }).memory.terms = 100_000;
    holds(identity, 'tenant-1');
    expect(scopes.filter((scope) => holds(identity, scope) !== undefined)).toEqual([
      'tenant-1',
      'tenant-9',
      'tenant-10',
    ]);
    expect(holds(identity, 'tenant-large')).toBe(large);
  });

  it('keeps at most 256 small ones', () => {
    const identity = {};
    for (let i = 0; i < 300; i++) keep(identity, `tiny-${i}`, sized(10));
    expect(holds(identity, 'tiny-43')).toBeUndefined();
    expect(holds(identity, 'tiny-44')).toBeDefined();
    expect(holds(identity, 'tiny-299')).toBeDefined();
  });

  it('keeps again the index a layer still holds, but not one a clear or a forget dropped', () => {
    const identity = {};
    const mine = sized(150_000);
    keep(identity, 'mine', mine);
    for (const scope of ['b', 'c', 'd', 'e']) keep(identity, scope, sized(150_000));
    expect(holds(identity, 'mine')).toBeUndefined();
    // The layer that brought it up last gives it back: the scope's memory is not indexed anew.
    expect(keep(identity, 'mine', mine)).toBe(mine);
    dropShared(identity, 'mine');
    expect(holds(identity, 'mine')).toBeUndefined();
    const after = keep(identity, 'mine', mine);
    expect(after).not.toBe(mine);
    expect(after.memory.size).toBe(0);
    // A clear of the whole store drops every index, and none comes back either.
    const other = holds(identity, 'e') as BuiltMemory;
    dropShared(identity);
    expect(keep(identity, 'e', other)).not.toBe(other);
  });
});
