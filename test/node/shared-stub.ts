// A store's shared space, guarded, that holds nothing: for tests of the learner's cache in front of it.
import type { GuardedShared } from '../../src/core/shared-guard.ts';

/** A guarded shared space that reads nothing and writes nowhere, with the storage identity given. */
export const sharedStub = (identity: object | undefined): GuardedShared => ({
  persistent: true,
  identity,
  get: async () => undefined,
  update: async () => undefined,
  delete: async () => {},
  clearMemory() {},
});
