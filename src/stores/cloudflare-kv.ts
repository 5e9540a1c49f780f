// Discovered sets in Cloudflare Workers KV: eventually consistent, no compare-and-swap, one write per key per second.
import type { KVNamespace } from '@cloudflare/workers-types';
import * as v from 'valibot';
import { ToolSearchError } from '../core/errors.ts';
import type { DiscoveredStore, RecordUpdate } from '../core/store-guard.ts';
import { parseOptions } from '../core/validate.ts';
import { prefixSchema, sessionKey } from './keys.ts';

/** Options of the KV store; build one per request from that request's binding. */
export interface KvStoreOptions {
  /** The KV namespace binding of this request, e.g. `env.DISCOVERED`. */
  readonly namespace: KVNamespace;
  /** Prefix of every key this store writes. Default `'tsl:'`. */
  readonly prefix?: string;
  /** A session not written for this long expires, in seconds (KV's minimum is 60; reads do not extend it). Default: never. */
  readonly ttlSeconds?: number;
  /** The request's `ctx.waitUntil`: writes are deferred past the response, coalesced and verified. Without it each write is made inline and not verified. */
  readonly waitUntil?: (promise: Promise<unknown>) => void;
}

const KEY_BYTES = 512;
// KV takes one write per key per second; the read-back that checks a write waits as long.
const WRITE_GAP_MS = 1000;
// Writes of one flush (first write, rewrites after a lost race, retries after errors) before it gives up.
const MAX_WRITES = 4;
// Old sessions deleted in the background after a clear (one list page); the rest expire or stay as garbage.
const CLEAR_DELETES = 200;

const schema = v.strictObject(
  {
    namespace: v.custom<KVNamespace>(
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

/** One session as this store instance knows it. */
interface Session {
  /** What this instance reads: the last value read or written, with the pending updates applied. */
  view: unknown;
  /** Updates not yet confirmed in KV, oldest first; re-applied onto the freshest value at each write. */
  pending: RecordUpdate[];
  /** When this instance last wrote the key (0: never). */
  wrote: number;
  /** The deferred flush under way, if any. */
  flushing?: Promise<void> | undefined;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));
const replay = (pending: readonly RecordUpdate[], value: unknown) => pending.reduce((acc, apply) => apply(acc), value);

/**
 * Keeps discovered sets in Workers KV. KV has no compare-and-swap, so racing writers merge instead of
 * overwriting: each write re-reads the key and replays this instance's updates onto it (a rebase), and,
 * with `waitUntil`, reads the key back a second later and rebases again if another writer's value
 * replaced ours. A race can still lose a discovery when the other writer's value stays invisible to us
 * for longer than that second (KV is eventually consistent across locations, up to 60 s); a Durable
 * Object store loses nothing. `clear()` starts a new key epoch instead of listing every key.
 * @example const store = createKvStore({ namespace: env.DISCOVERED, waitUntil: ctx.waitUntil.bind(ctx) })
 */
/* @__NO_SIDE_EFFECTS__ */
export function createKvStore(options: KvStoreOptions): DiscoveredStore {
  const { namespace, prefix, ttlSeconds, waitUntil } = parseOptions(schema, options, 'createKvStore');
  const epochKey = `${prefix}epoch`;
  const putOptions = ttlSeconds === undefined ? undefined : { expirationTtl: ttlSeconds };
  const sessions = new Map<string, Session>();
  // Read once per instance: an instance lives for one request.
  let epoch: Promise<string> | undefined;

  const currentEpoch = () => {
    epoch ??= namespace.get(epochKey).then(
      (value) => value ?? '0',
      (error: unknown) => {
        epoch = undefined;
        throw error;
      },
    );
    return epoch;
  };
  const keyOf = async (sessionId: string) => sessionKey(`${prefix}${await currentEpoch()}:`, sessionId, KEY_BYTES);
  const read = async (key: string): Promise<unknown> => {
    const text = await namespace.get(key);
    return text === null ? undefined : JSON.parse(text);
  };
  const write = async (key: string, value: unknown) => {
    if (value === undefined) await namespace.delete(key);
    else await namespace.put(key, JSON.stringify(value), putOptions);
  };

  async function session(sessionId: string): Promise<Session> {
    let known = sessions.get(sessionId);
    if (!known) {
      const view = await read(await keyOf(sessionId));
      // Another call may have loaded it while we read.
      known = sessions.get(sessionId) ?? { view, pending: [], wrote: 0 };
      sessions.set(sessionId, known);
    }
    return known;
  }

  /** Writes the pending updates rebased onto the freshest value and checks they survived; bounded. */
  async function flush(sessionId: string, entry: Session, verify: boolean): Promise<void> {
    const key = await keyOf(sessionId);
    let writes = 0;
    let failure: unknown;
    while (entry.pending.length > 0) {
      if (writes >= MAX_WRITES) {
        const message = `store "cloudflare-kv" could not write session "${sessionId}" in ${writes} attempts`;
        throw new ToolSearchError(message, { cause: failure });
      }
      await sleep(entry.wrote + WRITE_GAP_MS - Date.now());
      const batch = entry.pending.slice();
      let landed: unknown;
      try {
        const fresh = await read(key);
        landed = replay(batch, fresh);
        if (landed === fresh) {
          // The freshest value already holds these updates (another writer merged them): nothing to write.
        } else {
          writes++;
          entry.wrote = Date.now();
          await write(key, landed);
          if (verify) {
            await sleep(entry.wrote + WRITE_GAP_MS - Date.now());
            const seen = await namespace.get(key);
            const value = seen === null ? undefined : JSON.parse(seen);
            // Ours is still the value, or another writer's holds our updates (replaying them changes nothing):
            // anything else means a racing write replaced ours, so rebase onto it and write again.
            if (seen !== JSON.stringify(landed) && replay(batch, value) !== value) continue;
            landed = value;
          }
        }
      } catch (error) {
        // A 429 (another writer took this second) or a transient failure: wait a write gap and rebase again.
        failure = error;
        writes++;
        entry.wrote = Date.now();
        continue;
      }
      entry.pending.splice(0, batch.length);
      entry.view = replay(entry.pending, landed);
    }
  }

  /** Starts the session's flush unless one is under way; updates made meanwhile join it. */
  function startFlush(sessionId: string, entry: Session, verify: boolean): Promise<void> {
    entry.flushing ??= (async () => {
      // Let the rest of this request's updates join the same write.
      await sleep(0);
      try {
        await flush(sessionId, entry, verify);
      } finally {
        entry.flushing = undefined;
      }
    })();
    return entry.flushing;
  }

  function defer(sessionId: string, entry: Session, waitUntil: (promise: Promise<unknown>) => void): void {
    if (entry.flushing) return;
    const run = startFlush(sessionId, entry, true).then(() => {
      // An update that arrived as the flush was finishing.
      if (entry.pending.length > 0) defer(sessionId, entry, waitUntil);
    });
    waitUntil(run);
  }

  return {
    name: 'cloudflare-kv',
    async get(sessionId) {
      return (await session(sessionId)).view;
    },
    async update(sessionId, apply) {
      const entry = await session(sessionId);
      const next = apply(entry.view);
      if (next === entry.view) return next;
      entry.view = next;
      entry.pending.push(apply);
      if (waitUntil) defer(sessionId, entry, waitUntil);
      else while (entry.pending.includes(apply)) await startFlush(sessionId, entry, false);
      return next;
    },
    async delete(sessionId) {
      const entry = sessions.get(sessionId);
      sessions.set(sessionId, { view: undefined, pending: [], wrote: entry?.wrote ?? 0 });
      if (entry) {
        entry.pending.length = 0;
        await entry.flushing?.catch(() => undefined);
      }
      await namespace.delete(await keyOf(sessionId));
    },
    async clear() {
      const old = await currentEpoch();
      const next = Math.max(Date.now(), (Number.parseInt(old, 36) || 0) + 1).toString(36);
      await namespace.put(epochKey, next);
      epoch = Promise.resolve(next);
      for (const entry of sessions.values()) entry.pending.length = 0;
      sessions.clear();
      // Old keys are unreachable now; delete one page of them in the background, the rest expire (ttlSeconds).
      waitUntil?.(
        namespace
          .list({ prefix: `${prefix}${old}:`, limit: CLEAR_DELETES })
          .then((page) => Promise.all(page.keys.map((k) => namespace.delete(k.name))))
          .catch(() => undefined),
      );
    },
  };
}
