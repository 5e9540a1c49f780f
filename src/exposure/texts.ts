// The model-facing words of the bridge and of compact results, loaded only by their users. Every key can be
// overridden with the `texts` option, as the core's own texts can.
import type { Texts } from '../core/texts.ts';
import type { BRIDGE_TEXT_KEYS } from './mode.ts';

/** The texts only the bridge (and compact search results) use; templates use {placeholders}. */
export interface BridgeTexts {
  /** The search tool's description in bridge mode, before the names list. */
  readonly bridgeDescription: string;
  readonly callToolDescription: string;
  readonly callNameParam: string;
  readonly callArgumentsParam: string;
  /** A bridge search found tools ({found}, {count} may be used; the result's fields say both). */
  readonly bridgeHintFound: string;
  /** A compact search found tools ({found}, {count} may be used). */
  readonly compactHintFound: string;
  /** {reason} */
  readonly callArgsError: string;
  readonly callArgsHint: string;
  readonly reasonCallNotObject: string;
  readonly reasonCallName: string;
  readonly reasonCallArguments: string;
  /** call_tool named one of the layer's own tools: {name}. */
  readonly callSelfError: string;
  readonly callSelfHint: string;
  readonly callSearchHint: string;
  /** A discovered tool that is not among this round's tools: {name}. */
  readonly unavailableError: string;
  readonly unavailableHint: string;
  /** Arguments that fail the tool's schema: {name}, {problems}. */
  readonly invalidArgsError: string;
  /** {name} */
  readonly invalidArgsHint: string;
  /** An argument meets a schema pattern that cannot be matched in linear time: {name}, {pattern}. */
  readonly refusedArgsError: string;
  /** {name} */
  readonly refusedArgsHint: string;
}

const en: BridgeTexts = {
  bridgeDescription:
    'Search the tools available in this conversation and get their full definitions. Tools found here are called with call_tool, never directly; their parameters are unknown until you search. Pass keywords that describe the task (for example "weather forecast") or a tool name.',
  callToolDescription:
    'Call a tool that search_tools returned: "name" is its name, "arguments" an object that matches the parameters the search showed. Tools sent with this request are called directly, not through call_tool.',
  callNameParam: 'The name of the tool, exactly as search_tools returned it.',
  callArgumentsParam: "The tool's arguments: an object that matches its parameters.",
  bridgeHintFound: 'Call a tool above with call_tool.',
  compactHintFound: 'Their full definitions come with your next step; call them by name then.',
  callArgsError: 'Invalid call_tool arguments: {reason}',
  callArgsHint:
    'Call call_tool with a JSON object such as {"name": "get_weather", "arguments": {"city": "Paris"}}: "name" is a tool that search_tools returned, "arguments" an object that matches its parameters.',
  reasonCallNotObject: 'expected a JSON object with "name" and "arguments".',
  reasonCallName: '"name" must be the name of a tool (a non-empty string).',
  reasonCallArguments: '"arguments" must be a JSON object.',
  callSelfError: '"{name}" cannot be called through call_tool; nothing was called.',
  callSelfHint: 'Put the name of the tool you want in "name" and its arguments in "arguments".',
  callSearchHint: 'Call search_tools directly, for example {"query": "send email"}, not through call_tool.',
  unavailableError: 'Tool "{name}" is not available right now; nothing was called.',
  unavailableHint:
    'It may come back later. To go on now, search with search_tools for another tool that does the task.',
  invalidArgsError: 'Tool "{name}" was not called: its arguments do not match its parameters. {problems}',
  invalidArgsHint:
    'Call "{name}" again through call_tool with arguments that match its parameters (search for it again to see them).',
  refusedArgsError:
    'Tool "{name}" was not called: its arguments could not be checked, because its parameters use the pattern "{pattern}", which cannot be matched safely.',
  refusedArgsHint:
    'This is a fault in the definition of "{name}", not in your call. Use another tool that does the task, or tell the user that "{name}" cannot be used with this argument.',
};

const zh: BridgeTexts = {
  bridgeDescription:
    '搜索本次对话可用的工具，返回它们的完整定义。在这里搜到的工具要通过 call_tool 调用，不能直接调用；搜索之前无从得知它们的参数。query 填写描述任务的关键词（例如“天气预报”）或工具名称，多个关键词用空格分隔。',
  callToolDescription:
    '调用 search_tools 返回的工具：name 为工具名称，arguments 为符合搜索结果中参数定义的对象。随本次请求发送的工具直接调用，不经过 call_tool。',
  callNameParam: '工具名称，与 search_tools 返回的完全一致。',
  callArgumentsParam: '工具的参数：符合其参数定义的对象。',
  bridgeHintFound: '请用 call_tool 调用。',
  compactHintFound: '它们的完整定义随下一步发送，届时可直接按名称调用。',
  callArgsError: 'call_tool 参数无效：{reason}',
  callArgsHint:
    '请用 JSON 对象调用 call_tool，例如 {"name": "get_weather", "arguments": {"city": "北京"}}：name 为 search_tools 返回的工具名称，arguments 为符合其参数定义的对象。',
  reasonCallNotObject: '参数应为包含 name 和 arguments 的 JSON 对象。',
  reasonCallName: 'name 必须是工具名称（非空字符串）。',
  reasonCallArguments: 'arguments 必须是 JSON 对象。',
  callSelfError: '“{name}”不能通过 call_tool 调用，未调用任何工具。',
  callSelfHint: '请把要调用的工具名称填入 name，把它的参数填入 arguments。',
  callSearchHint: '请直接调用 search_tools，例如 {"query": "发送邮件"}，不要通过 call_tool。',
  unavailableError: '工具“{name}”当前不可用，未调用任何工具。',
  unavailableHint: '它稍后可能恢复。如需继续，请用 search_tools 搜索能完成该任务的其他工具。',
  invalidArgsError: '未调用工具“{name}”：参数与其参数定义不符。{problems}',
  invalidArgsHint: '请按参数定义通过 call_tool 重新调用“{name}”（如需查看定义，可再次搜索它）。',
  refusedArgsError: '未调用工具“{name}”：无法检查其参数，因为其参数定义使用的正则表达式“{pattern}”无法安全匹配。',
  refusedArgsHint:
    '这是“{name}”的定义有问题，而不是你的调用有误。请改用能完成该任务的其他工具，或告诉用户“{name}”无法使用此参数。',
};

/** The bridge's built-in texts, by locale. */
export const bridgeLocales: { readonly en: BridgeTexts; readonly zh: BridgeTexts } = { en, zh };

/** The bridge texts of a layer: the locale's, with the `texts` option's overrides (kept on the resolved texts). */
export function bridgeTexts(texts: Texts, locale: 'en' | 'zh'): BridgeTexts {
  const overrides = Object.fromEntries(Object.entries(texts).filter(([key]) => key in en));
  return Object.freeze({ ...bridgeLocales[locale], ...overrides });
}

/**
 * The layer's texts with some replaced, made when asked: a layer's texts may still be filling in while a locale
 * loads (they are frozen once complete), so the copy is kept only from then on.
 */
export function textsWith(texts: Texts, replace: () => Partial<Texts>): () => Texts {
  let kept: Texts | undefined;
  return () => {
    if (kept) return kept;
    const made: Texts = Object.freeze({ ...texts, ...replace() });
    if (Object.isFrozen(texts)) kept = made;
    return made;
  };
}

// Every key of BridgeTexts is in BRIDGE_TEXT_KEYS, so the `texts` option accepts each of them.
type Unlisted = Exclude<keyof BridgeTexts, (typeof BRIDGE_TEXT_KEYS)[number]>;
const everyKeyListed: Unlisted extends never ? true : Unlisted = true;
void everyKeyListed;
