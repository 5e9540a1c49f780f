// The Cloudflare bindings as the stores use them, written out structurally: Cloudflare's own `KVNamespace` and
// `DurableObjectStorage` fit them, imported from `@cloudflare/workers-types` or declared as globals, and
// the declarations import no types package, so a TypeScript project needs none to use the stores (the MCP entry
// does the same for the MCP SDKs). A test type-checks Cloudflare's own types against these.

/** The options of a KV `put` the store passes. */
export interface KvPutOptions {
  readonly expirationTtl?: number;
}

/** The part of a Workers KV namespace binding the KV store calls (`env.<BINDING>`, a `KVNamespace`, fits). */
export interface KvNamespaceLike {
  get(key: string): Promise<string | null>;
  put(key: string, value: string, options?: KvPutOptions): Promise<void>;
  delete(key: string): Promise<void>;
  list(options?: { prefix?: string | null; limit?: number }): Promise<{ keys: { name: string }[] }>;
}

/** The range of a Durable Object storage `list` the store asks for. */
export interface StorageListOptions {
  readonly start?: string;
  readonly end?: string;
  readonly prefix?: string;
  readonly limit?: number;
}

/** The synchronous key-value API of SQLite-backed Durable Objects (`ctx.storage.kv`). */
export interface SyncKvLike {
  get<T = unknown>(key: string): T | undefined;
  list<T = unknown>(options?: StorageListOptions): Iterable<[string, T]>;
  put<T>(key: string, value: T): void;
  delete(key: string): boolean;
}

/**
 * The part of a Durable Object's storage the Durable Object store calls (`this.ctx.storage`, a
 * `DurableObjectStorage`, fits): `get`, `put`, `delete` and `list`, and `kv` (with `sql`, which tells a
 * SQLite-backed object) where there is one.
 */
export interface DurableObjectStorageLike {
  get<T = unknown>(key: string): Promise<T | undefined>;
  get<T = unknown>(keys: string[]): Promise<Map<string, T>>;
  put<T>(key: string, value: T): Promise<void>;
  put<T>(entries: Record<string, T>): Promise<void>;
  delete(key: string): Promise<boolean>;
  delete(keys: string[]): Promise<number>;
  list<T = unknown>(options?: StorageListOptions): Promise<Map<string, T>>;
  readonly kv?: SyncKvLike;
  readonly sql?: { readonly databaseSize: number };
}
