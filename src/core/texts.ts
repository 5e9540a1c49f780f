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
  /** Tools were returned. {found}, {count} may be used, though the result's fields already say both. */
  readonly hintFound: string;
  /** More tools match: {nextOffset} ({remaining} may be used, though `found` already says it). */
  readonly hintMore: string;
  /** Some tools of the page are marked `shown`: their whole definitions were sent earlier in the conversation. */
  readonly hintShown: string;
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
  hintFound: 'Call a tool above directly by name from your next step.',
  hintMore: 'For more, search again with offset {nextOffset}.',
  hintShown: 'Tools marked "shown" were sent with their parameters earlier in this conversation.',
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

/** The built-in English texts; the Chinese ones are `zh` from 'tool-search-layer/zh' (loaded by `locale: 'zh'` on first use). */
export const locales: { readonly en: Texts } = { en };

/** Fills {placeholders} in a template; unknown placeholders stay as written. */
export function format(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    Object.hasOwn(values, key) ? String(values[key]) : whole,
  );
}
