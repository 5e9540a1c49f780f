// tool-search-layer/indexeddb: the browser store. Its own entry, so only apps that use it pull idb-keyval.

export type { IndexedDbStoreOptions } from './stores/indexeddb.ts';
export { createIndexedDbStore } from './stores/indexeddb.ts';
