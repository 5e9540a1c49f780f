// One string hash for every table and bucket choice that must agree across runtimes and isolates.

/** The 32-bit FNV-1a hash of a string's UTF-16 units, unsigned: the same in every runtime, unlike a Map's order. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
