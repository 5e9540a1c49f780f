// The space's cache marks changes by scope (src/learn/space-cache.ts `changes`): what a scope's readers derived stands
// while nothing of that scope changed, so on a server with a scope per tenant one tenant's commit does not make every
// other tenant's next search resolve its terms again. A change to the scope itself, or a clear of all, is always seen.
import { createMemoryStore, createToolSearch, type ToolSearch } from 'tool-search-layer';
import { describe, expect, it } from 'vitest';
import { scopeKey } from '../../src/learn/scope-key.ts';
import { createSpaceCache } from '../../src/learn/space-cache.ts';
import { catalogue, names } from '../core/fixtures.ts';
import { asked, taught, turn } from '../core/learn-share-fixtures.ts';
import { sharedStub } from './shared-stub.ts';

describe("the space's marks of change, by scope", () => {
  it('move for a change to the scope or to all, and for nothing of another scope', () => {
    const cache = createSpaceCache(sharedStub({}));
    const a = scopeKey('tenant:a');
    const b = scopeKey('tenant');
    const seen = [cache.changes(a)];
    const moved = () => {
      const now = cache.changes(a);
      const isNew = !seen.includes(now);
      seen.push(now);
      return isNew;
    };
    // Scope "tenant" is a prefix of "tenant:a" as text, not as a key: its keys are not the other's.
    cache.keep(`${b}:4:1`, { x: 1 });
    cache.keep(b, { u: 1 });
    expect(moved()).toBe(false);
    cache.keep(`${a}:4:1`, { x: 2 });
    expect(moved()).toBe(true);
    cache.keep(a, { u: 2 });
    expect(moved()).toBe(true);
    cache.drop(`${b}:4:1`, { x: 1 });
    expect(moved()).toBe(false);
    const value = cache.fresh(`${a}:4:1`)?.value;
    cache.drop(`${a}:4:1`, value);
    expect(moved()).toBe(true);
    cache.clear('tenant');
    expect(moved()).toBe(false);
    cache.clear('tenant:a');
    expect(moved()).toBe(true);
    cache.clear();
    expect(moved()).toBe(true);
  });

  it('never come back to a mark seen before, past the scopes they keep', () => {
    const cache = createSpaceCache(sharedStub({}));
    const a = scopeKey('a');
    const seen = new Set([cache.changes(a)]);
    cache.keep(`${a}:m0`, 1);
    seen.add(cache.changes(a));
    // Thousands of other scopes: their marks are forgotten past the bound, which marks a change to every scope.
    let forgotten = 0;
    for (let i = 0; i < 10_000; i++) {
      const before = cache.changes(a);
      cache.keep(`${scopeKey(`other-${i}`)}:m0`, i);
      const after = cache.changes(a);
      if (after !== before) {
        forgotten++;
        expect(seen.has(after)).toBe(false);
        seen.add(after);
      }
    }
    expect(forgotten).toBeGreaterThan(0);
    expect(forgotten).toBeLessThan(10);
    cache.keep(`${a}:m0`, 2);
    expect(seen.has(cache.changes(a))).toBe(false);
  });

  it("leave a scope's rankings as they were after another scope's commits, and show its own at once", async () => {
    const store = createMemoryStore({ maxSessions: 10_000 });
    const tools = [...catalogue];
    // The table alone: the memory's index is brought up to date by the write itself, the table's held values are not.
    const layer = (scope: string) =>
      createToolSearch({ learn: { scope, memoryWeight: 0, setWeight: 0 }, store, logger: { warn() {} } });
    // Another tool for each request's: what scope "b" learns, and later scope "a" too.
    const other = (name: string) =>
      name === 'get_forecast' ? 'calculator' : name === 'write_file' ? 'read_inbox' : name;
    const teach = async (on: ToolSearch, prefix: string, swap = false) => {
      for (let round = 0; round < 3; round++)
        for (const [i, [query, called]] of taught.entries())
          await on.prepare({
            sessionId: `${prefix}-${round}-${i}`,
            tools,
            messages: turn(query, swap ? called.map(other) : called),
          });
      await on.flush();
    };
    const rankings = async (on: ToolSearch) => {
      const out: string[] = [];
      for (const query of asked) {
        const result = await on.search({ sessionId: 'ask', tools }, { query });
        if ('error' in result) throw new Error(String(result.error));
        out.push(names(result.tools).join(' '));
      }
      return out;
    };
    const a = layer('a');
    const b = layer('b');
    const untaught = await rankings(layer('c'));
    await teach(a, 'a');
    const learned = await rankings(a);
    expect(learned).not.toEqual(untaught);
    await teach(b, 'b', true);
    expect(await rankings(b)).not.toEqual(learned);
    expect(await rankings(a)).toEqual(learned);
    // The scope's own commits are seen by its next search, without waiting for the values read lately to expire.
    for (let i = 0; i < 4; i++) await teach(a, `a${i}`, true);
    expect(await rankings(a)).not.toEqual(learned);
  });
});
