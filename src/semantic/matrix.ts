// A catalogue's tool vectors as one matrix per array and model, so that a query's similarities are one pass over
// contiguous memory: thousands of separate small arrays made the fused query many times slower than the keywords.

import type { Tool } from '../base/types.ts';
import type { Catalogue } from '../core/catalogue.ts';
import { type Embed, toolItem, toolVectors } from './cache.ts';
import type { Similarities } from './fusion.ts';
import { PREFILTER_MARGIN, type SparseColumns, sparseBounds, sparseColumns } from './prefilter.ts';
import { type QuantizedRows, quantizedBounds, quantizedRows } from './quantized.ts';

/** One catalogue array's vectors for one model: per position, and packed once all that were asked for are known. */
interface Vectors {
  readonly known: (Float32Array | undefined)[];
  /** Row id at [id * dimensions, (id + 1) * dimensions); rebuilt after new vectors arrived. */
  matrix: Float32Array | undefined;
  /** 1 where the row holds a vector (not abstained, not missing). */
  has: Uint8Array;
  dimensions: number;
  /** The rows' non-zero components, for the floor's first pass; undefined for a dense model. */
  sparse: SparseColumns | undefined;
  /** The rows in 8 bits, for the floor's first pass where the model is dense. */
  quantized: QuantizedRows | undefined;
  /** True once every kept position's vector is known: a search then needs no list of its visible tools. */
  complete: boolean;
  /** The cosines of the last query, reused (a search's similarities, floor and fusion run without a pause). */
  cosine: Float64Array;
}

// Per catalogue array and model: a search over a known array hashes and looks up nothing.
let byArray: WeakMap<readonly Tool[], Map<string, Vectors>> | undefined;

/** The vectors of the visible tools of a catalogue, asking the model only for those not yet known. */
export async function catalogueVectors(
  options: { readonly embed: Embed },
  key: string,
  catalogue: Catalogue,
  visible: (id: number) => boolean,
): Promise<Vectors> {
  const { tools } = catalogue;
  byArray ??= new WeakMap();
  const models = byArray.get(tools) ?? new Map<string, Vectors>();
  byArray.set(tools, models);
  let entry = models.get(key);
  if (!entry) {
    entry = {
      known: new Array(tools.length),
      matrix: undefined,
      has: new Uint8Array(0),
      dimensions: 0,
      sparse: undefined,
      quantized: undefined,
      complete: false,
      cosine: new Float64Array(0),
    };
    models.set(key, entry);
  }
  const { known } = entry;
  // Once all are known, the visible ones are too: asking each position whether it is visible costs more than the
  // whole semantic pass, so only a catalogue with vectors still to ask for does.
  if (entry.complete) return entry;
  const missing: number[] = [];
  for (let id = 0; id < tools.length; id++) if (known[id] === undefined && visible(id)) missing.push(id);
  if (missing.length > 0) {
    const vectors = await toolVectors(
      options,
      key,
      missing.map((id) => toolItem(tools[id] as Tool)),
      'tool',
    );
    missing.forEach((id, i) => {
      known[id] = vectors[i];
    });
    entry.matrix = undefined;
  }
  const { kept } = catalogue;
  let complete = true;
  // A loop, not `every`, which skips the holes of the array: the positions not yet known.
  for (let id = 0; id < tools.length && complete; id++) complete = known[id] !== undefined || kept[id] !== 1;
  entry.complete = complete;
  return entry;
}

/** Packs the known vectors into one matrix; a vector of another length than the others is the model's fault. */
function pack(entry: Vectors): Float32Array {
  const { known } = entry;
  const dimensions = known.find((v) => v !== undefined && v.length > 0)?.length ?? 0;
  const matrix = new Float32Array(known.length * dimensions);
  const has = new Uint8Array(known.length);
  known.forEach((v, id) => {
    if (v === undefined || v.length === 0) return;
    if (v.length !== dimensions) {
      throw new Error(`embed returned vectors of ${v.length} and ${dimensions} dimensions for the same model`);
    }
    matrix.set(v, id * dimensions);
    has[id] = 1;
  });
  entry.matrix = matrix;
  entry.has = has;
  entry.dimensions = dimensions;
  entry.sparse = sparseColumns(matrix, has, dimensions);
  entry.quantized = entry.sparse || dimensions === 0 ? undefined : quantizedRows(matrix, has, dimensions);
  return matrix;
}

// Tools whose similarities estimate the spread of a query's similarities: enough for a mean and a deviation
// within a few percent, and a fixed cost however large the catalogue.
const SAMPLE = 256;

/**
 * The query's cosine with `head` (the built-in best) and with an even sample of the visible tools (every one up to
 * SAMPLE), and the mean and deviation over the sample: what fusion needs to decide whether to trust the model at all.
 * The sample is every step-th position that is visible, so only those positions are asked; where fewer than a quarter
 * of the sample is visible (enabled groups leave out most of a catalogue), every step-th visible tool instead.
 */
export function sampledSimilarities(
  entry: Vectors,
  query: Float32Array,
  visible: (id: number) => boolean,
  head: readonly number[],
): Similarities {
  const matrix = entry.matrix ?? pack(entry);
  const { has, dimensions } = entry;
  if (dimensions > 0 && query.length !== dimensions) {
    throw new Error(`embed returned vectors of ${query.length} and ${dimensions} dimensions for the same model`);
  }
  const n = entry.known.length;
  const step = Math.max(1, Math.ceil(n / SAMPLE));
  let sample: number[] = [];
  for (let id = 0; id < n; id += step) if (visible(id)) sample.push(id);
  if (sample.length < SAMPLE / 4 && n > SAMPLE) {
    const ids: number[] = [];
    for (let id = 0; id < n; id++) if (visible(id)) ids.push(id);
    const every = Math.max(1, Math.ceil(ids.length / SAMPLE));
    sample = ids.filter((_, i) => i % every === 0);
  }
  if (entry.cosine.length !== n) entry.cosine = new Float64Array(n);
  const cosine = entry.cosine.fill(Number.NaN);
  let sum = 0;
  let squares = 0;
  let count = 0;
  for (const id of sample) {
    // A tool the model abstained on keeps its keyword rank alone.
    if (!has[id]) continue;
    const dot = dotAt(matrix, id * dimensions, query);
    cosine[id] = dot;
    sum += dot;
    squares += dot * dot;
    count++;
  }
  for (const id of head)
    if (has[id] && Number.isNaN(cosine[id] as number)) cosine[id] = dotAt(matrix, id * dimensions, query);
  const mean = count ? sum / count : 0;
  return { cosine, mean, deviation: count ? Math.sqrt(Math.max(0, squares / count - mean * mean)) : 0 };
}

/**
 * Every visible tool at `floor` similarity or above, in catalogue order, with its cosine in `cosine`. A first pass
 * bounds each row's cosine from above (over the non-zero components where the model's vectors are sparse, in 8 bits
 * where they are dense), and only the rows it puts at the floor get the exact dot product, so the tools and their
 * cosines are those of the full pass; only those over the floor are asked whether they are visible. Other rows keep
 * what `cosine` held (NaN outside the sample and the head): nothing reads them.
 */
export function overFloor(
  entry: Vectors,
  query: Float32Array,
  visible: (id: number) => boolean,
  cosine: Float64Array,
  floor: number,
): number[] {
  const matrix = entry.matrix ?? pack(entry);
  const { has, dimensions, sparse, quantized } = entry;
  const bounds = sparse
    ? sparseBounds(sparse, query, floor)
    : quantized && floor > -1
      ? quantizedBounds(quantized, query, floor - PREFILTER_MARGIN)
      : undefined;
  const out: number[] = [];
  for (let id = 0; id < has.length; id++) {
    if (!has[id]) continue;
    let c = cosine[id] as number;
    if (Number.isNaN(c)) {
      if (bounds && (bounds[id] as number) < floor - PREFILTER_MARGIN) continue;
      c = dotAt(matrix, id * dimensions, query);
      cosine[id] = c;
    }
    if (c >= floor && visible(id)) out.push(id);
  }
  return out;
}

/** The dot product of the query with the row at `row`, four sums at a time (about twice as fast as one sum in V8). */
function dotAt(matrix: Float32Array, row: number, query: Float32Array): number {
  const d = query.length;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let j = 0;
  for (; j + 3 < d; j += 4) {
    s0 += (matrix[row + j] as number) * (query[j] as number);
    s1 += (matrix[row + j + 1] as number) * (query[j + 1] as number);
    s2 += (matrix[row + j + 2] as number) * (query[j + 2] as number);
    s3 += (matrix[row + j + 3] as number) * (query[j + 3] as number);
  }
  for (; j < d; j++) s0 += (matrix[row + j] as number) * (query[j] as number);
  return s0 + s1 + s2 + s3;
}
