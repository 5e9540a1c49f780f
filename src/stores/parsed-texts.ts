// The values a storage's JSON texts were last parsed to, per key: a store that reads a shared value as text (a
// Durable Object's UTF-8 bytes) parses again only a text that changed, so the layers of an isolate, each reading an
// unchanged key (a store and a layer per request), share one parse. The read itself still happens every time: a
// text maps to one value whoever wrote it, so nothing here can be stale. The values are shared: no reader changes one
// in place (the layer never does).

/**
 * Characters of text kept per storage at most, the least recently read going first: about one scope's learned table
 * at its default bound, or its shards searched of late and the memory pages being filled. Modest, since the Durable
 * Objects sharing an isolate (an agent per user) each keep their own, with their values parsed beside them.
 */
const KEPT_CHARS = 2_000_000;

/** A storage's parsed texts. */
export interface ParsedTexts {
  /** The value of `text`, read under `key`: the one parsed before when the key's last text was the same. */
  parse(key: string, text: string): unknown;
  /** Records that `text`, just written under `key`, is `value`'s JSON, so the next read of it parses nothing. */
  wrote(key: string, text: string, value: unknown): void;
}

interface Kept {
  readonly byKey: Map<string, { text: string; value: unknown }>;
  chars: number;
}

const isolate = /* @__PURE__ */ new WeakMap<object, Kept>();

/** The parsed texts of `storage` in this isolate (the same storage object gives the same). */
export function parsedTexts(storage: object): ParsedTexts {
  const kept: Kept = isolate.get(storage) ?? { byKey: new Map(), chars: 0 };
  isolate.set(storage, kept);
  const { byKey } = kept;
  const keep = (key: string, text: string, value: unknown) => {
    const was = byKey.get(key);
    if (was) kept.chars -= was.text.length;
    byKey.delete(key);
    if (text.length > KEPT_CHARS) return;
    byKey.set(key, { text, value });
    kept.chars += text.length;
    // Map order is the order last read in: the least recently read go first.
    for (const [first, { text: old }] of byKey) {
      if (kept.chars <= KEPT_CHARS) break;
      byKey.delete(first);
      kept.chars -= old.length;
    }
  };
  return {
    parse(key, text) {
      const hit = byKey.get(key);
      const value = hit?.text === text ? hit.value : JSON.parse(text);
      keep(key, text, value);
      return value;
    },
    wrote: keep,
  };
}
