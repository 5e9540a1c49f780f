// The shapes of a catalogue's findings and lookups, apart from the code that makes them: the search's run reads
// them, and the catalogue loads the search, so the types live below both.
import type { Tool } from '../base/types.ts';
import type { ToolIndex } from '../search/index.ts';

/** The adapters that convert the tool shapes of other ecosystems; a tool in such a shape is warned about. */
export type ForeignShape = 'mcp' | 'openai';

/** Lookups and hygiene findings shared by every array with the same entries at the same positions. */
export interface CatalogueInfo {
  /** Kept positions by name: the first valid tool of each name. */
  readonly byName: ReadonlyMap<string, number>;
  /** Kept positions by group. */
  readonly groups: ReadonlyMap<string, readonly number[]>;
  /** 1 at a kept position; 0 where the entry is invalid or repeats an earlier name. */
  readonly kept: Uint8Array;
  /** Kept tools other than the search tool: what the bypass counts. */
  readonly counted: number;
  /** One warning per skipped position, naming the position and the name. */
  readonly skipped: readonly string[];
  /** The foreign tool shapes seen, each once. */
  readonly shapes: readonly ForeignShape[];
  /** The entries these findings were made from: the same objects need no further check. */
  readonly source: readonly unknown[];
  /**
   * Two strings per position (its name or why it is skipped, then its groups and shape), to check that another
   * array of equal entries has the same findings.
   */
  readonly signature: readonly string[];
}

/** A round's tools with their index and findings. */
export interface Catalogue extends CatalogueInfo {
  readonly tools: readonly Tool[];
  /** Built on first read, which only code loaded with the search does (see search-loader.ts). */
  readonly index: ToolIndex;
  /** Keys per-catalogue caches; shared by arrays of the same entries. */
  readonly info: CatalogueInfo;
}
