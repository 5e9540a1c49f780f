// The KV store over the real workerd KV binding (Miniflare's), plus faults real KV shows in production.
import { createToolSearch, type DiscoveredStore, type Tool } from 'tool-search-layer';
import { createKvStore } from 'tool-search-layer/cloudflare-kv';
import { describe, expect, it } from 'vitest';
import { type Faults, faultyKv, kvNetwork, race } from './faulty-kv.ts';
import { freshPrefix, realKv, requestContext } from './harness.ts';

const real = realKv;

const append = (name: string) => (current: unknown) => {
  const names = (current as string[] | undefined) ?? [];
  return names.includes(name) ? current : [...names, name];
};

describe('cloudflare-kv store', () => {
  it('coalesces one request’s updates into one deferred write, and reads its own pending value', async () => {
    const network = kvNetwork();
    const prefix = freshPrefix();
    const request = requestContext();
    const store = createKvStore({ namespace: faultyKv(real, network, 'a'), prefix, waitUntil: request.waitUntil });
    await store.update('s', append('x'));
    await store.update('s', append('y'));
    expect(await store.get('s')).toEqual(['x', 'y']);
    expect(await store.update('s', append('x'))).toEqual(['x', 'y']);
    await request.settle();
    expect(network.writes).toBe(1);
    const next = createKvStore({ namespace: real, prefix });
    expect(await next.get('s')).toEqual(['x', 'y']);
  });

  it('retries a deferred write that KV answers with 429 a second later, and it lands', async () => {
    const network = kvNetwork();
    const prefix = freshPrefix();
    const request = requestContext();
    const namespace = faultyKv(real, network, 'a', { failPuts: 1 });
    let puts = 0;
    const counted = {
      ...namespace,
      put(...args: Parameters<KVNamespace['put']>) {
        puts++;
        return namespace.put(...args);
      },
    };
    const store = createKvStore({ namespace: counted as KVNamespace, prefix, waitUntil: request.waitUntil });
    await store.update('s', append('x'));
    await request.settle();
    // One put refused with 429, one retry that landed; the wait between them is the bench's to time.
    expect(puts).toBe(2);
    expect(network.writes).toBe(1);
    expect(await createKvStore({ namespace: real, prefix }).get('s')).toEqual(['x']);
  });

  it('gives up a deferred write after 6 attempts, rejecting the waitUntil promise with the session named', async () => {
    const request = requestContext();
    const namespace = faultyKv(real, kvNetwork(), 'a', { failPuts: 100 });
    const store = createKvStore({ namespace, prefix: freshPrefix(), waitUntil: request.waitUntil });
    // The round itself is answered: the write comes after it.
    expect(await store.update('s', append('x'))).toEqual(['x']);
    await expect(request.settle()).rejects.toThrow(/store "cloudflare-kv" could not write session "s" in 6 attempts/);
  }, 15_000);

  it('writes inline without waitUntil, one write per key per second', async () => {
    const network = kvNetwork();
    const prefix = freshPrefix();
    const store = createKvStore({ namespace: faultyKv(real, network, 'a'), prefix });
    await store.update('s', append('x'));
    await store.update('s', append('y'));
    expect(network.writes).toBe(2);
    expect(await createKvStore({ namespace: real, prefix }).get('s')).toEqual(['x', 'y']);
  });

  it('reads a shared value from KV for every request, parsing its text again only when it changed', async () => {
    const prefix = freshPrefix();
    const namespace = faultyKv(real, kvNetwork(), 'a');
    let reads = 0;
    // One binding across the isolate's requests, as Workers gives it.
    const binding = {
      ...namespace,
      get(key: string) {
        if (key.endsWith('x:s:k')) reads++;
        return namespace.get(key);
      },
    } as KVNamespace;
    // Another isolate's writes, straight to KV.
    const other = createKvStore({ namespace: real, prefix });
    const request = () => createKvStore({ namespace: binding, prefix }).shared?.get('k');
    await other.shared?.update('k', () => ({ n: 1 }));
    const first = await request();
    const second = await request();
    expect(second).toEqual({ n: 1 });
    // Read by both requests, parsed once: the same object, which no reader changes in place.
    expect(reads).toBe(2);
    expect(second).toBe(first);
    await other.shared?.update('k', () => ({ n: 2 }));
    expect(await request()).toEqual({ n: 2 });
    expect(reads).toBe(3);
  });

  it('keeps keys within 512 bytes and hostile ids apart', async () => {
    const prefix = freshPrefix();
    const ids = ['../x', 'a:b', '', 'x'.repeat(10_240), '__proto__', '\0', prefix, 'epoch', '\uD800', '\uFFFD'];
    const store = createKvStore({ namespace: real, prefix });
    for (const id of ids) await store.update(id, append(`for ${id.slice(0, 8)}`));
    const reader = createKvStore({ namespace: real, prefix });
    expect(await Promise.all(ids.map((id) => reader.get(id)))).toEqual(ids.map((id) => [`for ${id.slice(0, 8)}`]));
    const { keys } = await real.list({ prefix });
    expect(keys.length).toBe(ids.length);
    expect(Math.max(...keys.map((k) => new TextEncoder().encode(k.name).length))).toBeLessThanOrEqual(512);
  });

  it('clears by starting a new epoch, deletes old keys in the background, and spares other prefixes', async () => {
    const prefix = freshPrefix();
    const other = createKvStore({ namespace: real, prefix: `o${prefix}` });
    await other.update('s', append('kept'));
    const first = createKvStore({ namespace: real, prefix });
    for (const id of ['s1', 's2', 's3']) await first.update(id, append('x'));
    const request = requestContext();
    const clearing = createKvStore({ namespace: real, prefix, waitUntil: request.waitUntil });
    await clearing.clear();
    expect(await clearing.get('s1')).toBeUndefined();
    expect(await createKvStore({ namespace: real, prefix }).get('s2')).toBeUndefined();
    await request.settle();
    expect((await real.list({ prefix })).keys.map((k) => k.name)).toEqual([`${prefix}epoch`]);
    expect(await createKvStore({ namespace: real, prefix: `o${prefix}` }).get('s')).toEqual(['kept']);
  });

  it('clears without listing the namespace when it has no waitUntil for the background deletes', async () => {
    const prefix = freshPrefix();
    let lists = 0;
    const namespace = new Proxy(real, {
      get: (target, property) => {
        const value = Reflect.get(target, property, target);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (property === 'list') lists++;
          return value.apply(target, args);
        };
      },
    });
    const store = createKvStore({ namespace, prefix });
    await store.update('s', append('x'));
    await store.clear();
    await store.clear();
    expect(lists).toBe(0);
    expect(await createKvStore({ namespace: real, prefix }).get('s')).toBeUndefined();
  });

  it('sets an expiration on session keys when ttlSeconds is given', async () => {
    const prefix = freshPrefix();
    const store = createKvStore({ namespace: real, prefix, ttlSeconds: 3600 });
    await store.update('s', append('x'));
    const [key] = (await real.list({ prefix })).keys;
    expect(key?.expiration).toBeGreaterThan(Date.now() / 1000 + 3500);
  });

  it('rejects bad options, naming the path and the reason', () => {
    expect(() => createKvStore({ namespace: real, ttlSeconds: 30 })).toThrow(
      /createKvStore: invalid option "ttlSeconds": must be 60 or more/,
    );
    expect(() => createKvStore({ namespace: real, prefix: 'x'.repeat(65) })).toThrow(/"prefix": must be at most 64/);
    expect(() => createKvStore({ namespace: {} as KVNamespace })).toThrow(/"namespace": must be a KV namespace/);
    expect(() => createKvStore({ namespace: real, waitUntil: 1 as never })).toThrow(/"waitUntil": must be a function/);
  });
});

// Concurrent: each case waits on real time (KV's one write per second), not on the CPU. Sessions hold sets (a change
// applied twice is harmless); shared values hold additive credits, where it would count twice.
describe.concurrent('cloudflare-kv store under racing writers (fault-injecting KV)', () => {
  const cases: { label: string; faults: Faults; stagger: number; maxLost?: number }[] = [
    { label: 'same location, same moment', faults: { visibilityMs: 0 }, stagger: 0, maxLost: 0 },
    { label: 'same location, no 429s', faults: { visibilityMs: 0, rateLimit: false }, stagger: 0, maxLost: 0 },
    {
      label: 'same location, no 429s, 500 ms apart',
      faults: { visibilityMs: 0, rateLimit: false },
      stagger: 500,
      maxLost: 0,
    },
    { label: 'writes visible after 500 ms', faults: { visibilityMs: 500 }, stagger: 0, maxLost: 0 },
    {
      label: 'writes visible after 500 ms, no 429s',
      faults: { visibilityMs: 500, rateLimit: false },
      stagger: 0,
      maxLost: 0,
    },
    { label: 'writes visible after 2.5 s', faults: { visibilityMs: 2500 }, stagger: 0 },
    { label: 'writes visible after 2.5 s, 300 ms apart', faults: { visibilityMs: 2500 }, stagger: 300 },
  ];
  for (const space of ['session', 'shared'] as const)
    for (const { label, faults, stagger, maxLost } of cases) {
      const promise = maxLost === 0 ? 'loses nothing' : 'loses at most one racer’s change';
      it(`${space}, ${label}: ${promise}, doubles nothing`, async ({ expect }) => {
        const network = kvNetwork();
        const results = await Promise.all(
          Array.from({ length: 10 }, () => race(real, network, faults, stagger, space)),
        );
        const lost = results.filter((r) => r.lost > 0).length;
        const doubled = results.filter((r) => r.doubled > 0).length;
        console.log(
          `kv race (${space}), ${label}: ${lost} of ${results.length} races lost a change, ${doubled} doubled one`,
        );
        if (maxLost !== undefined) expect(lost).toBeLessThanOrEqual(maxLost);
        // Nothing but the racers' own changes can go: the seed is in both bases.
        expect(results.every((r) => r.lost <= 1)).toBe(true);
        expect(doubled).toBe(0);
      }, 30_000);
    }
});

describe('a failing KV store does not fail the round', () => {
  const tools: Tool[] = Array.from({ length: 12 }, (_, i) => ({
    name: `tool_${i}`,
    description: `Tool number ${i} for task ${i}`,
    parameters: { type: 'object', properties: {} },
  }));

  async function round(store: DiscoveredStore, storeTimeoutMs = 1000) {
    const warnings: string[] = [];
    const logger = { warn: (m: string) => warnings.push(m), debug: () => {} };
    const layer = createToolSearch({ store, logger, storeTimeoutMs });
    const first = await layer.prepare({ sessionId: 's', tools });
    const result = await layer.search({ sessionId: 's', tools }, { query: 'tool_3' });
    const found = { tools: 'tools' in result ? result.tools : [] };
    const second = await layer.prepare({ sessionId: 's', tools });
    return { first, found, second, warnings };
  }

  it('falls back to memory with one warning when KV answers 429', async () => {
    const namespace = faultyKv(real, kvNetwork(), 'a', { mode: 'fail' });
    const { first, found, second, warnings } = await round(createKvStore({ namespace, prefix: freshPrefix() }));
    expect(first.tools.map((t) => t.name)).toContain('search_tools');
    expect(found.tools.map((t) => t.name)).toContain('tool_3');
    expect(second.discovered).toContain('tool_3');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/cloudflare-kv.*429/);
  });

  it('falls back to memory with one warning when KV hangs, within the layer’s store timeout', async () => {
    const namespace = faultyKv(real, kvNetwork(), 'a', { mode: 'hang' });
    // Every KV call hangs for ever: that the rounds end at all is the store timeout's doing.
    const { first, found, second, warnings } = await round(createKvStore({ namespace, prefix: freshPrefix() }), 200);
    expect(first.tools.map((t) => t.name)).toContain('search_tools');
    expect(found.tools.map((t) => t.name)).toContain('tool_3');
    expect(second.discovered).toContain('tool_3');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/cloudflare-kv.*took longer than 200 ms/);
  });
});
