// The seam between the core and the exposure modes: the bridge, its validator and compact results load on
// first use (dynamic imports), so the core entry stays the same size for users of the default mode.

import { once } from '../base/once.ts';
import type { Tool } from '../base/types.ts';
import type { CallCheck } from '../core/calls.ts';
import type { Catalogue } from '../core/catalogue.ts';
import type { DiscoveredRecord } from '../core/discovered.ts';
import type { SearchResult } from '../core/search-tool.ts';
import type { Texts } from '../core/texts.ts';
import type { CallToolResult } from '../exposure/call-tool.ts';
import type { CompactSearchResult } from '../exposure/compact.ts';
import type { Exposure, ExposureSettings } from '../exposure/mode.ts';

/** The mode of one call, as `modeOf` resolves it. */
interface Mode {
  readonly exposure: Exposure;
  readonly compact: boolean;
}

/** What a bridged call needs from the layer, besides its texts. */
interface LayerParts {
  readonly checkCall: (name: string) => Promise<CallCheck>;
  readonly stored: () => Promise<DiscoveredRecord | undefined>;
  readonly warn: (message: string) => void;
}

/** The exposure modes of one layer, each part loaded when first used. */
export interface ExposureModes {
  /** The bridge's tools block for a round of a session. */
  tools(sessionId: string, catalogue: Catalogue, visible: (id: number) => boolean, key: string): Promise<Tool[]>;
  /** The texts a search uses in a mode other than plain 'tools' (its hint says how to call what it found). */
  searchTexts(mode: Mode): Promise<Texts>;
  compact(result: SearchResult): Promise<CompactSearchResult>;
  callTool(
    parts: LayerParts,
    context: { readonly tools: readonly Tool[]; readonly enabledGroups?: readonly string[] | undefined },
    args: unknown,
  ): Promise<CallToolResult>;
}

// The modes' modules, imported once per isolate (a Worker builds a layer per request).
const bridgeModule = once(() => import('../exposure/bridge.ts'));
const compact = once(() => import('../exposure/compact.ts'));
const call = once(() => import('../exposure/call-tool.ts'));

/** Creates the lazily loaded exposure modes of a layer; nothing is imported until a mode other than 'tools' is used. */
export function exposureModes(options: ExposureSettings, semantic: boolean): ExposureModes {
  // The bridge itself belongs to the layer: it is made from the layer's options.
  const bridge = once(() => bridgeModule().then((module) => module.createBridge(options, semantic)));
  return {
    tools: async (sessionId, catalogue, visible, key) => (await bridge()).tools(sessionId, catalogue, visible, key),
    searchTexts: async (mode) =>
      mode.exposure === 'bridge' ? (await bridge()).searchTexts() : (await compact()).compactTexts(options),
    compact: async (result) => (await compact()).compactResult(result),
    async callTool(parts, context, args) {
      const [{ texts }, module] = await Promise.all([bridge(), call()]);
      return module.callTool({ ...parts, texts }, context, args);
    },
  };
}
