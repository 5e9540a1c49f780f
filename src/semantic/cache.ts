// The vectors of the ranker hook: asked for lazily, in batches, and kept module-wide per model and text,
// so a catalogue is embedded once however many layers (a Worker may create one per request) search it.
import type { Tool } from '../base/types.ts';
import { EMBED_BATCH, MAX_TOOL_VECTORS } from './options.ts';
import type { VectorStore } from './vector-store.ts';

export { EMBED_BATCH, MAX_TOOL_VECTORS } from './options.ts';

/** Query vectors kept, so paging through one query asks the model once. */
const MAX_QUERY_VECTORS = 1_000;
/** Batches in flight at once for one search: a cold catalogue of 4,000 tools is 63 batches. */
const PARALLEL = 4;
/** Characters of a tool's text sent to the model: embedding models read about 512 tokens. */
const MAX_TEXT = 2_000;

/** The host's embedding function (see SemanticOptions.embed). */
export type Embed = (
  texts: string[],
  kind: 'tool' | 'query',
) => Promise<readonly (readonly number[] | Float32Array | null)[]>;

/** The vector of a text the model abstained on (it returned null): such a text is ranked lexically alone. */
export const ABSTAINED: Float32Array = new Float32Array(0);

// Created on first use, so importing the library does no work.
let caches:
  | {
      readonly tools: Map<string, Float32Array>;
      readonly queries: Map<string, Float32Array>;
      readonly pending: Map<string, Promise<Float32Array>>;
      readonly functionIds: WeakMap<Embed, number>;
      readonly items: WeakMap<object, EmbedItem>;
      functions: number;
    }
  | undefined;

const state = () =>
  (caches ??= {
    tools: new Map(),
    queries: new Map(),
    pending: new Map(),
    functionIds: new WeakMap(),
    items: new WeakMap(),
    functions: 0,
  });

/** The cache key of a model: its name when the host gives one, else the identity of the embed function. */
export function vectorKeyOf(options: { readonly embed: Embed; readonly model: string | undefined }): string {
  if (options.model !== undefined) return `m:${options.model}`;
  const s = state();
  let id = s.functionIds.get(options.embed);
  if (id === undefined) {
    id = ++s.functions;
    s.functionIds.set(options.embed, id);
  }
  return `f:${id}`;
}

/** A text to embed and its content key (a hash of the text and its length). */
export interface EmbedItem {
  readonly text: string;
  readonly key: string;
}

/** A query as an item to embed. */
export const queryItem = (query: string): EmbedItem => ({ text: query, key: `${hash(query)}:${query.length}` });

/**
 * What the model reads of a tool: its name split into words, its description, and its `keywords` if it has
 * them; remembered per tool object, so a search over a known catalogue hashes nothing.
 */
export function toolItem(tool: Tool): EmbedItem {
  const { items } = state();
  const known = items.get(tool);
  if (known !== undefined) return known;
  const name = tool.name
    .replace(/([a-z\d])(?=[A-Z])/g, '$1 ')
    .replace(/[_\-.:/]+/g, ' ')
    .trim();
  const keywords = Array.isArray(tool.keywords)
    ? tool.keywords.filter((k) => typeof k === 'string').join(', ')
    : typeof tool.keywords === 'string'
      ? tool.keywords
      : '';
  const parts = [name, typeof tool.description === 'string' ? tool.description : '', keywords];
  const item = queryItem(parts.filter(Boolean).join('. ').slice(0, MAX_TEXT));
  items.set(tool, item);
  return item;
}

/** A 53-bit hash of a text (cyrb53), so cache keys stay short whatever the descriptions' length. */
function hash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/** A vector as the model returned it, checked and scaled to unit length so that a dot product is the cosine; null abstains. */
function unit(vector: unknown, dimensions: number | undefined): Float32Array {
  if (vector === null) return ABSTAINED;
  const ok = Array.isArray(vector) || vector instanceof Float32Array || vector instanceof Float64Array;
  const values = ok ? (vector as ArrayLike<unknown>) : [];
  if (values.length === 0 || (dimensions !== undefined && values.length !== dimensions)) {
    throw new Error('embed must resolve to one non-empty vector per text, all of one length');
  }
  const out = new Float32Array(values.length);
  let norm = 0;
  for (let i = 0; i < values.length; i++) {
    const x = values[i];
    if (typeof x !== 'number' || !Number.isFinite(x)) throw new Error('embed returned a vector with a non-number');
    out[i] = x;
    norm += x * x;
  }
  if (norm > 0) for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) / Math.sqrt(norm);
  return out;
}

async function embedBatch(embed: Embed, batch: string[], kind: 'tool' | 'query'): Promise<Float32Array[]> {
  const vectors: unknown = await embed(batch, kind);
  if (!Array.isArray(vectors) || vectors.length !== batch.length) {
    throw new Error(`embed must resolve to an array of ${batch.length} vectors, one per text`);
  }
  let dimensions: number | undefined;
  return vectors.map((vector) => {
    const v = unit(vector, dimensions);
    if (v.length > 0) dimensions = v.length;
    return v;
  });
}

function remember(cache: Map<string, Float32Array>, key: string, vector: Float32Array, max: number): void {
  cache.delete(key);
  if (cache.size >= max) cache.delete(cache.keys().next().value as string);
  cache.set(key, vector);
}

/** Where vectors come from: the host's model, and the store's shared space when the layer persists them. */
export interface VectorSource {
  readonly embed: Embed;
  /** Tool vectors of this model in the store: read before the model is asked, written after. */
  readonly stored?: VectorStore | undefined;
}

/**
 * The vectors of `wanted` for a model: cached ones at once, ones another search is already asking for shared,
 * tool vectors the store holds read back, the rest asked for in batches of EMBED_BATCH, at most PARALLEL at a time
 * (and then written to the store, before the returned promise resolves).
 */
export function toolVectors(
  options: VectorSource,
  model: string,
  wanted: readonly EmbedItem[],
  kind: 'tool' | 'query',
): Promise<Float32Array[]> {
  const { tools, queries, pending } = state();
  const cache = kind === 'tool' ? tools : queries;
  const max = kind === 'tool' ? MAX_TOOL_VECTORS : MAX_QUERY_VECTORS;
  const keys = wanted.map((item) => `${model}\0${kind}\0${item.key}`);
  const missing = new Map<string, EmbedItem>();
  const out = keys.map((key, i) => {
    const known = cache.get(key);
    if (known) {
      remember(cache, key, known, max);
      return known;
    }
    const asked = pending.get(key);
    if (asked) return asked;
    missing.set(key, wanted[i] as EmbedItem);
    return undefined;
  });
  const settle = new Map<string, { resolve: (v: Float32Array) => void; reject: (e: unknown) => void }>();
  for (const [key] of missing) {
    pending.set(
      key,
      new Promise<Float32Array>((resolve, reject) => {
        settle.set(key, { resolve, reject });
      }),
    );
  }
  const done = (key: string, vector: Float32Array) => {
    remember(cache, key, vector, max);
    pending.delete(key);
    settle.get(key)?.resolve(vector);
    settle.delete(key);
  };
  const fail = (key: string, error: unknown) => {
    pending.delete(key);
    settle.get(key)?.reject(error);
    settle.delete(key);
  };
  const stored = kind === 'tool' ? options.stored : undefined;
  const vectors = Promise.all(
    out.map((vector, i) => vector ?? (pending.get(keys[i] as string) as Promise<Float32Array>)),
  );
  // A store or a model that throws past the guards still settles every key, so no search waits forever.
  const filled = fill(options.embed, stored, [...missing], kind, done, fail).catch((error) => {
    for (const [key] of missing) if (settle.has(key)) fail(key, error);
  });
  if (!stored || missing.size === 0) return vectors;
  vectors.catch(() => undefined);
  return filled.then(() => vectors);
}

/** Reads what the store holds, embeds the rest and writes it back; settles every key either way. */
async function fill(
  embed: Embed,
  stored: VectorStore | undefined,
  missing: readonly (readonly [string, EmbedItem])[],
  kind: 'tool' | 'query',
  done: (key: string, vector: Float32Array) => void,
  fail: (key: string, error: unknown) => void,
): Promise<void> {
  if (missing.length === 0) return;
  let waiting: (readonly [string, EmbedItem])[] = [...missing];
  if (stored) {
    // The guard never throws: a failing store finds nothing, and the model is asked as if it were cold.
    const found = await stored.read(missing.map(([, item]) => item.key));
    waiting = [];
    for (const entry of missing) {
      const vector = found.get(entry[1].key);
      if (vector) done(entry[0], vector);
      else waiting.push(entry);
    }
  }
  const embedded = new Map<string, Float32Array>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < waiting.length) {
      const batch = waiting.slice(next, next + EMBED_BATCH);
      next += batch.length;
      try {
        const vectors = await embedBatch(
          embed,
          batch.map(([, item]) => item.text),
          kind,
        );
        batch.forEach(([key, item], j) => {
          embedded.set(item.key, vectors[j] as Float32Array);
          done(key, vectors[j] as Float32Array);
        });
      } catch (error) {
        // This batch and the ones not yet started fail: the next search asks again.
        for (const [key] of [...batch, ...waiting.slice(next)]) fail(key, error);
        next = waiting.length;
      }
    }
  };
  const workers = Math.min(PARALLEL, Math.ceil(waiting.length / EMBED_BATCH));
  await Promise.all(Array.from({ length: workers }, worker));
  if (stored && embedded.size > 0) await stored.write(embedded);
}
