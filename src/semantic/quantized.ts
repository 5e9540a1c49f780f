// The first pass of the floor search for a dense model: the rows in 8 bits, two rows per double, so one multiply-add
// serves two rows (integers below 2^53 are exact in a double). The rounding's effect is bounded per row, so the pass
// gives an upper bound of every cosine, and the exact cosine is taken only where that bound reaches the floor.

/** A matrix's rows in 8 bits, two per double: pair p's dimension j at p * dimensions + j, row 2p low, 2p + 1 high. */
export interface QuantizedRows {
  readonly packed: Float64Array;
  /** Per row: the step of its 8-bit grid, the norm of what the grid loses, and the sum of its 8-bit values. */
  readonly scale: Float64Array;
  readonly loss: Float64Array;
  readonly sum: Float64Array;
  /** Per row: the sum of its 8-bit values over the first `half` dimensions, and the norm of the rest (widened). */
  readonly headSum: Float64Array;
  readonly tailNorm: Float64Array;
  readonly dimensions: number;
  readonly half: number;
  /** The bounds of the last query, reused (a search's pass is synchronous). */
  readonly bounds: Float64Array;
}

// Values are offset by 128 into 1..255, so a lane's sum over CHUNK dimensions stays under 2^24 (256 * 255 * 255).
const LANE = 2 ** 24;
const CHUNK = 256;
const OFFSET = 128;

/** The 8-bit rows of a packed matrix (a row without a vector is all zeros). */
export function quantizedRows(matrix: Float32Array, has: Uint8Array, dimensions: number): QuantizedRows {
  const n = has.length;
  const pairs = Math.ceil(n / 2);
  const packed = new Float64Array(pairs * dimensions);
  const scale = new Float64Array(n);
  const loss = new Float64Array(n);
  const sum = new Float64Array(n);
  const headSum = new Float64Array(n);
  const tailNorm = new Float64Array(n);
  const half = dimensions >> 1;
  for (let id = 0; id < n; id++) {
    const row = id * dimensions;
    let max = 0;
    if (has[id]) for (let j = 0; j < dimensions; j++) max = Math.max(max, Math.abs(matrix[row + j] as number));
    const step = max / 127;
    let lost = 0;
    let total = 0;
    let tail = 0;
    const lane = id % 2 === 0 ? 1 : LANE;
    const base = (id >> 1) * dimensions;
    for (let j = 0; j < dimensions; j++) {
      const x = has[id] ? (matrix[row + j] as number) : 0;
      const q = step > 0 ? Math.round(x / step) : 0;
      lost += (x - q * step) ** 2;
      total += q;
      if (j === half - 1) headSum[id] = total;
      if (j >= half) tail += x * x;
      packed[base + j] = (packed[base + j] as number) + (q + OFFSET) * lane;
    }
    scale[id] = step;
    loss[id] = Math.sqrt(lost);
    sum[id] = total;
    tailNorm[id] = Math.sqrt(tail) * (1 + 1e-6) + 1e-12;
  }
  return { packed, scale, loss, sum, headSum, tailNorm, dimensions, half, bounds: new Float64Array(n) };
}

/**
 * An upper bound of every row's dot product with the query, into `rows.bounds`: the 8-bit dot product, scaled, plus
 * what the rounding of the query and of the row can add (Cauchy-Schwarz on each rounding's remainder). A pair of rows
 * is first bounded on the first half of the dimensions, the rest by the norms of the query's and the rows' other
 * halves; where both stay under `floor`, that bound is theirs and the second half is not added up.
 */
export function quantizedBounds(rows: QuantizedRows, query: Float32Array, floor: number): Float64Array {
  const { packed, scale, loss, sum, headSum, tailNorm, dimensions, half, bounds } = rows;
  let max = 0;
  for (let j = 0; j < dimensions; j++) max = Math.max(max, Math.abs(query[j] as number));
  const step = max / 127;
  const q = new Float64Array(dimensions);
  let lost = 0;
  let norm = 0;
  let total = 0;
  let headTotal = 0;
  let tail = 0;
  for (let j = 0; j < dimensions; j++) {
    const x = query[j] as number;
    const r = step > 0 ? Math.round(x / step) : 0;
    lost += (x - r * step) ** 2;
    norm += (r * step) ** 2;
    total += r;
    if (j < half) headTotal += r;
    else tail += x * x;
    q[j] = r + OFFSET;
  }
  // The remainders' norms, widened far past a double's rounding of them.
  const slack = (Math.sqrt(lost) * (1 + 1e-9) + 1e-12) * (1 + 1e-6);
  const roundedNorm = Math.sqrt(norm) * (1 + 1e-9);
  const queryTail = Math.sqrt(tail) * (1 + 1e-6) + 1e-12;
  const both = OFFSET * total + OFFSET * OFFSET * dimensions;
  const headBoth = OFFSET * headTotal + OFFSET * OFFSET * half;
  const sums = new Float64Array(2);
  for (let pair = 0; pair < bounds.length; pair += 2) {
    const base = (pair >> 1) * dimensions;
    const other = pair + 1 < bounds.length ? pair + 1 : pair;
    const fixedA = slack + roundedNorm * (loss[pair] as number);
    const fixedB = slack + roundedNorm * (loss[other] as number);
    laneSums(q, packed, base, 0, half, sums);
    const low = sums[0] as number;
    const high = sums[1] as number;
    const a =
      step * (scale[pair] as number) * (low - OFFSET * (headSum[pair] as number) - headBoth) +
      fixedA +
      queryTail * (tailNorm[pair] as number);
    // The last pair of an odd count has one row: its high lane holds nothing.
    const b =
      other === pair
        ? a
        : step * (scale[other] as number) * (high - OFFSET * (headSum[other] as number) - headBoth) +
          fixedB +
          queryTail * (tailNorm[other] as number);
    if (a < floor && b < floor) {
      bounds[other] = b;
      bounds[pair] = a;
      continue;
    }
    laneSums(q, packed, base, half, dimensions, sums);
    bounds[pair] =
      step * (scale[pair] as number) * (low + (sums[0] as number) - OFFSET * (sum[pair] as number) - both) + fixedA;
    if (other !== pair) {
      bounds[other] =
        step * (scale[other] as number) * (high + (sums[1] as number) - OFFSET * (sum[other] as number) - both) +
        fixedB;
    }
  }
  return bounds;
}

/** The two rows' exact integer dot products with the query over dimensions [from, to), into out[0] and out[1]. */
function laneSums(q: Float64Array, packed: Float64Array, base: number, from: number, to: number, out: Float64Array) {
  let low = 0;
  let high = 0;
  for (let start = from; start < to; start += CHUNK) {
    const end = Math.min(to, start + CHUNK);
    // Four sums, as in the dense pass: about twice as fast as one in V8, and integers, so their total is exact.
    let a0 = 0;
    let a1 = 0;
    let a2 = 0;
    let a3 = 0;
    let j = start;
    for (; j + 3 < end; j += 4) {
      a0 += (q[j] as number) * (packed[base + j] as number);
      a1 += (q[j + 1] as number) * (packed[base + j + 1] as number);
      a2 += (q[j + 2] as number) * (packed[base + j + 2] as number);
      a3 += (q[j + 3] as number) * (packed[base + j + 3] as number);
    }
    for (; j < end; j++) a0 += (q[j] as number) * (packed[base + j] as number);
    const acc = a0 + a1 + a2 + a3;
    const h = Math.floor(acc / LANE);
    high += h;
    low += acc - h * LANE;
  }
  out[0] = low;
  out[1] = high;
}
