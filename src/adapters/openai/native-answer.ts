// The items that answer the native tool search: a `tool_search_output` loading the definitions a search found
// (the API appends them at the end of the context, so the tools array and the cached prefix stay as they were),
// and the `tool_search_call` / `tool_search_output` pair that loads a tool the model called without loading it.
import type {
  NamespaceTool,
  ResponseInputItem,
  Tool as ResponsesTool,
  ResponseToolSearchOutputItemParam,
} from 'openai/resources/responses/responses';
import type { SearchContext, ToolSearch } from '../../layer/create-tool-search.ts';
import type { Placed } from './native.ts';

/** The API's limit on a call id (`call_id` of `tool_search_call` and `tool_search_output`: maxLength 64). */
export const CALL_ID_MAX = 64;

/** The `tool_search_output` loading these names, grouped in their namespaces; unknown and direct names are left out. */
export function searchOutput(
  callId: string,
  names: readonly string[],
  placed: ReadonlyMap<string, Placed>,
): ResponseToolSearchOutputItemParam {
  const tools: ResponsesTool[] = [];
  const namespaces = new Map<string, NamespaceTool>();
  for (const name of names) {
    const entry = placed.get(name);
    if (!entry) continue;
    if (!entry.namespace) {
      tools.push(entry.definition);
      continue;
    }
    let namespace = namespaces.get(entry.namespace.name);
    if (!namespace) {
      namespace = { type: 'namespace', ...entry.namespace, tools: [] };
      namespaces.set(entry.namespace.name, namespace);
      tools.push(namespace);
    }
    namespace.tools.push(entry.definition);
  }
  return { type: 'tool_search_output', call_id: callId, execution: 'client', status: 'completed', tools };
}

/** 64 bits of FNV-1a over the id's UTF-16 units, as 16 hex digits: short, and the same for the same id. */
function hash64(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    a = Math.imul(a ^ unit, 0x01000193) >>> 0;
    b = Math.imul(b ^ unit ^ (a >>> 7), 0x01000193) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

/** The id of the pair loading a blindly called tool: `load_<call id>` when that fits in 64 characters, else a hash of it. */
export function loadCallId(callId: string): string {
  const plain = `load_${callId}`;
  return plain.length <= CALL_ID_MAX ? plain : `load_${hash64(callId)}`;
}

/** The pair of items that loads these tools as if the model had searched for them. */
export function loadItems(
  callId: string,
  names: readonly string[],
  placed: ReadonlyMap<string, Placed>,
): ResponseInputItem[] {
  const id = loadCallId(callId);
  const call: ResponseInputItem = {
    type: 'tool_search_call',
    call_id: id,
    execution: 'client',
    status: 'completed',
    arguments: { query: names.join(' ') },
  };
  return [call, searchOutput(id, names, placed)];
}

/**
 * Answers a client `tool_search_call` with the definitions the search found. Bad arguments (no query, a wrong
 * type) get an empty `tool_search_output`, which the call needs, then a developer message saying what was wrong
 * and how to search: the output item has no field for an error, and the model must learn why nothing loaded.
 */
export async function answerToolSearch(
  layer: ToolSearch,
  context: SearchContext,
  item: { readonly call_id?: string | null | undefined; readonly id?: string | null | undefined; arguments: unknown },
  placed: ReadonlyMap<string, Placed>,
): Promise<ResponseInputItem[]> {
  const callId = item.call_id ?? item.id ?? '';
  const result = await layer.search(context, item.arguments);
  if ('tools' in result) {
    // A tool marked `shown` is loaded already by an earlier tool_search_output in the input; a search that found
    // only such tools loads them again, so that its output is not empty.
    const fresh = result.tools.filter((tool) => !tool.shown);
    return [
      searchOutput(
        callId,
        (fresh.length > 0 ? fresh : result.tools).map((tool) => tool.name),
        placed,
      ),
    ];
  }
  const note = `tool_search was not run: ${result.error} ${result.hint}`;
  return [searchOutput(callId, [], placed), { type: 'message', role: 'developer', content: note }];
}
