// A unit vector as stored in the shared space: int8 components with a float32 scale, in base64. A quarter of
// float32's bytes, and its cosines stay within about 0.01 of the exact ones, well under what separates two tools.

/** The stored text of a vector; an abstained text (empty vector) is the empty string. */
export function encodeVector(vector: Float32Array): string {
  if (vector.length === 0) return '';
  let max = 0;
  for (const x of vector) max = Math.max(max, Math.abs(x));
  const scale = max / 127 || 1;
  const bytes = new Uint8Array(4 + vector.length);
  new DataView(bytes.buffer).setFloat32(0, scale, true);
  const values = new Int8Array(bytes.buffer, 4);
  for (let i = 0; i < vector.length; i++) values[i] = Math.round((vector[i] as number) / scale);
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

/** The unit vector of a stored text, or undefined for one that is not of `dimensions` (another model's, damaged). */
export function decodeVector(text: unknown, dimensions: number): Float32Array | undefined {
  if (text === '') return new Float32Array(0);
  if (typeof text !== 'string' || text.length !== encodedLength(dimensions)) return undefined;
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const scale = new DataView(bytes.buffer).getFloat32(0, true);
  const values = new Int8Array(bytes.buffer, 4);
  const out = new Float32Array(dimensions);
  let norm = 0;
  for (let i = 0; i < dimensions; i++) {
    const x = (values[i] as number) * scale;
    out[i] = x;
    norm += x * x;
  }
  if (!(norm > 0) || !Number.isFinite(norm)) return undefined;
  const n = Math.sqrt(norm);
  for (let i = 0; i < dimensions; i++) out[i] = (out[i] as number) / n;
  return out;
}

/** Characters one stored vector of `dimensions` takes in base64. */
export const encodedLength = (dimensions: number): number => 4 * Math.ceil((4 + dimensions) / 3);
