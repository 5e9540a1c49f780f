// tool-search-layer/cloudflare-kv: discovered sets in Cloudflare Workers KV.
export type { KvStoreOptions } from './stores/cloudflare-kv.ts';
export { createKvStore } from './stores/cloudflare-kv.ts';
