// The round on show: what the model can use (each tool once, with how it reaches the model and its place in the
// discovered set's recency), and the request body the provider adapter made, part by part against the last round's.
import { CALL_TOOL_NAME, SEARCH_TOOL_NAME, type Tool } from 'tool-search-layer';
import type { CoreMode, Round } from './host.ts';
import { type BodyDiff, type BodyPart, PROVIDERS, type Provider } from './providers.ts';
import { button, byId, formatCount, h } from './view.ts';

/** How a tool reaches the model this round. */
function kindOf(tool: Tool, bypassed: boolean, alwaysDirect: readonly string[]): string {
  if (bypassed) return 'sent directly (few tools)';
  if (tool.name === SEARCH_TOOL_NAME || tool.name === CALL_TOOL_NAME) return 'meta-tool';
  if (alwaysDirect.includes(tool.name)) return 'always direct';
  return 'discovered, in the tools block';
}

/** "2nd most recent" style place of a name in the store's recency order (least recent first). */
function recency(name: string, recent: readonly string[]): string | undefined {
  const i = recent.indexOf(name);
  if (i < 0) return undefined;
  const place = recent.length - i;
  return place === 1
    ? 'most recent'
    : `${place}${['th', 'st', 'nd', 'rd'][place % 10 > 3 || [11, 12, 13].includes(place % 100) ? 0 : place % 10]} most recent`;
}

function row(name: string, kind: string, round: Round, onCall?: (name: string) => void): HTMLElement {
  const place = recency(name, round.recent);
  return h(
    'li',
    { 'data-name': name, 'data-via': kind.endsWith('call_tool') ? 'call' : 'block' },
    h('code', { class: 'tool-name' }, name),
    h('span', { class: `kind ${kind.split(/[ ,]/)[0]}` }, kind),
    place && h('span', { class: 'recency' }, place),
    onCall && button('Call', () => onCall(name), { class: 'small', 'aria-label': `Call ${name} as the model` }),
  );
}

/** The round's heading, facts, and the list of what the model can use. */
export function renderRound(
  round: Round,
  mode: CoreMode,
  alwaysDirect: readonly string[],
  onCall: (name: string) => void,
): void {
  byId('round-title').textContent = `Round ${round.number}`;
  byId('round-step').textContent = `after: ${round.step}`;
  const prepared = round.prepared[mode];
  const inBlock = new Set(prepared.tools.map((tool) => tool.name));
  const callable = (name: string) => name !== SEARCH_TOOL_NAME && name !== CALL_TOOL_NAME;
  const rows = prepared.tools.map((tool) =>
    row(tool.name, kindOf(tool, prepared.bypassed, alwaysDirect), round, callable(tool.name) ? onCall : undefined),
  );
  for (const name of prepared.discovered) {
    if (!inBlock.has(name)) rows.push(row(name, 'discovered, through call_tool', round, onCall));
  }
  byId('usable').replaceChildren(...rows);
  byId('usable-count').textContent =
    `(${prepared.tools.length} in the tools block, ${prepared.discovered.length} discovered)`;
  byId('warnings').replaceChildren(...prepared.warnings.map((w) => h('p', { class: 'warning' }, w)));
}

const LABELS: Record<BodyPart['status'], string> = { same: 'unchanged', changed: 'changed', new: 'new' };
const MAX_LISTED = 60;

/** One part, its JSON folded behind its first characters. */
function partItem(part: BodyPart): HTMLElement {
  const preview = part.json.length > 120 ? `${part.json.slice(0, 120)}…` : part.json;
  return h(
    'li',
    { class: `part ${part.status}`, 'data-path': part.path },
    h('span', { class: 'mark' }, LABELS[part.status]),
    h('code', { class: 'path' }, part.path),
    h(
      'details',
      {},
      h('summary', {}, h('code', {}, preview)),
      h('pre', {}, JSON.stringify(JSON.parse(part.json), null, 2)),
    ),
  );
}

/** Runs of unchanged parts fold into one line; changed and new parts are listed one by one. */
function partItems(parts: readonly BodyPart[]): HTMLElement[] {
  const items: HTMLElement[] = [];
  let run: BodyPart[] = [];
  const flush = () => {
    if (run.length === 1) items.push(partItem(run[0] as BodyPart));
    else if (run.length > 1) {
      const span = `${run[0]?.path} … ${run.at(-1)?.path}`;
      items.push(
        h(
          'li',
          { class: 'part same' },
          h('span', { class: 'mark' }, 'unchanged'),
          h('code', { class: 'path' }, span),
          ` ${run.length} parts`,
        ),
      );
    }
    run = [];
  };
  for (const part of parts) {
    if (part.status === 'same') run.push(part);
    else {
      flush();
      if (items.length < MAX_LISTED) items.push(partItem(part));
    }
  }
  flush();
  return items;
}

/** The prefix sentence: did the last request survive as the start of this one? */
function prefixSentence(diff: BodyDiff, first: boolean): string {
  if (first) return 'The first request in this mode: there is nothing to compare with yet.';
  if (diff.samePrefix === diff.previousLength) {
    return `The last request is an unchanged prefix of this one (${formatCount(diff.previousLength)} characters): a prompt cache can reuse all of it.`;
  }
  const share = Math.round((diff.samePrefix / Math.max(1, diff.previousLength)) * 100);
  return `The prefix breaks at character ${formatCount(diff.samePrefix)} of ${formatCount(diff.previousLength)} (${share}% of the last request is reusable): everything after it is sent again at full price.`;
}

/** The provider's request body for the round, compared with the last one of the same provider and mode. */
export function renderBody(provider: Provider, mode: string, diff: BodyDiff, first: boolean): void {
  byId('body-title').textContent = `${PROVIDERS[provider].label}, mode ${mode}`;
  const held = !first && diff.samePrefix === diff.previousLength;
  const prefix = byId('body-prefix');
  prefix.textContent = prefixSentence(diff, first);
  prefix.className = first ? 'prefix' : held ? 'prefix held' : 'prefix broken';
  const removed =
    diff.removed.length > 0
      ? [
          h(
            'li',
            { class: 'part removed' },
            h('span', { class: 'mark' }, 'removed'),
            h('code', { class: 'path' }, diff.removed.join(', ')),
          ),
        ]
      : [];
  byId('body-parts').replaceChildren(...partItems(diff.parts), ...removed);
}
