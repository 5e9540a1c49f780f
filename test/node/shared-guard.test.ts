// The shared space's guard (src/core/shared-guard.ts), which the layer's features use for values every session
// shares: a failing store degrades to memory with one warning, and what changed meanwhile is replayed onto the
// store's value when it answers again.
import { describe, expect, it } from 'vitest';
import { guardShared } from '../../src/core/shared-guard.ts';
import { createMemoryStore } from '../../src/stores/memory.ts';
import type { DiscoveredStore } from '../../src/stores/store.ts';

const add =
  (n: number) =>
  (value: unknown): unknown =>
    ((value as number | undefined) ?? 0) + n;

/** A memory store whose shared space fails while `down` is set. */
function flaky() {
  const inner = createMemoryStore();
  const state = { down: false };
  const fail = () => {
    if (state.down) throw new Error('offline');
  };
  const shared = inner.shared;
  if (!shared) throw new Error('the memory store has a shared space');
  const store: DiscoveredStore = {
    ...inner,
    name: 'flaky',
    shared: {
      get: async (key) => {
        fail();
        return shared.get(key);
      },
      update: async (key, apply) => {
        fail();
        return shared.update(key, apply);
      },
      delete: async (key) => {
        fail();
        return shared.delete(key);
      },
    },
  };
  return { store, state, shared };
}

describe('guarded shared space', () => {
  it('keeps values apart from sessions, and clear() empties both', async () => {
    const store = createMemoryStore();
    const guarded = guardShared(store, { timeoutMs: 0, retryMs: 0 });
    expect(guarded.persistent).toBe(true);
    await guarded.update('learn:app', add(2), () => {});
    await store.update('learn:app', () => ({ v: 1, order: [], recent: [] }));
    expect(await guarded.get('learn:app', () => {})).toBe(2);
    await store.clear();
    expect(await guarded.get('learn:app', () => {})).toBeUndefined();
  });

  it('degrades to memory with one warning, then replays the changes made meanwhile onto the stored value', async () => {
    const { store, state, shared } = flaky();
    let time = 0;
    const warnings: string[] = [];
    const warn = (message: string) => void warnings.push(message);
    const guarded = guardShared(store, { timeoutMs: 0, retryMs: 10, now: () => time });
    await guarded.update('k', add(1), warn);
    state.down = true;
    expect(await guarded.update('k', add(10), warn)).toBe(11);
    expect(await guarded.update('k', add(100), warn)).toBe(111);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/flaky.*offline/);
    // Another writer changed the stored value meanwhile: the replay adds to it rather than overwriting it.
    state.down = false;
    await shared.update('k', add(1000));
    time = 20;
    expect(await guarded.get('k', warn)).toBe(1111);
    expect(await shared.get('k')).toBe(1111);
  });

  it('keeps values in memory for a store without a shared space', async () => {
    const { shared: _none, ...plain } = createMemoryStore();
    const guarded = guardShared(plain, { timeoutMs: 0, retryMs: 0 });
    expect(guarded.persistent).toBe(false);
    await guarded.update('k', add(3), () => {});
    expect(await guarded.get('k', () => {})).toBe(3);
    guarded.clearMemory();
    expect(await guarded.get('k', () => {})).toBeUndefined();
  });
});
