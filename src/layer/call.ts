// checkCall and callTool: whether the model may call a tool this round, and the bridge's call_tool checked; a call
// that may not run gets the corrective result to send instead, and is announced as refused.
import { ToolSearchError } from '../base/errors.ts';
import type { Tool } from '../base/types.ts';
import type { CallCheck, CheckCallOptions } from '../core/calls.ts';
import { catalogueOf, visibility } from '../core/catalogue.ts';
import { applyTouches } from '../core/discovered.ts';
import { SEARCH_TOOL_NAME } from '../core/search-tool.ts';
import type { CallToolResult } from '../exposure/call-tool.ts';
import { modeOf } from '../exposure/mode.ts';
import type { Layer } from './parts.ts';
import { checkContext, type SearchContext, type ToolSearch } from './tool-search.ts';

/** The layer's `checkCall`. */
export function createCheckCall(layer: Layer): ToolSearch['checkCall'] {
  const { resolved } = layer;
  return async (context, name, callOptions = {}) => {
    checkContext(context, 'checkCall');
    if (typeof name !== 'string') throw new ToolSearchError('checkCall: name must be a string');
    const mode = callOptions.onUndiscoveredCall ?? 'hint';
    if (mode !== 'hint' && mode !== 'discover') {
      throw new ToolSearchError('checkCall: onUndiscoveredCall must be "hint" or "discover"');
    }
    if (name === SEARCH_TOOL_NAME) return { ok: true };
    await layer.loaded();
    const { sessionId, tools, enabledGroups } = context;
    const catalogue = catalogueOf(tools);
    layer.warnCatalogue(catalogue.info, layer.warn);
    const visible = visibility(catalogue, enabledGroups, SEARCH_TOOL_NAME);
    const id = catalogue.byName.get(name);
    // A bypassed round sent its tools as they are, enabledGroups aside (SPEC 4.1): what the model was shown may run.
    if (id !== undefined && layer.bypasses(catalogue.info)) return { ok: true };
    if (id === undefined || !visible(id)) {
      const result = (await layer.refusals()).unknownToolResult(catalogue, visible, name, resolved.texts);
      layer.emit({ type: 'call-refused', sessionId, name: result.notCalled, reason: 'unknown' });
      return { ok: false, result };
    }
    if (resolved.alwaysDirectTools.includes(name)) return { ok: true };
    const record = await layer.store.get(sessionId, layer.warn);
    if (record?.order.includes(name)) return { ok: true };
    layer.emit({ type: 'call-refused', sessionId, name, reason: 'undiscovered' });
    if (mode === 'discover') {
      const keep = resolved.maxDiscoveredKeep;
      await layer.sessions.change(sessionId, (current) => applyTouches(current, [name], keep), 'call');
    }
    const tool = catalogue.tools[id] as Tool;
    return { ok: false, result: (await layer.refusals()).undiscoveredResult(tool, mode, resolved.texts) };
  };
}

/**
 * The layer's `callTool`. `checkCall` is the layer's own (the host's object may wrap it); it announces its own
 * refusals, and callTool's others are announced here, with their reason.
 */
export async function callTool(
  layer: Layer,
  checkCall: ToolSearch['checkCall'],
  context: SearchContext,
  args: unknown,
  callOptions: CheckCallOptions | undefined,
): Promise<CallToolResult> {
  checkContext(context, 'callTool');
  modeOf(context, layer.resolved, 'callTool');
  await layer.loaded();
  let checked: CallCheck | undefined;
  const parts = {
    checkCall: async (name: string) => {
      checked = await checkCall(context, name, callOptions);
      return checked;
    },
    stored: () => layer.store.get(context.sessionId, layer.warn),
    warn: layer.warn,
  };
  const result = await layer.modes.callTool(parts, context, args);
  if (!result.ok && checked?.ok !== false) {
    const { notCalled: name } = result.result;
    const { refusalReason } = await import('../core/call-events.ts');
    const reason = refusalReason(name, checked, args, context.tools);
    layer.emit({ type: 'call-refused', sessionId: context.sessionId, name, reason });
  }
  return result;
}
