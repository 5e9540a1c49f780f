// The options of withToolSearch, checked once: a host mistake throws, naming the option and the reason.
import type { ToolSet } from 'ai';
import type { ToolSearch } from '../../core/create-tool-search.ts';
import { ToolSearchError } from '../../core/errors.ts';
import { SEARCH_TOOL_NAME } from '../../core/search-tool.ts';
import type { WithToolSearchOptions } from './with-tool-search.ts';

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;

/** Throws ToolSearchError for a layer or options withToolSearch cannot use. */
export function checkOptions<TOOLS extends ToolSet>(layer: ToolSearch, options: WithToolSearchOptions<TOOLS>): void {
  const fail = (path: string, reason: string) => {
    throw new ToolSearchError(`withToolSearch: ${path} ${reason}`);
  };
  if (!isObject(layer) || typeof layer.prepare !== 'function' || typeof layer.checkCall !== 'function') {
    fail('layer', 'must be a layer from createToolSearch()');
  }
  if (!isObject(options)) fail('options', 'must be an object');
  if (typeof options.sessionId !== 'string') fail('options.sessionId', 'must be a string');
  if (!isObject(options.tools) || Array.isArray(options.tools)) fail('options.tools', 'must be an AI SDK tool set');
  if (Object.hasOwn(options.tools, SEARCH_TOOL_NAME)) {
    fail(`options.tools.${SEARCH_TOOL_NAME}`, 'is the name of the layer’s own search tool; rename your tool');
  }
  for (const [name, tool] of Object.entries(options.tools)) {
    if (!isObject(tool)) fail(`options.tools.${name}`, 'must be a tool');
  }
  const strings = (value: unknown) => Array.isArray(value) && value.every((item) => typeof item === 'string');
  if (options.enabledGroups !== undefined && !strings(options.enabledGroups)) {
    fail('options.enabledGroups', 'must be an array of strings, or omitted');
  }
  if (options.groups !== undefined) {
    if (!isObject(options.groups)) fail('options.groups', 'must be an object of tool name to group names');
    for (const [name, value] of Object.entries(options.groups)) {
      if (!strings(value)) fail(`options.groups.${name}`, 'must be an array of strings');
    }
  }
  const mode = options.onUndiscoveredCall;
  if (mode !== undefined && mode !== 'hint' && mode !== 'discover') {
    fail('options.onUndiscoveredCall', 'must be "hint" or "discover"');
  }
  if (options.repairToolCall !== undefined && typeof options.repairToolCall !== 'function') {
    fail('options.repairToolCall', 'must be a function');
  }
}
