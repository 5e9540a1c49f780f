// The warnings about a round's catalogue (skipped entries, foreign shapes), given once per layer.
import { type CatalogueInfo, shapeWarning } from './catalogue.ts';

/** A layer's catalogue warner: a catalogue already warned about costs one lookup, and each message is given once. */
export function catalogueWarner(): (info: CatalogueInfo, warn: (message: string) => void) => void {
  const warnedCatalogues = new WeakSet<CatalogueInfo>();
  const warnedEntries = new Set<string>();
  return (info, warn) => {
    if (warnedCatalogues.has(info)) return;
    warnedCatalogues.add(info);
    // Bounded: a layer that lives for days among changing catalogues forgets, and may warn again.
    if (warnedEntries.size > 10_000) warnedEntries.clear();
    for (const message of [...info.skipped, ...info.shapes.map(shapeWarning)]) {
      if (warnedEntries.has(message)) continue;
      warnedEntries.add(message);
      warn(message);
    }
  };
}
