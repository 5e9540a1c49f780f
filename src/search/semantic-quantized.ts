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
  readonly dimensions: number;
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
  for (let id = 0; id < n; id++) {
    const row = id * dimensions;
    let max = 0;
    if (has[id]) for (let j = 0; j < dimensions; j++) max = Math.max(max, Math.abs(matrix[row + j] as number));
    const step = max / 127;
    let lost = 0;
    let total = 0;
    const lane = id % 2 === 0 ? 1 : LANE;
    const base = (id >> 1) * dimensions;
    for (let j = 0; j < dimensions; j++) {
      const x = has[id] ? (matrix[row + j] as number) : 0;
      const q = step > 0 ? Math.round(x / step) : 0;
      lost += (x - q * step) ** 2;
      total += q;
      packed[base + j] = (packed[base + j] as number) + (q + OFFSET) * lane;
    }
    scale[id] = step;
    loss[id] = Math.sqrt(lost);
    sum[id] = total;
  }
  return { packed, scale, loss, sum, dimensions, bounds: new Float64Array(n) };
}

/**
 * An upper bound of every row's dot product with the query, into `rows.bounds`: the 8-bit dot product, scaled, plus
 * what the rounding of the query and of the row can add (Cauchy-Schwarz on each rounding's remainder).
 */
export function quantizedBounds(rows: QuantizedRows, query: Float32Array): Float64Array {
  const { packed, scale, loss, sum, dimensions, bounds } = rows;
  let max = 0;
  for (let j = 0; j < dimensions; j++) max = Math.max(max, Math.abs(query[j] as number));
  const step = max / 127;
  const q = new Float64Array(dimensions);
  let lost = 0;
  let norm = 0;
  let total = 0;
  for (let j = 0; j < dimensions; j++) {
    const x = query[j] as number;
    const r = step > 0 ? Math.round(x / step) : 0;
    lost += (x - r * step) ** 2;
    norm += (r * step) ** 2;
    total += r;
    q[j] = r + OFFSET;
  }
  // The remainders' norms, widened far past a double's rounding of them.
  const queryLoss = Math.sqrt(lost) * (1 + 1e-9) + 1e-12;
  const roundedNorm = Math.sqrt(norm) * (1 + 1e-9);
  for (let pair = 0; pair < bounds.length; pair += 2) {
    const base = (pair >> 1) * dimensions;
    let low = 0;
    let high = 0;
    for (let start = 0; start < dimensions; start += CHUNK) {
      const end = Math.min(dimensions, start + CHUNK);
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
    const slack = queryLoss * (1 + 1e-6);
    const both = OFFSET * total + OFFSET * OFFSET * dimensions;
    const a = low - OFFSET * (sum[pair] as number) - both;
    bounds[pair] = step * (scale[pair] as number) * a + slack + roundedNorm * (loss[pair] as number);
    if (pair + 1 < bounds.length) {
      const b = high - OFFSET * (sum[pair + 1] as number) - both;
      bounds[pair + 1] = step * (scale[pair + 1] as number) * b + slack + roundedNorm * (loss[pair + 1] as number);
    }
  }
  return bounds;
}
