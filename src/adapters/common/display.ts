// A bridged call for people: the bridge's `call_tool { name, arguments }` read back into the tool the model meant,
// with its arguments and result, from any of the shapes a host keeps (AI SDK UI parts and model messages, OpenAI
// Chat and Responses items, Anthropic blocks, Gemini parts, LangChain tool calls and messages, the layer's own). One
// reader for all of them: the shapes are told apart by their own keys, and a host that logs two providers, or stores
// one shape and renders another, needs one function.

// The bridge's tool (CALL_TOOL_NAME of base/names.ts), spelled here so that a client bundle that only displays calls
// takes nothing else of the layer (it once pulled the exposure options' schemas: 1.7 KB instead of 0.8 KB min+brotli).
// A test holds them equal.
const CALL_TOOL_NAME = 'call_tool';

/** A tool call as a chat UI or a log shows it: the real tool, its arguments, and how it ended. */
export interface ToolCallDisplay {
  /** The tool the model meant: the one `call_tool` names, else the call's own name (also while a name streams in). */
  readonly name: string;
  /** Its arguments (the named tool's, for `call_tool`); `{}` when there are none or none are readable yet. */
  readonly arguments: Readonly<Record<string, unknown>>;
  /** The call went through the bridge's `call_tool`. */
  readonly bridged: boolean;
  /** `pending` (no result yet), `done`, `refused` (the layer answered instead of the tool), or `error`. */
  readonly status: 'pending' | 'done' | 'refused' | 'error';
  /** The tool's result when done (JSON text parsed), or the layer's answer when refused. */
  readonly result?: unknown;
  /** Why it was refused (the layer's error for the model) or failed (the SDK's error text). */
  readonly error?: string;
}

type Loose = Record<string, unknown>;
const isObject = (value: unknown): value is Loose =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const parsed = (value: unknown): unknown => {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
};

/** The call's own name and input, whichever shape it has. */
function readCall(call: Loose): { name: string; input: unknown } {
  // AI SDK: a model message's tool-call part and a dynamic-tool UI part carry toolName; a static UI part its type.
  if (typeof call.toolName === 'string') return { name: call.toolName, input: call.input };
  if (typeof call.type === 'string' && call.type.startsWith('tool-'))
    return { name: call.type.slice(5), input: call.input };
  // OpenAI Chat: { function: { name, arguments } }; a Gemini Part: { functionCall: { name, args }, thoughtSignature }.
  const fn = isObject(call.function) ? call.function : isObject(call.functionCall) ? call.functionCall : call;
  // OpenAI Responses and the layer's messages: { name, arguments }; Anthropic tool_use: { name, input };
  // Gemini functionCall and LangChain tool calls: { name, args }.
  return { name: typeof fn.name === 'string' ? fn.name : '', input: fn.input ?? fn.arguments ?? fn.args };
}

/** The layer's corrective answer to a bridged call: the named tool did not run. */
const refusal = (value: unknown): string | undefined =>
  isObject(value) && typeof value.notCalled === 'string' && typeof value.error === 'string' ? value.error : undefined;

/** A result as the host read it: its value, and the error text when the host marks it failed. */
interface ReadResult {
  readonly value: unknown;
  readonly error?: string;
}

const failed = (value: unknown): ReadResult => ({ value, error: typeof value === 'string' ? value : 'error' });

/** The text of a content that is a string or a list of blocks (Anthropic, LangChain): the text blocks joined. */
const textOf = (content: unknown): unknown =>
  Array.isArray(content)
    ? content.map((block) => (isObject(block) && typeof block.text === 'string' ? block.text : '')).join('')
    : content;

/**
 * Gemini's `functionResponse.response`: "output" holds the result and "error" the failure, else the whole object is
 * the result (the API's own rule). The layer's refusal also has an `error` key, so it is told apart first.
 */
function readGeminiResponse(response: Loose): ReadResult {
  if (refusal(response) !== undefined || !('output' in response || 'error' in response)) return { value: response };
  const { output, error } = response;
  if (error === undefined || error === null) return { value: output };
  return { value: output ?? error, error: typeof error === 'string' ? error : JSON.stringify(error) };
}

/** A result as the host holds it (a tool message, a function_call_output, a tool_result block, or the value). */
function readResult(result: unknown): ReadResult {
  if (!isObject(result)) return { value: parsed(result) };
  if (result.type === 'function_call_output') return { value: parsed(result.output) };
  // AI SDK model message: { type: 'tool-result', output: { type: 'json' | 'text' | 'error-text' | …, value } }.
  if (result.type === 'tool-result' && isObject(result.output)) {
    const { type, value } = result.output;
    return typeof type === 'string' && type.startsWith('error') ? failed(parsed(value)) : { value: parsed(value) };
  }
  if (result.type === 'tool_result') {
    const value = parsed(textOf(result.content));
    return result.is_error === true ? failed(value) : { value };
  }
  // LangChain ToolMessage: { type: 'tool', tool_call_id, content: string | blocks, status: 'success' | 'error' }.
  if (result.type === 'tool' && typeof result.tool_call_id === 'string') {
    const value = parsed(textOf(result.content));
    return result.status === 'error' ? failed(value) : { value };
  }
  // Gemini: a Part holding a functionResponse, or the FunctionResponse { id, name, response } itself.
  const response = isObject(result.functionResponse) ? result.functionResponse : result;
  if (isObject(response.response) && typeof response.name === 'string') return readGeminiResponse(response.response);
  if (result.role === 'tool') return { value: parsed(result.content) };
  return { value: result };
}

/**
 * Reads a tool call (and its result, when the host has one) for display, unwrapping the bridge's `call_tool` into
 * the tool it names. Takes an AI SDK UI tool part (`tool-call_tool`, `dynamic-tool`; its output comes with it) or
 * model tool-call part, an OpenAI Chat tool call or Responses `function_call` item, an Anthropic `tool_use` block,
 * a Gemini `Part` or its `functionCall`, a LangChain `ToolCall`, or the layer's own `ToolCall`; the result as a
 * value, JSON text, a Chat tool message, a `function_call_output` item, a `tool_result` block, an AI SDK
 * `tool-result` part, a Gemini `Part` or its `functionResponse`, or a LangChain `ToolMessage`. Pure: it never
 * throws on model output.
 * @example const { name, arguments: args, status } = displayToolCall(part) // part.type === 'tool-call_tool'
 */
export function displayToolCall(call: unknown, result?: unknown): ToolCallDisplay {
  const own = isObject(call) ? readCall(call) : { name: '', input: undefined };
  const bridged = own.name === CALL_TOOL_NAME;
  const input = parsed(own.input);
  const named =
    bridged && isObject(input) && typeof input.name === 'string' && input.name !== '' ? input.name : undefined;
  const args = parsed(bridged ? (isObject(input) ? input.arguments : undefined) : input);
  const base = { name: named ?? own.name, arguments: isObject(args) ? args : {}, bridged };
  const state = isObject(call) ? call.state : undefined;
  if (state === 'output-error' || state === 'output-denied') {
    const error = isObject(call) && typeof call.errorText === 'string' ? call.errorText : 'denied';
    return { ...base, status: 'error', error };
  }
  const held: ReadResult | undefined = state === 'output-available' ? { value: (call as Loose).output } : undefined;
  if (!held && result === undefined) return { ...base, status: 'pending' };
  const { value, error } = held ?? readResult(result);
  const refused = refusal(value);
  if (refused !== undefined) return { ...base, status: 'refused', result: value, error: refused };
  if (error !== undefined) return { ...base, status: 'error', result: value, error };
  return { ...base, status: 'done', result: value };
}
