// Catalogues repeat their words: each distinct run of non-space characters is stored once and found again by a hash
// of its characters, without slicing it out of the text (slicing and hashing fresh strings cost more than the rest of a build).

/** Distinct chunks in order of first appearance, an open-addressing table of their ids keyed by hash, and the scanned ids. */
export interface Chunks {
  readonly texts: string[];
  slots: Int32Array;
  hashes: Int32Array;
  /** The ids of every chunk scanned so far, in order: [0, count) of `seq`. */
  seq: Int32Array;
  count: number;
}

/** An empty chunk table. */
export const createChunks = (): Chunks => ({
  texts: [],
  slots: new Int32Array(1 << 12),
  hashes: new Int32Array(1 << 12),
  seq: new Int32Array(1 << 12),
  count: 0,
});

/** Appends the ids of the text's chunks (split at spaces and control characters) to `seq`. */
export function scanChunks(chunks: Chunks, text: string): void {
  let begin = 0;
  let h = 0;
  const end = text.length;
  for (let i = 0; i <= end; i++) {
    const c = i < end ? text.charCodeAt(i) : 32;
    if (c > 32) {
      h = Math.imul(h ^ c, 16777619);
      continue;
    }
    if (i > begin) {
      // A typed array, because a growing number[] of 100,000s of ids kept the garbage collector busy.
      if (chunks.count === chunks.seq.length) {
        const seq = new Int32Array(chunks.count * 2);
        seq.set(chunks.seq);
        chunks.seq = seq;
      }
      chunks.seq[chunks.count++] = find(chunks, text, begin, i, h);
    }
    begin = i + 1;
    h = 0;
  }
}
function find(chunks: Chunks, text: string, begin: number, end: number, h: number): number {
  const { texts, slots, hashes } = chunks;
  const mask = slots.length - 1;
  let slot = h & mask;
  for (let k = slots[slot] as number; k !== 0; k = slots[slot] as number) {
    const known = texts[k - 1] as string;
    if (hashes[slot] === h && known.length === end - begin && same(known, text, begin)) return k - 1;
    slot = (slot + 1) & mask;
  }
  texts.push(text.slice(begin, end));
  slots[slot] = texts.length;
  hashes[slot] = h;
  if (texts.length * 2 > slots.length) grow(chunks);
  return texts.length - 1;
}

// A loop, because startsWith with a position is a slow path in V8.
function same(known: string, text: string, begin: number): boolean {
  for (let i = 0; i < known.length; i++) if (known.charCodeAt(i) !== text.charCodeAt(begin + i)) return false;
  return true;
}

function grow(chunks: Chunks): void {
  const { slots, hashes } = chunks;
  const mask = slots.length * 2 - 1;
  chunks.slots = new Int32Array(mask + 1);
  chunks.hashes = new Int32Array(mask + 1);
  for (let i = 0; i < slots.length; i++) {
    if (!slots[i]) continue;
    let j = (hashes[i] as number) & mask;
    while (chunks.slots[j]) j = (j + 1) & mask;
    chunks.slots[j] = slots[i] as number;
    chunks.hashes[j] = hashes[i] as number;
  }
}
