// A dynamic import (or any load) made once: a repeated import() of a loaded module still costs a resolution, which a
// Worker building a layer per request would pay on every request.

/**
 * A loader that loads once and hands every caller the same promise; a failed load (a chunk the network lost) is
 * tried again by the next caller.
 */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
