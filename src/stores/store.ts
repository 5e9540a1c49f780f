// The store contract: what a store implements for the layer. A store imports this file and base/ only; the layer
// decodes what it stores, guards its calls and keeps memory while it fails (core/store-guard.ts, core/shared-guard.ts).

/**
 * Turns a session's stored value into the next one. Pure: a store may call it more than once (a retry, a
 * rebase onto a fresher read). Returning `current` itself means "no change, write nothing"; undefined deletes.
 */
export type RecordUpdate = (current: unknown) => unknown;

/**
 * What the sessions of a layer share, kept apart from every session's value: learned ranking credits per scope, a
 * catalogue's tool vectors. Keys are chosen by the layer (`learn:<scope>`, `vectors:<model>:<hash>`) and are opaque
 * strings of any length and content, like session ids; values are plain JSON of at most 100 KB that the layer
 * decodes itself. `update` has the same duties as a session's: atomic where the backend allows, a merge where not.
 */
export interface SharedSpace {
  /** The stored value, or undefined for a key never written. */
  get(key: string): Promise<unknown>;
  /** Applies `apply` to the stored value and resolves to the value after it; returning `current` writes nothing. */
  update(key: string, apply: RecordUpdate): Promise<unknown>;
  delete(key: string): Promise<void>;
  /**
   * How long a healthy `update` may wait on the backend's write pacing, in milliseconds (KV, which takes one write a
   * second per key, waits until a write is read back when it has no waitUntil). The layer adds it to its store
   * timeout for updates, so a paced write is not taken for a failing store. Default 0.
   */
  readonly writeWaitMs?: number;
  /**
   * The same object (`===`) for every store instance over the same storage and key prefix in this isolate or process,
   * and a different one otherwise. Layers whose stores give the same identity share what they build from the shared
   * space (the memory of past requests, indexed) and the values they read or wrote in the last 5 seconds, so a store
   * built per request neither rebuilds the index nor reads those again: give one identity only to stores over the very
   * same keys. Optional: a store without one shares nothing.
   */
  readonly identity?: object;
}

/**
 * Where discovered sets live, keyed by opaque session ids. Values are plain JSON that the layer wrote
 * (versioned records) and decodes itself: a store never looks inside them. `update` applies the function to
 * the freshest value it can read and writes the result: atomically where the backend allows it (a
 * transaction, a Durable Object), as a read-merge-write where it does not (Cloudflare KV).
 */
export interface DiscoveredStore {
  /** Names the backend in warnings. */
  readonly name: string;
  /** The stored value, or undefined for a session never written. */
  get(sessionId: string): Promise<unknown>;
  /** Applies `apply` to the stored value and resolves to the value after it. */
  update(sessionId: string, apply: RecordUpdate): Promise<unknown>;
  delete(sessionId: string): Promise<void>;
  /** Empties every session of this store and its shared space, and nothing else that shares its backend. */
  clear(): Promise<void>;
  /**
   * A hint that the layer will `update` this session soon (a search, once ranked), so a store whose update opens with a
   * read of its own (KV) may start that read now and let the update take it, instead of the update waiting for a round
   * trip after the ranking's. It returns at once and never throws; the store decides how long an unused read stands
   * (the KV store: 5 s); a read it starts that fails fails the `get` or `update` that takes it, as that call's own read
   * would. Optional: a store whose update is one call (a transaction, a Durable Object) leaves it out, since a read
   * ahead would be a call more.
   */
  prefetch?(sessionId: string): void;
  /**
   * Values shared across sessions, never reachable through a session id. Optional: the layer keeps shared values
   * of a store without it in memory.
   */
  readonly shared?: SharedSpace;
}
