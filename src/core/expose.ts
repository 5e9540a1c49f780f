// Pure: which tools the model sees this round.

import type { Tool } from '../base/types.ts';
import type { Catalogue } from './catalogue.ts';

/** Everything the exposure decision depends on. */
export interface ExposureInput {
  readonly catalogue: Catalogue;
  readonly visible: (id: number) => boolean;
  readonly searchTool: Tool;
  readonly alwaysDirectTools: readonly string[];
  /** The session's discovered names in exposure order. */
  readonly discovered: readonly string[];
}

/** The exposed tools, and the direct names this round does not have. */
export interface Exposure {
  readonly tools: Tool[];
  readonly missingDirect: readonly string[];
}

/**
 * `[search tool, ...direct tools, ...discovered tools]`, each once, only visible tools of this round,
 * as the caller's own objects. Discovered tools absent this round stay stored but are not shown.
 */
export function expose(input: ExposureInput): Exposure {
  const { catalogue, visible } = input;
  const tools: Tool[] = [input.searchTool];
  const shown = new Set<string>([input.searchTool.name]);
  const missingDirect: string[] = [];
  const add = (name: string, onMissing?: () => void): void => {
    if (shown.has(name)) return;
    const id = catalogue.byName.get(name);
    if (id === undefined) onMissing?.();
    else if (visible(id)) {
      shown.add(name);
      tools.push(catalogue.tools[id] as Tool);
    }
  };
  for (const name of input.alwaysDirectTools) add(name, () => missingDirect.push(name));
  for (const name of input.discovered) add(name);
  return { tools, missingDirect };
}

/** The tools the names list shows: visible, not the search tool, not direct, each name once, catalogue order. */
export function listedTools(
  catalogue: Catalogue,
  visible: (id: number) => boolean,
  alwaysDirectTools: readonly string[],
): Tool[] {
  const direct = new Set(alwaysDirectTools);
  return catalogue.tools.filter(
    (tool, id) => visible(id) && !direct.has(tool.name) && catalogue.byName.get(tool.name) === id,
  );
}
