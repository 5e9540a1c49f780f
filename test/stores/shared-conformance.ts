// The shared space's part of the store conformance suite: values the sessions of a layer share (learned credits,
// tool vectors), kept apart from every session. Run by storeConformance on each store, in its own runtime.
import { createToolSearch, type DiscoveredStore, type SharedSpace } from 'tool-search-layer';
import { expect, it } from 'vitest';
import type { StoreHarness } from './conformance.ts';

/** Credits per term, as the layer's learning keeps them: every change adds, so a lost or doubled one shows. */
type Credits = Record<string, number>;
const add =
  (term: string, amount = 1) =>
  (current: unknown): Credits => {
    const credits = (current as Credits | undefined) ?? {};
    return { ...credits, [term]: (credits[term] ?? 0) + amount };
  };

function spaceOf(store: DiscoveredStore): SharedSpace {
  expect(store.shared, `store "${store.name}" has a shared space`).toBeDefined();
  return store.shared as SharedSpace;
}

/** Keys a layer could choose that look like this repository's session keys or their markers. */
const lookalikes = ['s:a', 'x:s:a', 'h:a', 'x:h:a', 'a', 'shared', 'learn:app', 'tsl:x:s:a'];

/**
 * About 100 KB of UTF-8 JSON (the contract's limit) in the shapes that grow most in a structured clone: long ASCII
 * text with one character past Latin-1 (two bytes a character in V8) and short decimals (nine bytes a number).
 */
function largeValue(): { texts: string[]; vector: number[] } {
  const texts = Array.from({ length: 20 }, (_, i) => `${'a'.repeat(2400)}向${i}`);
  const vector = Array.from({ length: 12_400 }, (_, i) => ((i % 9) + 1) / 10);
  return { texts, vector };
}

/** Registers the shared space's conformance tests, in the caller's describe. */
export function sharedConformance(
  make: () => StoreHarness | Promise<StoreHarness>,
  ids: readonly string[],
  tools: readonly { name: string }[],
): void {
  it('reads a shared key never written as undefined', async () => {
    const harness = await make();
    const store = await harness.open();
    await spaceOf(store).update('written', add('n'));
    await harness.settle?.();
    for (const key of ['nobody', ...lookalikes]) expect(await spaceOf(await harness.open()).get(key)).toBeUndefined();
  });

  it('keeps a shared value across store instances (a round trip), up to 100 KB of JSON', async () => {
    const harness = await make();
    const big = largeValue();
    const bytes = new TextEncoder().encode(JSON.stringify(big)).length;
    expect(bytes).toBeGreaterThan(97_000);
    expect(bytes).toBeLessThanOrEqual(100_000);
    const writer = spaceOf(await harness.open());
    expect(await writer.update('learn:app', add('weather', 2))).toEqual({ weather: 2 });
    expect(await writer.update('learn:app', add('email'))).toEqual({ weather: 2, email: 1 });
    await writer.update('vectors:big', () => big);
    await harness.settle?.();
    const reader = spaceOf(await harness.open());
    expect(await reader.get('learn:app')).toEqual({ weather: 2, email: 1 });
    expect(await reader.get('vectors:big')).toEqual(big);
  });

  it('writes nothing for a shared update that changes nothing', async () => {
    const harness = await make();
    const space = spaceOf(await harness.open());
    await space.update('k', add('n'));
    await harness.settle?.();
    const before = harness.writes?.();
    const value = await space.get('k');
    const again = spaceOf(await harness.open());
    expect(await again.update('k', (current: unknown) => current)).toEqual(value);
    expect(await space.update('k', (current: unknown) => current)).toEqual(value);
    expect(await again.update('never written', (current: unknown) => current)).toBeUndefined();
    await harness.settle?.();
    if (harness.writes) expect(harness.writes()).toBe(before);
    else expect(await space.get('k')).toBe(value); // memory: the very same object, nothing rewritten
  });

  it('keeps both writers’ additive changes to one shared key at the same moment, none lost or doubled', async () => {
    const harness = await make();
    const [one, two] = [spaceOf(await harness.open()), spaceOf(await harness.open())];
    await Promise.all([one.update('learn:app', add('email')), two.update('learn:app', add('weather'))]);
    await Promise.all([one.update('learn:app', add('both')), two.update('learn:app', add('both', 2))]);
    await harness.settle?.();
    const stored = await spaceOf(await harness.open()).get('learn:app');
    expect(stored).toEqual({ email: 1, weather: 1, both: 3 });
  });

  it('keeps shared keys and session ids apart, both ways, for hostile ids', async () => {
    const harness = await make();
    const store = await harness.open();
    const keys = [...ids, ...lookalikes];
    for (const key of keys) {
      await store.update(key, () => ['session', key]);
      await spaceOf(store).update(key, () => ['shared', key]);
    }
    await store.update('session only', () => ['session']);
    await spaceOf(store).update('shared only', () => ['shared']);
    await harness.settle?.();
    const fresh = await harness.open();
    for (const key of keys) {
      expect(await fresh.get(key)).toEqual(['session', key]);
      expect(await spaceOf(fresh).get(key)).toEqual(['shared', key]);
    }
    expect(await fresh.get('shared only')).toBeUndefined();
    expect(await spaceOf(fresh).get('session only')).toBeUndefined();
  });

  it('deletes one shared key, leaving the other keys and the session of the same id', async () => {
    const harness = await make();
    const store = await harness.open();
    for (const key of ['a', 'b']) await spaceOf(store).update(key, add(key));
    await store.update('a', () => ['session a']);
    await harness.settle?.();
    await spaceOf(await harness.open()).delete('a');
    await harness.settle?.();
    const fresh = await harness.open();
    expect(await spaceOf(fresh).get('a')).toBeUndefined();
    expect(await spaceOf(fresh).get('b')).toEqual({ b: 1 });
    expect(await fresh.get('a')).toEqual(['session a']);
  });

  it('clears shared values with the sessions (clear()), and spares them when one session is cleared', async () => {
    const harness = await make();
    const store = await harness.open();
    const layer = createToolSearch({ store, storeTimeoutMs: 10_000 });
    for (const key of ['a', 'learn:app']) await spaceOf(store).update(key, add(key));
    await layer.search({ sessionId: 'a', tools: tools as never[] }, { query: 'email', limit: 1 });
    await store.update('b', () => ['session b']);
    await harness.settle?.();
    await layer.clear('a');
    await harness.settle?.();
    const kept = await harness.open();
    expect(await kept.get('a')).toBeUndefined();
    expect(await spaceOf(kept).get('a')).toEqual({ a: 1 });
    expect(await spaceOf(kept).get('learn:app')).toEqual({ 'learn:app': 1 });
    expect(await kept.get('b')).toEqual(['session b']);

    await createToolSearch({ store: kept }).clear();
    await harness.settle?.();
    const cleared = await harness.open();
    for (const key of ['a', 'learn:app']) expect(await spaceOf(cleared).get(key)).toBeUndefined();
    expect(await cleared.get('b')).toBeUndefined();
    // The space still works after a clear.
    await spaceOf(cleared).update('learn:app', add('again'));
    await harness.settle?.();
    expect(await spaceOf(await harness.open()).get('learn:app')).toEqual({ again: 1 });
  });
}
