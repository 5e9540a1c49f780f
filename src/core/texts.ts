// The model-facing words. Templates use {placeholders}; every key can be overridden by the `texts` option.

/** Every text the model reads, as one flat record of template strings. */
export interface Texts {
  /** The search tool's description, before the names list. */
  readonly description: string;
  /** Heads the names list. */
  readonly namesIntro: string;
  /** Ends a names list cut by the budget: {count}. */
  readonly namesMore: string;
  /** Ends a names list cut by the budget, with group counts: {count}, {groups}. */
  readonly namesMoreGroups: string;
  readonly queryParam: string;
  /** The query parameter's description when a semantic ranker is configured. */
  readonly queryParamSemantic: string;
  readonly limitParam: string;
  readonly offsetParam: string;
  /** {found}, {count} */
  readonly hintFound: string;
  /** {remaining}, {nextOffset} */
  readonly hintMore: string;
  readonly hintNone: string;
  readonly hintNoKeywords: string;
  /** {offset}, {found} */
  readonly hintPastEnd: string;
  readonly hintTruncated: string;
  /** {max} */
  readonly hintCapped: string;
  /** {keys} */
  readonly hintIgnored: string;
  /** {reason} */
  readonly argsError: string;
  readonly argsHint: string;
  readonly reasonNotObject: string;
  readonly reasonQuery: string;
  readonly reasonLimit: string;
  readonly reasonOffset: string;
  /** Joins group summaries such as "mail (12)". */
  readonly listSeparator: string;
  /** A call of a tool the model has not been shown: {name}. */
  readonly notDiscoveredError: string;
  /** {name}, {query} */
  readonly notDiscoveredHint: string;
  /** {name} */
  readonly discoveredNowHint: string;
  /** A call of a name that no available tool has: {name}. */
  readonly unknownToolError: string;
  /** {names} */
  readonly unknownToolHint: string;
  readonly unknownToolHintNone: string;
}

const en: Texts = {
  description:
    'Search the tools available in this conversation and get their full definitions. Only the tools sent with this request can be called directly; any other tool must be found with this search first, because its parameters are unknown until then. Pass keywords that describe the task (for example "weather forecast") or a tool name. Tools found become callable from your next step.',
  namesIntro:
    'Other tools you can search for (names only, to help you write queries; search for a tool to get its parameters before you call it):',
  namesMore: '…and {count} more tools not listed here; search by keywords to find them.',
  namesMoreGroups:
    '…and {count} more tools not listed here, in these groups: {groups}. Search by keywords to find them.',
  queryParam:
    'Keywords separated by spaces; a tool matches when any keyword is in its name or description. An empty string lists every tool.',
  queryParamSemantic:
    'Keywords separated by spaces, or a short description of the task; a tool matches when any keyword is in its name or description, or when it is close in meaning to the query. An empty string lists every tool.',
  limitParam: 'The most tools to return.',
  offsetParam: 'How many results to skip, for paging.',
  hintFound:
    'Found {found} matching tools and returned {count}. Call them directly by name from your next step; their parameters are above.',
  hintMore: '{remaining} more match: call search_tools again with the same query and offset {nextOffset}.',
  hintNone:
    'No tool matched. Try other keywords: a synonym, the action or the object of the task, or a name from the list in the search_tools description.',
  hintNoKeywords:
    'The query has no usable keywords: one-letter words and stopwords such as "the" are ignored. Search with words that describe the task.',
  hintPastEnd: 'Offset {offset} is past the last of {found} results; use an offset below {found}.',
  hintTruncated: 'The query was too long and was cut to 1,000 characters and 64 keywords; short queries work better.',
  hintCapped: 'One search returns at most {max} tools.',
  hintIgnored: 'Ignored unknown arguments: {keys}.',
  argsError: 'Invalid search_tools arguments: {reason}',
  argsHint:
    'Call search_tools with a JSON object such as {"query": "send email", "limit": 5, "offset": 0}: "query" is a string of keywords (required), "limit" an integer of at least 1, "offset" an integer of at least 0.',
  reasonNotObject: 'expected a JSON object.',
  reasonQuery: '"query" must be a string.',
  reasonLimit: '"limit" must be an integer of at least 1.',
  reasonOffset: '"offset" must be an integer of at least 0.',
  listSeparator: ', ',
  notDiscoveredError:
    'Tool "{name}" was not called: its definition has not been shown to you, so its parameters are unknown.',
  notDiscoveredHint:
    'Call search_tools first (for example {"query": "{query}"}), then call "{name}" with arguments that match the parameters it returns.',
  discoveredNowHint:
    'Tool "{name}" was not called. Its full definition is above: call it again with arguments that match its parameters.',
  unknownToolError: 'No available tool is named "{name}"; nothing was called.',
  unknownToolHint:
    "The closest names are: {names}. Search with search_tools to get a tool's parameters before you call it.",
  unknownToolHintNone: 'Search with search_tools to find the tool you need and get its parameters.',
};

const zh: Texts = {
  description:
    '搜索本次对话可用的工具，返回它们的完整定义。只有随本次请求发送的工具可以直接调用；其他工具必须先用本工具搜到，在此之前无从得知它们的参数。query 填写描述任务的关键词（例如“天气预报”）或工具名称，多个关键词用空格分隔。搜到的工具从下一步起即可直接调用。',
  namesIntro: '可搜索的其他工具（只列名称，供你构造搜索关键词；调用某个工具前，必须先搜索它以获取参数定义）：',
  namesMore: '……另有 {count} 个工具未在此列出，请按关键词搜索。',
  namesMoreGroups: '……另有 {count} 个工具未在此列出，分属以下分组：{groups}。请按关键词搜索。',
  queryParam: '搜索关键词，多个用空格分隔；任一关键词出现在工具名称或描述中即算匹配。传空字符串则列出全部工具。',
  queryParamSemantic:
    '搜索关键词（多个用空格分隔），或对任务的简短描述；任一关键词出现在工具名称或描述中，或工具与查询语义相近，即算匹配。传空字符串则列出全部工具。',
  limitParam: '最多返回多少个工具。',
  offsetParam: '跳过前多少个结果，用于翻页。',
  hintFound: '共匹配 {found} 个工具，本次返回 {count} 个。下一步可直接按名称调用，参数定义见上。',
  hintMore: '还有 {remaining} 个匹配结果：请用相同的 query、offset 设为 {nextOffset}，再次调用 search_tools。',
  hintNone: '没有匹配的工具。请换用其他关键词：同义词、任务中的动作或对象，或 search_tools 描述里列出的工具名称。',
  hintNoKeywords: '查询里没有可用的关键词：单个拉丁字母和“的”“the”这类停用词会被忽略。请换用能描述任务的词语。',
  hintPastEnd: 'offset {offset} 已超出结果范围（共 {found} 个结果），请使用小于 {found} 的 offset。',
  hintTruncated: '查询过长，已截取前 1000 个字符、64 个关键词；查询越简短，效果越好。',
  hintCapped: '每次搜索最多返回 {max} 个工具。',
  hintIgnored: '已忽略未知参数：{keys}。',
  argsError: 'search_tools 参数无效：{reason}',
  argsHint:
    '请用 JSON 对象调用 search_tools，例如 {"query": "发送邮件", "limit": 5, "offset": 0}：query 为关键词字符串（必填），limit 为不小于 1 的整数，offset 为不小于 0 的整数。',
  reasonNotObject: '参数应为一个 JSON 对象。',
  reasonQuery: 'query 必须是字符串。',
  reasonLimit: 'limit 必须是不小于 1 的整数。',
  reasonOffset: 'offset 必须是不小于 0 的整数。',
  listSeparator: '、',
  notDiscoveredError: '未调用工具“{name}”：你还没有看到它的定义，不知道它的参数。',
  notDiscoveredHint: '请先调用 search_tools（例如 {"query": "{query}"}），再按返回的参数定义调用“{name}”。',
  discoveredNowHint: '未调用工具“{name}”。它的完整定义见上：请按其参数定义重新调用。',
  unknownToolError: '没有名为“{name}”的可用工具，未调用任何工具。',
  unknownToolHint: '最接近的名称：{names}。调用前请先用 search_tools 搜索，获取工具的参数定义。',
  unknownToolHintNone: '请用 search_tools 搜索所需的工具并获取其参数定义。',
};

/** The built-in text sets, by locale. */
export const locales: { readonly en: Texts; readonly zh: Texts } = { en, zh };

/** Fills {placeholders} in a template; unknown placeholders stay as written. */
export function format(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    Object.hasOwn(values, key) ? String(values[key]) : whole,
  );
}
