// Tool vectors in the store's shared space, so that a cold isolate reads a catalogue's vectors back instead of
// embedding it again. Per model, a head `vectors:<model>` names the dimensions and the bucket count; a tool's vector
// lives in the bucket `vectors:<model>:<buckets>:<i>` that a hash of its content key picks, so a changed tool only
// misses its own vector, and a cold start costs two store round trips (the head, then its buckets in parallel).
// A catalogue that outgrows its buckets doubles them (or more): the head keeps the previous count, so vectors are
// read from the old layout once and moved to the new one instead of being embedded again.
import { guardShared, type SharedGuardOptions } from '../core/shared-guard.ts';
import { fnv1a } from '../search/fnv.ts';
import type { DiscoveredStore } from '../stores/store.ts';
import { decodeVector, encodedLength, encodeVector } from './vector-codec.ts';

/** The vectors of one model in a store's shared space. */
export interface VectorStore {
  /** The stored vectors of the content keys found; a failing store finds none (warned once). */
  read(keys: readonly string[]): Promise<Map<string, Float32Array>>;
  /** Adds vectors; waits until the store has them (or failed, warned once). */
  write(vectors: ReadonlyMap<string, Float32Array>): Promise<void>;
}

const VERSION = 1;
/** Characters a bucket holds at most: the shared space takes 100 KB of JSON, and KV adds its write marks. */
const MAX_CHARS = 90_000;
/** A new head sizes its buckets half full, so the catalogue can grow before a bucket drops its oldest vectors. */
const FILL = 0.5;
/** Characters a stored entry takes beyond its vector: its content key, quotes, colon and comma. */
const ENTRY_OVERHEAD = 24;

interface Head {
  readonly v: number;
  /** Dimensions of the model's vectors. */
  readonly d: number;
  /** Buckets, a power of two. */
  readonly b: number;
  /** The bucket count before the last growth, whose buckets may still hold vectors not yet moved. */
  readonly p?: number;
}

interface Bucket {
  readonly v: number;
  readonly d: number;
  /** Content key to encoded vector, oldest first. */
  readonly e: Record<string, string>;
}

const readHead = (value: unknown): Head | undefined => {
  const head = value as Head | undefined;
  return head?.v === VERSION && Number.isInteger(head.d) && head.d > 0 && Number.isInteger(head.b) && head.b > 0
    ? head
    : undefined;
};

const readBucket = (value: unknown, d: number): Bucket | undefined => {
  const bucket = value as Bucket | undefined;
  return bucket?.v === VERSION && bucket.d === d && typeof bucket.e === 'object' && bucket.e !== null
    ? bucket
    : undefined;
};

/** The bucket of a content key: FNV-1a over its characters, masked to the (power of two) bucket count. */
const bucketOf = (key: string, buckets: number): number => fnv1a(key) & (buckets - 1);

/** Buckets for `count` vectors of `d` dimensions at FILL of MAX_CHARS each. */
function bucketsFor(count: number, d: number): number {
  const wanted = Math.ceil((count * (encodedLength(d) + ENTRY_OVERHEAD)) / (MAX_CHARS * FILL));
  return 2 ** Math.ceil(Math.log2(Math.max(1, wanted)));
}

/** Adds `entries` to a bucket, dropping its oldest other vectors past MAX_CHARS (counted in `dropped`); the bucket itself when nothing is new. */
function addTo(
  current: unknown,
  d: number,
  entries: readonly (readonly [string, string])[],
  dropped: { count: number },
): unknown {
  const bucket = readBucket(current, d);
  if (bucket && entries.every(([key, text]) => bucket.e[key] === text)) return current;
  const e: Record<string, string> = { ...bucket?.e };
  for (const [key, text] of entries) {
    delete e[key];
    e[key] = text;
  }
  const fresh = new Set(entries.map(([key]) => key));
  let chars = 0;
  for (const key in e) chars += key.length + (e[key] as string).length + 6;
  for (const key in e) {
    if (chars <= MAX_CHARS) break;
    if (fresh.has(key)) continue;
    chars -= key.length + (e[key] as string).length + 6;
    delete e[key];
    dropped.count++;
  }
  return { v: VERSION, d, e } satisfies Bucket;
}

/** The vectors of `model` in a store's shared space, through the layer's store guard. */
export function vectorStore(
  store: DiscoveredStore,
  guard: SharedGuardOptions,
  model: string,
  warn: (message: string) => void,
): VectorStore {
  const shared = guardShared(store, guard);
  const headKey = `vectors:${model}`;
  const bucketKey = (buckets: number, i: number) => `vectors:${model}:${buckets}:${i}`;
  let known: Head | undefined;

  /** Reads `keys` from the layout of `buckets` buckets into `found`. */
  async function readLayout(head: Head, buckets: number, keys: readonly string[], found: Map<string, Float32Array>) {
    const byBucket = new Map<number, string[]>();
    for (const key of keys) {
      const i = bucketOf(key, buckets);
      const list = byBucket.get(i);
      if (list) list.push(key);
      else byBucket.set(i, [key]);
    }
    await Promise.all(
      [...byBucket].map(async ([i, wanted]) => {
        const bucket = readBucket(await shared.get(bucketKey(buckets, i), warn), head.d);
        if (!bucket) return;
        for (const key of wanted) {
          const vector = Object.hasOwn(bucket.e, key) ? decodeVector(bucket.e[key], head.d) : undefined;
          if (vector) found.set(key, vector);
        }
      }),
    );
  }

  /** Adds vectors to the buckets of `head`; grows the head when a bucket had to drop vectors to fit. */
  async function add(head: Head, vectors: ReadonlyMap<string, Float32Array>): Promise<void> {
    const byBucket = new Map<number, [string, string][]>();
    for (const [key, vector] of vectors) {
      if (vector.length !== 0 && vector.length !== head.d) continue;
      const i = bucketOf(key, head.b);
      const entry: [string, string] = [key, encodeVector(vector)];
      const list = byBucket.get(i);
      if (list) list.push(entry);
      else byBucket.set(i, [entry]);
    }
    const dropped = { count: 0 };
    await Promise.all(
      [...byBucket].map(([i, entries]) =>
        shared.update(bucketKey(head.b, i), (c) => addTo(c, head.d, entries, dropped), warn),
      ),
    );
    if (dropped.count === 0) return;
    // Full buckets: the next cold start would embed what they dropped, every time. Twice the buckets, from now on.
    const grown: Head = { v: VERSION, d: head.d, b: head.b * 2, p: head.b };
    const stored = await shared.update(
      headKey,
      (current) => {
        const now = readHead(current);
        return now && now.d === head.d && now.b > head.b ? current : grown;
      },
      warn,
    );
    known = readHead(stored) ?? grown;
  }

  return {
    async read(keys) {
      const found = new Map<string, Float32Array>();
      known ??= readHead(await shared.get(headKey, warn));
      const head = known;
      if (!head || keys.length === 0) return found;
      await readLayout(head, head.b, keys, found);
      if (head.p === undefined || found.size === keys.length) return found;
      // Vectors written before the buckets grew: read once from the old layout and moved to the new one.
      const moved = new Map<string, Float32Array>();
      await readLayout(
        head,
        head.p,
        keys.filter((key) => !found.has(key)),
        moved,
      );
      if (moved.size === 0) return found;
      await add(head, moved);
      for (const [key, vector] of moved) found.set(key, vector);
      return found;
    },

    async write(vectors) {
      const d = [...vectors.values()].find((v) => v.length > 0)?.length;
      if (d === undefined) return;
      if (known?.d !== d || bucketsFor(vectors.size, d) > known.b * 2) {
        // A first write sizes the buckets half full; a write too large for the buckets it finds sizes new ones.
        const b = bucketsFor(vectors.size, d);
        // Another isolate's head for the same dimensions and enough buckets wins: both then fill the same buckets.
        const stored = await shared.update(
          headKey,
          (current) => {
            const now = readHead(current);
            if (now?.d === d && now.b >= b) return current;
            return { v: VERSION, d, b, ...(now?.d === d ? { p: now.b } : {}) } satisfies Head;
          },
          warn,
        );
        known = readHead(stored) ?? { v: VERSION, d, b };
      }
      await add(known, vectors);
    },
  };
}
