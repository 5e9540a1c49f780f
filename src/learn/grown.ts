// The learner's arrays kept by number (entries, terms, pairs, sets) grow as numbers come, each into a longer copy.

/** A copy of `a`, `size` long: its values, then zeros. */
export function grown(a: Int32Array, size: number): Int32Array<ArrayBuffer>;
export function grown(a: Float64Array, size: number): Float64Array<ArrayBuffer>;
export function grown(a: Int32Array | Float64Array, size: number): Int32Array<ArrayBuffer> | Float64Array<ArrayBuffer> {
  const out = a instanceof Int32Array ? new Int32Array(size) : new Float64Array(size);
  out.set(a);
  return out;
}
