// tool-search-layer/durable-object: discovered sets in a Durable Object's storage (Cloudflare Agents SDK agents).
export type { DurableObjectStoreOptions } from './stores/durable-object.ts';
export { createDurableObjectStore } from './stores/durable-object.ts';
