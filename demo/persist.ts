// What the page keeps across a reload, in localStorage: the visitor's catalogue and queries, the settings, and,
// with the IndexedDB store, the session's history (its discovered set is the store's, in IndexedDB). The key for a
// real endpoint is never written here: it lives in the page's memory only.
import type { Message } from 'tool-search-layer';

/** Everything the page restores. */
export interface Saved {
  /** A built-in catalogue's id, or 'own' for the pasted one. */
  catalogue?: string;
  /** The pasted catalogue's text, as pasted. */
  ownText?: string;
  /** The queries box's text by catalogue id. */
  queries?: Record<string, string>;
  /** The options form's fields by name. */
  options?: Record<string, string | boolean>;
  store?: 'memory' | 'indexeddb';
  provider?: string;
  mode?: string;
  sessionId?: string;
  /** The session's history, saved with the IndexedDB store only. */
  history?: Message[];
  /** How far the scripted session had played. */
  scriptStep?: number;
}

const KEY = 'tool-search-layer playground';

/** The saved state, or an empty one when there is none or it cannot be read. */
export function load(): Saved {
  try {
    const text = localStorage.getItem(KEY);
    const value = text ? JSON.parse(text) : {};
    return typeof value === 'object' && value !== null ? value : {};
  } catch {
    return {};
  }
}

/** Merges `change` into the saved state; a full or blocked storage only loses the saving. */
export function save(change: Partial<Saved>): void {
  try {
    localStorage.setItem(KEY, JSON.stringify({ ...load(), ...change }));
  } catch {
    // Private windows and full quotas refuse writes; the page works on without persistence.
  }
}

/** Forgets one saved field. */
export function forget(...keys: (keyof Saved)[]): void {
  const saved = load();
  for (const key of keys) delete saved[key];
  try {
    localStorage.setItem(KEY, JSON.stringify(saved));
  } catch {
    // As in save.
  }
}
