// Discovered sets in Cloudflare Workers KV: eventually consistent, no compare-and-swap, one write per key per second.
import * as v from 'valibot';
import { parseOptions } from '../base/validate.ts';
import type { KvNamespaceLike } from './cloudflare-types.ts';
import { storageIdentity } from './identity.ts';
import { prefixSchema, sessionKey, sharedKey } from './keys.ts';
import { kvSpace } from './kv-space.ts';
import type { DiscoveredStore } from './store.ts';

export type { KvNamespaceLike, KvPutOptions } from './cloudflare-types.ts';

/** Options of the KV store; build one per request from that request's binding. */
export interface KvStoreOptions {
  /** The KV namespace binding of this request, e.g. `env.DISCOVERED`. */
  readonly namespace: KvNamespaceLike;
  /** Prefix of every key this store writes. Default `'tsl:'`. */
  readonly prefix?: string;
  /** A session not written for this long expires, in seconds (KV's minimum is 60; reads do not extend it). Default: never. */
  readonly ttlSeconds?: number;
  /** The request's `ctx.waitUntil`: writes are deferred past the response and verified. Without it each write is made inline: a session's is not read back, a shared value's is (the call waits a second or more). */
  readonly waitUntil?: (promise: Promise<unknown>) => void;
}

const KEY_BYTES = 512;
// The epoch last read or written per storage identity (binding and prefix) in this isolate: a new instance's first
// reads go out under it at once instead of waiting for its own read of the epoch.
const lastEpoch = /* @__PURE__ */ new WeakMap<object, string>();
// Old keys deleted in the background after a clear (one list page each for shared values and sessions); the rest
// of the sessions expire (ttlSeconds) or stay as garbage.
const CLEAR_DELETES = 200;

const schema = v.strictObject(
  {
    namespace: v.custom<KvNamespaceLike>(
      (value) =>
        typeof value === 'object' &&
        value !== null &&
        ['get', 'put', 'delete', 'list'].every((m) => typeof (value as Record<string, unknown>)[m] === 'function'),
      'must be a KV namespace binding (env.<BINDING>)',
    ),
    prefix: prefixSchema,
    ttlSeconds: v.optional(
      v.pipe(v.number('must be a number'), v.integer('must be an integer'), v.minValue(60, 'must be 60 or more (KV)')),
    ),
    waitUntil: v.optional(
      v.custom<(promise: Promise<unknown>) => void>((f) => typeof f === 'function', 'must be a function'),
    ),
  },
  'is not an option',
);

/**
 * Keeps discovered sets in Workers KV. KV has no compare-and-swap, so racing writers merge instead of
 * overwriting: the updates of a key from every store instance of an isolate over the same binding
 * wait in one queue, each write re-reads the key and replays them onto it (a rebase), at most once a
 * second per key, and (with `waitUntil`, and always for shared values) reads the key back a second
 * later and rebases again if another writer's value replaced ours. A race can still lose a discovery when the other writer's value stays invisible to us
 * for longer than that second (KV is eventually consistent across locations, up to 60 s); a Durable
 * Object store loses nothing. `clear()` starts a new key epoch instead of listing every key.
 * @example const store = createKvStore({ namespace: env.DISCOVERED, waitUntil: ctx.waitUntil.bind(ctx) })
 */
/* @__NO_SIDE_EFFECTS__ */
export function createKvStore(options: KvStoreOptions): DiscoveredStore {
  const { namespace, prefix, ttlSeconds, waitUntil } = parseOptions(schema, options, 'createKvStore');
  const epochKey = `${prefix}epoch`;
  const putOptions = ttlSeconds === undefined ? undefined : { expirationTtl: ttlSeconds };
  const identity = storageIdentity(namespace, prefix);
  // Read once per instance: an instance lives for one request.
  let epoch: Promise<string> | undefined;

  const currentEpoch = () => {
    epoch ??= namespace.get(epochKey).then(
      (value) => {
        const read = value ?? '0';
        lastEpoch.set(identity, read);
        return read;
      },
      (error: unknown) => {
        epoch = undefined;
        throw error;
      },
    );
    return epoch;
  };
  const base = async () => `${prefix}${await currentEpoch()}:`;
  // The epoch this isolate read last over the binding (the first, '0', before it read one), while this instance's
  // own read is under way: a key read under it alongside the epoch stands if the epoch turns out the same.
  const likelyBase = () => `${prefix}${lastEpoch.get(identity) ?? '0'}:`;
  const sessions = kvSpace({
    namespace,
    keyOf: async (id) => sessionKey(await base(), id, KEY_BYTES),
    likelyKeyOf: (id) => sessionKey(likelyBase(), id, KEY_BYTES),
    what: 'session',
    putOptions,
    waitUntil,
    marked: false,
  });
  // Shared values do not expire: what they hold (learned credits, vectors of a catalogue) fades or is replaced by
  // the layer's own rules, not by KV's clock.
  const shared = kvSpace({
    namespace,
    keyOf: async (key) => sharedKey(await base(), key, KEY_BYTES),
    likelyKeyOf: (key) => sharedKey(likelyBase(), key, KEY_BYTES),
    what: 'shared value',
    putOptions: undefined,
    waitUntil,
    marked: true,
  });

  return {
    name: 'cloudflare-kv',
    get: (sessionId) => sessions.get(sessionId),
    update: (sessionId, apply) => sessions.update(sessionId, apply),
    delete: (sessionId) => sessions.delete(sessionId),
    // A session's update opens with a read: begun when the layer says one follows, it overlaps the ranking's reads.
    prefetch: (sessionId) => sessions.prefetch(sessionId),
    async clear() {
      const old = await currentEpoch();
      const next = Math.max(Date.now(), (Number.parseInt(old, 36) || 0) + 1).toString(36);
      await namespace.put(epochKey, next);
      epoch = Promise.resolve(next);
      lastEpoch.set(identity, next);
      sessions.forget();
      shared.forget();
      // Old keys are unreachable now; delete a page of them in the background, shared values first (they never
      // expire), then sessions (the rest expire through ttlSeconds).
      const deletePage = async (under: string) => {
        const page = await namespace.list({ prefix: `${prefix}${old}:${under}`, limit: CLEAR_DELETES });
        await Promise.all(page.keys.map((k) => namespace.delete(k.name)));
      };
      waitUntil?.(
        deletePage('x:')
          .then(() => deletePage(''))
          .catch(() => undefined),
      );
    },
    shared: {
      get: shared.get,
      update: shared.update,
      delete: shared.delete,
      writeWaitMs: shared.writeWaitMs,
      // The binding is the same object across the requests of an isolate (the same the write queues are keyed by).
      identity,
    },
  };
}
