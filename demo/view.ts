// Rendering: plain DOM, rebuilt whole on every change (the lists are short, and it keeps the
// state in main.ts the only source of truth).
import type { Message, PrepareResult, SearchErrorResult, SearchResult, Tool } from 'tool-search-layer';
import { SEARCH_TOOL_NAME } from 'tool-search-layer';

type Child = Node | string | false | null | undefined;

/** Creates an element with attributes (`class`, `title`, data-…) and children; falsy children are skipped. */
export function h(tag: string, attributes: Record<string, string> = {}, ...children: Child[]): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  for (const child of children) if (child) element.append(child);
  return element;
}

/** The element with this id; the page is static, so a missing one is a bug in index.html. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`#${id} is missing from index.html`);
  return element as T;
}

const number = new Intl.NumberFormat('en');
export const formatCount = (n: number): string => number.format(n);

const chips = (names: readonly string[], empty: string): HTMLElement =>
  names.length === 0 ? h('span', { class: 'muted' }, empty) : h('span', { class: 'chips' }, ...names.map(chip));
const chip = (name: string): HTMLElement => h('code', { class: 'chip' }, name);

/** Shows a search result (or the error the model gets for bad arguments) above its exact JSON. */
export function renderResult(result: SearchResult | SearchErrorResult, onNextPage: (offset: number) => void): void {
  const summary = byId('result-summary');
  byId('result').hidden = false;
  byId('result-json').textContent = JSON.stringify(result, null, 2);
  if ('error' in result) {
    summary.replaceChildren(h('p', { class: 'error' }, result.error), h('p', { class: 'hint' }, result.hint));
    return;
  }
  const page = result.pagination;
  const shown = page
    ? `showing ${page.offset + 1}–${page.offset + result.tools.length} of ${page.total}`
    : `showing all ${result.tools.length}`;
  const next = page?.nextOffset;
  summary.replaceChildren(
    h(
      'p',
      { class: 'found' },
      h('b', {}, `found ${formatCount(result.found)}`),
      result.found > 0 && ` · ${shown}`,
      typeof next === 'number' && nextPageButton(next, onNextPage),
    ),
    h(
      'p',
      {},
      h('span', { class: 'label' }, 'tools '),
      chips(
        result.tools.map((t) => t.name),
        'none',
      ),
    ),
    h('p', {}, h('span', { class: 'label' }, 'related '), chips(result.related, 'none')),
    h('p', { class: 'hint' }, result.hint),
  );
}

function nextPageButton(offset: number, onNextPage: (offset: number) => void): HTMLElement {
  const button = h('button', { type: 'button', id: 'next-page' }, `Next page (offset ${offset}) →`);
  button.addEventListener('click', () => onNextPage(offset));
  return button;
}

/** The history as a host holds it: assistant tool calls and the paired tool messages. */
export function renderHistory(messages: readonly Message[], newSince: number): void {
  byId('history-count').textContent = messages.length ? `${messages.length} messages` : '';
  const items = messages.map((message, i) => {
    const fresh = i >= newSince ? ' fresh' : '';
    if (message.role === 'assistant') {
      const calls = (message.toolCalls ?? []).map((call) =>
        h('span', {}, h('code', { class: 'call-name' }, call.name), ' ', h('code', {}, call.arguments ?? '')),
      );
      const id = message.toolCalls?.[0]?.id ?? '';
      return h('li', { class: `assistant${fresh}` }, h('span', { class: 'role' }, 'assistant'), ...calls, idTag(id));
    }
    return h(
      'li',
      { class: `${message.role}${fresh}` },
      h('span', { class: 'role' }, message.role),
      longText(message.content ?? ''),
      idTag(message.toolCallId ?? ''),
    );
  });
  if (items.length === 0) items.push(h('li', { class: 'empty muted' }, 'Empty: no call yet.'));
  byId('history').replaceChildren(...items);
}

const idTag = (id: string): HTMLElement => h('small', { class: 'call-id' }, id);

/** Long tool results fold behind their first line, so the history stays scannable. */
function longText(text: string): HTMLElement {
  if (text.length <= 140) return h('code', { class: 'content' }, text);
  return h(
    'details',
    { class: 'content' },
    h('summary', {}, h('code', {}, `${text.slice(0, 140)}…`)),
    h('pre', {}, text),
  );
}

/** What one `prepare` call produced, and what it is compared with. */
export interface RoundView {
  readonly round: number;
  readonly prepared: PrepareResult;
  readonly alwaysDirect: readonly string[];
  /** The store's recency order for the session, least recent first. */
  readonly recent: readonly string[];
  /** The tools a host without the layer would send. */
  readonly visible: readonly Tool[];
  /** Token count of a tools list; undefined while the tokenizer loads. */
  readonly tokensOf: (tools: readonly Tool[]) => number | undefined;
  readonly onCall: (name: string) => void;
}

/** The right-hand panel: the tools block the model would receive this round, with its cost. */
export function renderRound(view: RoundView): void {
  const { prepared } = view;
  byId('round-title').textContent = `Round ${view.round}`;
  renderTokens(view);
  byId('round-facts').replaceChildren(
    h('dt', {}, 'bypassed'),
    h('dd', {}, prepared.bypassed ? 'yes: few enough tools, sent unchanged' : 'no'),
    h('dt', {}, 'discovered'),
    h('dd', { id: 'discovered' }, chips(prepared.discovered, 'none yet')),
    h('dt', { title: "The store's order: the set keeps the maxDiscoveredKeep most recent" }, 'recency'),
    h(
      'dd',
      { id: 'recency' },
      chips(view.recent, 'none'),
      view.recent.length > 1 && h('small', { class: 'muted' }, ' (oldest first)'),
    ),
  );
  byId('warnings').replaceChildren(...prepared.warnings.map((w) => h('p', { class: 'warning' }, `⚠ ${w}`)));
  byId('exposed').replaceChildren(...prepared.tools.map((tool) => exposedTool(tool, view)));
}

const tokenCount = (id: string, tokens: number | undefined): HTMLElement =>
  tokens === undefined ? h('b', { id }, '… ') : h('b', { id, 'data-tokens': String(tokens) }, formatCount(tokens));

function renderTokens({ prepared, visible, tokensOf }: RoundView): void {
  const tokens = tokensOf(prepared.tools);
  const full = tokensOf(visible);
  // While the tokenizer loads, the bar stays empty rather than claiming a share.
  const share = tokens !== undefined && full ? tokens / full : 0;
  const saved = tokens !== undefined && full ? Math.round((1 - share) * 100) : 0;
  byId('tokens').replaceChildren(
    h(
      'p',
      {},
      tokenCount('exposed-tokens', tokens),
      ' tokens this round, vs ',
      tokenCount('full-tokens', full),
      ` for all ${formatCount(visible.length)} visible tools sent directly`,
      saved > 0 && h('span', { class: 'saved' }, ` −${saved}%`),
    ),
    h('div', { class: 'bar' }, h('span', { class: 'bar-fill', style: `width: ${share * 100}%` })),
    h('small', { class: 'muted' }, 'o200k_base tokens of the tools as OpenAI chat tools JSON'),
  );
}

function exposedTool(tool: Tool, view: RoundView): HTMLElement {
  const isSearch = tool.name === SEARCH_TOOL_NAME;
  const kind = view.prepared.bypassed
    ? 'direct'
    : isSearch
      ? 'meta-tool'
      : view.alwaysDirect.includes(tool.name)
        ? 'always direct'
        : 'discovered';
  const head = h(
    'div',
    { class: 'tool-head' },
    h('code', { class: 'tool-name' }, tool.name),
    h('span', { class: `kind ${kind.replace(' ', '-')}` }, kind),
    h('span', { class: 'muted tool-tokens' }, `${tokenText(view.tokensOf([tool]))} tok`),
    !isSearch && callButton(tool.name, view.onCall),
  );
  const description = tool.description ?? '';
  if (!isSearch) return h('li', {}, head, h('p', { class: 'tool-desc' }, firstLine(description)));
  return h(
    'li',
    { class: 'search-tool' },
    head,
    h('details', {}, h('summary', {}, 'description the model reads'), h('pre', { class: 'description' }, description)),
  );
}

const tokenText = (tokens: number | undefined): string => (tokens === undefined ? '…' : formatCount(tokens));

const firstLine = (text: string): string => {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
};

function callButton(name: string, onCall: (name: string) => void): HTMLElement {
  const button = h(
    'button',
    {
      type: 'button',
      class: 'small',
      title: 'The model calls it: adds the call and a simulated result to the history',
    },
    'call',
  );
  button.addEventListener('click', () => onCall(name));
  return button;
}
