// The bridge's tools block per session: [search_tools, call_tool, ...direct tools], the same bytes (and objects)
// every round, so the provider's prompt cache and Anthropic's prefix check hold (SPEC 11).

import type { Tool } from '../base/types.ts';
import type { Catalogue, CatalogueInfo } from '../core/catalogue.ts';
import type { Texts } from '../core/texts.ts';
import { type Block, createBlocks, sameBytes, sameDirect, stillSafe } from './blocks.ts';
import type { ExposureSettings } from './mode.ts';
import { type BridgeTexts, bridgeTexts, textsWith } from './texts.ts';

/** A session's block, and the catalogue and groups it was last checked against. */
interface Pinned {
  readonly block: Block;
  readonly info: CatalogueInfo;
  readonly key: string;
}

/** Sessions whose block a layer remembers; past this the least recent is forgotten (and rebuilt if it comes back). */
const SESSIONS_KEPT = 1024;

/** A layer's bridge: its texts, its tools block per session, its call_tool definition. */
export interface Bridge {
  readonly texts: BridgeTexts;
  /** The texts of a bridge search: its hint says to call what it found through call_tool. */
  readonly searchTexts: () => Texts;
  /** The tools block of a round: the session's pinned block while it is still safe, else the round's own. */
  tools(sessionId: string, catalogue: Catalogue, visible: (id: number) => boolean, key: string): Tool[];
}

/** Creates the bridge of a layer (one per layer, made when it is first used). */
export function createBridge(options: ExposureSettings, semantic: boolean): Bridge {
  const texts = bridgeTexts(options.texts, options.locale);
  const blockOf = createBlocks(options, texts, semantic);
  const sessions = new Map<string, Pinned>();
  return {
    texts,
    searchTexts: textsWith(options.texts, () => ({ hintFound: texts.bridgeHintFound })),
    tools(sessionId, catalogue, visible, key) {
      const pinned = sessions.get(sessionId);
      sessions.delete(sessionId);
      let block: Block;
      if (pinned && pinned.info === catalogue.info && pinned.key === key && sameDirect(pinned.block, catalogue)) {
        block = pinned.block;
      } else {
        const own = blockOf(catalogue, visible, key);
        // The round's own block when it has the pinned bytes (a host that rebuilds its tool objects), else the pinned one while safe.
        const keep = pinned && !sameBytes(own, pinned.block) && stillSafe(pinned.block, catalogue, visible);
        block = keep ? pinned.block : own;
      }
      if (sessions.size >= SESSIONS_KEPT) sessions.delete(sessions.keys().next().value as string);
      sessions.set(sessionId, { block, info: catalogue.info, key });
      return [...block.tools];
    },
  };
}
