// The first pass of the floor search where a model's vectors are mostly zeros (hashed or lexical features): the
// non-zero components are kept per dimension, so a query adds up only the products that are not zero, and the
// exact cosine is then taken on the few rows the first pass puts at the floor, so results equal the dense pass.

/** The non-zero components of a matrix by dimension: dimension j's rows and values are at [offsets[j], offsets[j + 1]). */
export interface SparseColumns {
  readonly offsets: Int32Array;
  readonly rows: Int32Array;
  readonly values: Float64Array;
  /** The first pass's bounds and row norms per row, reused by every query (a search's pass is synchronous). */
  readonly bounds: Float64Array;
  readonly squares: Float64Array;
}

// Scattered adds cost about twice a dense multiply-add, so below a third of the components the first pass is worth
// building; a dense model (no zeros) keeps the plain pass and pays one count when its matrix is packed.
const MAX_DENSITY = 1 / 3;
/**
 * How far under the floor a first-pass sum may be and still be checked exactly. Both passes add the same products
 * (a float32 times a float32 is exact in a double) in another order; of unit vectors, so they differ by under 1e-13.
 */
export const PREFILTER_MARGIN = 1e-9;

/** The by-dimension form of a packed matrix's rows that have a vector, or undefined where too few components are zero. */
export function sparseColumns(matrix: Float32Array, has: Uint8Array, dimensions: number): SparseColumns | undefined {
  if (dimensions === 0 || dimensions > DIMENSION_SPAN) return undefined;
  const offsets = new Int32Array(dimensions + 1);
  let rows = 0;
  for (let id = 0; id < has.length; id++) {
    if (!has[id]) continue;
    rows++;
    const row = id * dimensions;
    for (let j = 0; j < dimensions; j++) if (matrix[row + j] !== 0) offsets[j + 1] = (offsets[j + 1] as number) + 1;
  }
  for (let j = 0; j < dimensions; j++) offsets[j + 1] = (offsets[j + 1] as number) + (offsets[j] as number);
  const nonZero = offsets[dimensions] as number;
  if (rows === 0 || nonZero > rows * dimensions * MAX_DENSITY) return undefined;
  const next = offsets.slice(0, dimensions);
  const ids = new Int32Array(nonZero);
  const values = new Float64Array(nonZero);
  for (let id = 0; id < has.length; id++) {
    if (!has[id]) continue;
    const row = id * dimensions;
    for (let j = 0; j < dimensions; j++) {
      const x = matrix[row + j] as number;
      if (x === 0) continue;
      const k = next[j] as number;
      next[j] = k + 1;
      ids[k] = id;
      values[k] = x;
    }
  }
  return { offsets, rows: ids, values, bounds: new Float64Array(has.length), squares: new Float64Array(has.length) };
}

/**
 * An upper bound of every row's dot product with the query, into `columns.bounds`, which it returns (rows without a
 * vector get one too; the caller skips them). The query's components that weigh most for what they cost are added
 * up exactly; the rest is bounded by Cauchy-Schwarz, the norm of the query's rest times that of the row's rest, until
 * the rest of the query is too small for a row to reach `floor` on it alone. A row the chosen components miss is then
 * below the floor whatever its vector.
 */
export function sparseBounds(columns: SparseColumns, query: Float32Array, floor: number): Float64Array {
  const { offsets, rows, values, bounds, squares } = columns;
  const order = chosenOrder(columns, query);
  let rest = 0;
  for (let j = 0; j < query.length; j++) rest += (query[j] as number) * (query[j] as number);
  const enough = floor > 0 ? (REST * floor) ** 2 : -1;
  bounds.fill(0);
  squares.fill(0);
  for (const j of order) {
    if (rest <= enough) break;
    const q = query[j] as number;
    rest -= q * q;
    const end = offsets[j + 1] as number;
    for (let k = offsets[j] as number; k < end; k++) {
      const id = rows[k] as number;
      const x = values[k] as number;
      bounds[id] = (bounds[id] as number) + x * q;
      squares[id] = (squares[id] as number) + x * x;
    }
  }
  // Subtracting leaves rounding behind; the margins below are far wider than it.
  const queryRest = Math.sqrt(Math.max(0, rest) + REST_SLACK);
  for (let id = 0; id < bounds.length; id++) {
    bounds[id] = (bounds[id] as number) + queryRest * Math.sqrt(Math.max(0, UNIT_SLACK - (squares[id] as number)));
  }
  return bounds;
}

// The chosen components leave at most this share of the floor to the bound: a smaller share adds more of them up,
// a larger one leaves more rows for the exact pass.
const REST = 0.5;
// A float32 unit vector's squared norm is 1 within about 1e-7; the query's rest is a sum of squares kept in a double.
const UNIT_SLACK = 1 + 1e-5;
const REST_SLACK = 1e-9;
// The order's key: a step of the weight's logarithm times DIMENSION_SPAN plus the dimension, within an int32.
const DIMENSION_SPAN = 0x10000;
const ORDER_STEPS = 0x7fff;

/**
 * The query's non-zero dimensions, most squared weight per stored component first. Any order gives a true bound, so
 * the order is by a sixteenth of a power of two (a native sort of integers, where a comparator costs a keyword search).
 */
function chosenOrder(columns: SparseColumns, query: Float32Array): Int32Array {
  const { offsets } = columns;
  const keys = new Int32Array(query.length);
  let m = 0;
  for (let j = 0; j < query.length; j++) {
    const q = query[j] as number;
    if (q === 0) continue;
    const worth = (q * q) / Math.max(1, (offsets[j + 1] as number) - (offsets[j] as number));
    keys[m++] = Math.min(ORDER_STEPS, Math.floor(-16 * Math.log2(worth))) * DIMENSION_SPAN + j;
  }
  const order = keys.subarray(0, m).sort();
  for (let i = 0; i < m; i++) order[i] = (order[i] as number) % DIMENSION_SPAN;
  return order;
}
