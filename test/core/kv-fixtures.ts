// A KV binding over a map of texts for the core tests: writes land in the map at once, and each read is counted by
// key and answered as the test's `get` says.
import type { KvNamespaceLike } from 'tool-search-layer/cloudflare-kv';

/** A binding over `texts` whose reads go through `get` (given the key and the text it holds), counted in `reads`. */
export function kvOver(
  texts: Map<string, string>,
  get: (key: string, text: () => string | null) => Promise<string | null>,
): { namespace: KvNamespaceLike; reads: Map<string, number> } {
  const reads = new Map<string, number>();
  const namespace: KvNamespaceLike = {
    get(key) {
      reads.set(key, (reads.get(key) ?? 0) + 1);
      return get(key, () => texts.get(key) ?? null);
    },
    async put(key, value) {
      texts.set(key, value);
    },
    async delete(key) {
      texts.delete(key);
    },
    async list() {
      return { keys: [] };
    },
  };
  return { namespace, reads };
}
