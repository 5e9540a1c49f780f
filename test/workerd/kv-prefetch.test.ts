// The KV store's read ahead (`prefetch`) over the real workerd KV binding (Miniflare's): the update that takes the
// read still applies to the newest value the isolate knows, and updates made together in one instance all land.
import { createKvStore } from 'tool-search-layer/cloudflare-kv';
import { describe, expect, it } from 'vitest';
import { freshPrefix, realKv, requestContext } from './harness.ts';

const append = (name: string) => (current: unknown) => {
  const names = (current as string[] | undefined) ?? [];
  return names.includes(name) ? current : [...names, name];
};

/** The binding with its reads of one key counted. */
function counting(namespace: KVNamespace) {
  const reads = new Map<string, number>();
  const counted = new Proxy(namespace, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (property !== 'get') return typeof value === 'function' ? value.bind(target) : value;
      return (key: string, ...rest: unknown[]) => {
        reads.set(key, (reads.get(key) ?? 0) + 1);
        return (value as (...args: unknown[]) => unknown).call(target, key, ...rest);
      };
    },
  });
  return { namespace: counted, reads };
}

describe('cloudflare-kv store: a read ahead of an update', () => {
  it('lands every update made together after a prefetch, with one read of the session', async () => {
    const prefix = freshPrefix();
    await createKvStore({ namespace: realKv, prefix }).update('s', append('before'));
    const { namespace, reads } = counting(realKv);
    const request = requestContext();
    const store = createKvStore({ namespace, prefix, waitUntil: request.waitUntil });
    store.prefetch?.('s');
    const after = await Promise.all(['a', 'b', 'c'].map((name) => store.update('s', append(name))));
    // Each update sees the stored value and the ones queued before it in this instance.
    expect(after.map((names) => [...(names as string[])].sort())).toEqual([
      ['a', 'before'],
      ['a', 'b', 'before'],
      ['a', 'b', 'before', 'c'],
    ]);
    expect(reads.get(`${prefix}0:s:s`)).toBe(1);
    await request.settle();
    expect(await createKvStore({ namespace: realKv, prefix }).get('s')).toEqual(['before', 'a', 'b', 'c']);
  });

  it('applies an update to a write the isolate landed after the prefetch began, not to the older read', async () => {
    const prefix = freshPrefix();
    const request = requestContext();
    const store = createKvStore({ namespace: realKv, prefix, waitUntil: request.waitUntil });
    store.prefetch?.('s');
    // Another request of the isolate writes the session inline meanwhile (same binding: the same queue).
    await createKvStore({ namespace: realKv, prefix }).update('s', append('other'));
    expect(await store.update('s', append('mine'))).toEqual(['other', 'mine']);
    // And the instance's own write is what its next update starts from.
    store.prefetch?.('s');
    expect(await store.update('s', append('again'))).toEqual(['other', 'mine', 'again']);
    await request.settle();
    expect(await createKvStore({ namespace: realKv, prefix }).get('s')).toEqual(['other', 'mine', 'again']);
  });
});
