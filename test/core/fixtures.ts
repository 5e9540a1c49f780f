// A small catalogue with groups, shared by the core tests.
import type { Message, SearchErrorResult, SearchResult, Tool } from 'tool-search-layer';

const schema = (props: Record<string, string>) => ({
  type: 'object',
  properties: Object.fromEntries(Object.entries(props).map(([k, d]) => [k, { type: 'string', description: d }])),
  required: Object.keys(props),
});

export const catalogue: readonly Tool[] = [
  {
    name: 'send_email',
    description: 'Send an email message to a recipient',
    parameters: schema({ to: 'Recipient address', body: 'Message text' }),
    groups: ['mail'],
  },
  {
    name: 'read_inbox',
    description: 'List the newest messages in the inbox',
    parameters: schema({ folder: 'Mail folder' }),
    groups: ['mail'],
  },
  {
    name: 'delete_email',
    description: 'Delete an email by id',
    parameters: schema({ id: 'Message id' }),
    groups: ['mail'],
  },
  {
    name: 'get_weather',
    description: 'Current weather conditions for a city',
    parameters: schema({ city: 'City name' }),
    groups: ['weather'],
  },
  {
    name: 'get_forecast',
    description: 'Weather forecast for the next days',
    parameters: schema({ city: 'City name', days: 'Number of days' }),
    groups: ['weather'],
  },
  {
    name: 'create_event',
    description: 'Create a calendar event',
    parameters: schema({ title: 'Event title', start: 'Start time' }),
    groups: ['calendar'],
  },
  {
    name: 'list_events',
    description: 'List calendar events in a date range',
    parameters: schema({ from: 'Start date', to: 'End date' }),
    groups: ['calendar'],
  },
  {
    name: 'read_file',
    description: 'Read a file from disk',
    parameters: schema({ path: 'File path' }),
    groups: ['files'],
  },
  {
    name: 'write_file',
    description: 'Write text to a file on disk',
    parameters: schema({ path: 'File path', text: 'Content' }),
    groups: ['files'],
  },
  {
    name: 'list_directory',
    description: 'List the entries of a directory',
    parameters: schema({ path: 'Directory path' }),
    groups: ['files'],
  },
  {
    name: 'calculator',
    description: 'Evaluate an arithmetic expression',
    parameters: schema({ expression: 'Expression' }),
  },
  {
    name: 'translate_text',
    description: 'Translate text between languages',
    parameters: schema({ text: 'Text', target: 'Target language' }),
  },
  { name: 'web_search', description: 'Search the web for pages', parameters: schema({ q: 'Query' }) },
  {
    name: 'query_city_weather',
    description: '查询某个城市的天气预报',
    parameters: schema({ city: '城市名称' }),
    groups: ['weather'],
  },
  {
    name: 'getStockPrice',
    description: 'Latest stock price for a ticker symbol',
    parameters: schema({ symbol: 'Ticker' }),
    groups: ['finance'],
  },
  {
    name: 'convertCurrency',
    description: 'Convert an amount between currencies',
    parameters: schema({ amount: 'Amount', from: 'From', to: 'To' }),
    groups: ['finance'],
  },
];

/** A search's result, or a thrown error with the corrective result's message (a test that expects a page). */
export const ok = (result: unknown): SearchResult => {
  if ((result as SearchErrorResult).error !== undefined) throw new Error((result as SearchErrorResult).error);
  return result as SearchResult;
};

export const names = (tools: readonly { name: string }[]): string[] => tools.map((t) => t.name);

/** An assistant call and its paired result, as a host would append them. */
export function callAndResult(id: string, name: string, content: string, args = '{}'): Message[] {
  return [
    { role: 'assistant', content: null, toolCalls: [{ id, name, arguments: args }] },
    { role: 'tool', toolCallId: id, content },
  ];
}

/** A search_tools call whose result names these tools, in the result's JSON shape. */
export function searchTurn(id: string, found: readonly string[], query = 'x'): Message[] {
  const content = JSON.stringify({
    found: found.length,
    tools: found.map((name) => ({ name, description: '', parameters: null })),
    related: [],
    hint: '',
  });
  return callAndResult(id, 'search_tools', content, JSON.stringify({ query }));
}

/** A user's request, searched (with an empty result) and each tool it led to called with a result: one learned turn. */
export function learnedTurn(query: string, called: readonly string[]): Message[] {
  return [
    { role: 'user', content: query },
    ...callAndResult('s', 'search_tools', '{"found":0,"tools":[]}', JSON.stringify({ query })),
    ...called.flatMap((name, i) => callAndResult(`c${i}`, name, '{"ok":true}')),
  ];
}

/** A logger that records warnings instead of printing them. */
export function recordingLogger(): { warn: (m: string) => void; lines: string[] } {
  const lines: string[] = [];
  return { warn: (m: string) => lines.push(m), lines };
}
