// The memory store against the conformance suite every store passes.
import { createMemoryStore, type DiscoveredStore } from 'tool-search-layer';
import { storeConformance } from '../stores/conformance.ts';

storeConformance('memory', () => {
  // One memory store is one backend: every "instance" of it is the same object, as within one process.
  const store: DiscoveredStore = createMemoryStore();
  return { open: () => store };
});
