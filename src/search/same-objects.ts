import type { Tool } from '../base/types.ts';

/** Whether two arrays hold the same tool objects in the same order. */
export function sameObjects(a: readonly Tool[], b: readonly Tool[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
