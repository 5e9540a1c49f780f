// Rendering helpers and the small views: plain DOM rebuilt whole on every change (the lists are short, and it
// keeps the state in main.ts the only source of truth).
import type { CompactSearchResult, Message, SearchErrorResult, SearchResult } from 'tool-search-layer';
import { displayToolCall } from 'tool-search-layer/openai';

type Child = Node | string | false | null | undefined;

/** Creates an element with attributes (`class`, `id`, aria-…, data-…) and children; falsy children are skipped. */
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
/** A count with thousands separators. */
export const formatCount = (n: number): string => number.format(n);

/** A count with its noun, singular for one: `1 tool`, `2 tools`, `1 query`, `2 queries`. */
export const plural = (n: number, noun: string, nouns = `${noun}s`): string =>
  `${formatCount(n)} ${n === 1 ? noun : nouns}`;

/** Names as code chips, or a muted word when there are none. */
export const chips = (names: readonly string[], empty: string): HTMLElement =>
  names.length === 0
    ? h('span', { class: 'muted' }, empty)
    : h('span', { class: 'chips' }, ...names.map((name) => h('code', { class: 'chip' }, name)));

/** A button that runs `onClick`. */
export function button(label: string, onClick: () => void, attributes: Record<string, string> = {}): HTMLElement {
  const element = h('button', { type: 'button', ...attributes }, label);
  element.addEventListener('click', onClick);
  return element;
}

/** Sums up a search result (or the error the model gets for bad arguments); its exact JSON is in the history. */
export function renderResult(
  result: SearchResult | CompactSearchResult | SearchErrorResult,
  onNextPage: (offset: number) => void,
): void {
  const summary = byId('result-summary');
  byId('result').hidden = false;
  if ('error' in result) {
    summary.replaceChildren(h('p', { class: 'error' }, result.error), h('p', { class: 'hint' }, result.hint));
    return;
  }
  const page = result.pagination;
  const shown = page
    ? `showing ${page.offset + 1}–${page.offset + result.tools.length} of ${formatCount(page.total)}`
    : `showing all ${result.tools.length}`;
  const next = page?.nextOffset;
  summary.replaceChildren(
    h(
      'p',
      { class: 'found' },
      h('b', {}, `found ${formatCount(result.found)}`),
      result.found > 0 && ` · ${shown} `,
      typeof next === 'number' &&
        button(`Next page (offset ${next})`, () => onNextPage(next), { id: 'next-page', class: 'small' }),
    ),
    h(
      'p',
      {},
      'tools ',
      chips(
        result.tools.map((t) => t.name),
        'none',
      ),
    ),
    // An empty related is left out of a result (SPEC 14).
    result.related?.length ? h('p', {}, 'related ', chips(result.related, 'none')) : '',
  );
}

/** The history as a host holds it: user messages, assistant tool calls and the paired tool messages. */
export function renderHistory(messages: readonly Message[]): void {
  byId('history-count').textContent = messages.length ? `(${messages.length} messages)` : '';
  const items = messages.map((message) => {
    if (message.role === 'assistant') {
      const calls = (message.toolCalls ?? []).map((call) => {
        // A bridged call is labelled with the tool it names, as a chat UI would show it, and says how it went.
        const answer = messages.find((m) => m.role === 'tool' && m.toolCallId === call.id);
        const shown = displayToolCall(call, answer?.content ?? undefined);
        return h(
          'span',
          { class: 'call' },
          h('code', { class: 'call-name' }, shown.name),
          ' ',
          h('code', {}, shown.bridged ? JSON.stringify(shown.arguments) : (call.arguments ?? '')),
          ...(shown.bridged ? [' ', h('span', { class: 'call-via muted' }, 'via call_tool')] : []),
          ...(shown.status === 'refused' ? [' ', h('span', { class: 'call-refused' }, 'not run')] : []),
        );
      });
      return h(
        'li',
        { class: 'assistant' },
        h('span', { class: 'role' }, 'assistant'),
        message.content ?? '',
        ...calls,
      );
    }
    return h(
      'li',
      { class: message.role },
      h('span', { class: 'role' }, message.role),
      longText(message.content ?? ''),
    );
  });
  if (items.length === 0) items.push(h('li', { class: 'empty muted' }, 'Empty: nothing said yet.'));
  byId('history').replaceChildren(...items);
}

/** Long tool results fold behind their first characters, so the history stays scannable. */
function longText(text: string): HTMLElement {
  if (text.length <= 140) return h('code', { class: 'content' }, text);
  return h(
    'details',
    { class: 'content' },
    h('summary', {}, h('code', {}, `${text.slice(0, 140)}…`)),
    h('pre', {}, text),
  );
}

/** Runs one user action with the status line saying so; an error shows there, not only in the console. */
export async function act(work: () => Promise<void>): Promise<void> {
  const status = byId('status');
  status.textContent = 'working';
  status.className = 'status busy';
  try {
    await work();
    status.textContent = 'ready';
    status.className = 'status';
  } catch (error) {
    status.textContent = error instanceof Error ? error.message : String(error);
    status.className = 'status failed';
    // The test fixture fails on console errors: an action that breaks is never a silent pass.
    console.error(error);
  }
}
