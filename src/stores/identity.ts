// The identity a store gives its shared space (SharedSpace.identity): one object per storage object and key prefix,
// kept as long as the storage object lives, so every store instance built over them (one per request, say) gives the
// same one.

const identities = /* @__PURE__ */ new WeakMap<object, Map<string, object>>();

/** The identity of the key space under `prefix` in `storage`: the same object for the same pair, within this isolate. */
export function storageIdentity(storage: object, prefix: string): object {
  let prefixes = identities.get(storage);
  if (!prefixes) {
    prefixes = new Map();
    identities.set(storage, prefixes);
  }
  let identity = prefixes.get(prefix);
  if (!identity) {
    identity = {};
    prefixes.set(prefix, identity);
  }
  return identity;
}
