// Sections 1 and 2: choosing the catalogue (a built-in one or the visitor's own, pasted or uploaded) and scoring
// the visitor's own queries against it.
import { createMemoryStore, createToolSearch, type Tool } from 'tool-search-layer';
import { app } from './app.ts';
import { CATALOGUES, groupCounts, loadCatalogue, toolTokens } from './catalogues.ts';
import { evaluateGolden, type GoldenReport, MRR_DEPTH, parseGolden } from './golden.ts';
import { FORMAT_LABELS, importTools } from './import-tools.ts';
import { evaluateLearning } from './learn-golden.ts';
import { load, save } from './persist.ts';
import { SAMPLE_QUERIES } from './sample-queries.ts';
import { byId, chips, formatCount, h, plural } from './view.ts';

/** The id of the visitor's own catalogue in the picker. */
export const OWN = 'own';

/** Fills the picker: the built-in catalogues, and the visitor's own once there is one. */
export function fillPicker(): void {
  const picker = byId<HTMLSelectElement>('catalogue');
  const own = load().ownText !== undefined;
  picker.replaceChildren(
    ...CATALOGUES.map((c) => h('option', { value: c.id }, c.label)),
    ...(own ? [h('option', { value: OWN }, 'Your own tools (pasted)')] : []),
  );
  picker.value = app.catalogue;
}

/** The tools of a catalogue id: a built-in file, or the saved own catalogue read again. */
export async function catalogueTools(id: string): Promise<Tool[] | undefined> {
  if (id !== OWN) return loadCatalogue(id);
  const text = load().ownText;
  if (text === undefined) return undefined;
  const imported = await importTools(text);
  return imported.ok ? imported.tools : undefined;
}

/** The catalogue's one-line facts. */
export function showCatalogueStats(): void {
  const groups = groupCounts(app.tools).size;
  const tokens = toolTokens(app.tools);
  const cost = tokens === undefined ? '' : ` · ${formatCount(tokens)} tokens as a plain tools list`;
  byId('catalogue-stats').textContent = `${plural(app.tools.length, 'tool')} · ${plural(groups, 'group')}${cost}`;
}

/** Reads the pasted text; on success saves it and returns the tools, else shows the problems by the input. */
export async function applyOwn(text: string): Promise<Tool[] | undefined> {
  const result = byId('own-result');
  const imported = await importTools(text);
  const textarea = byId('own-text');
  if (!imported.ok) {
    textarea.setAttribute('aria-invalid', 'true');
    result.replaceChildren(
      h(
        'p',
        { class: 'error' },
        `Not used: ${imported.problems.length === 1 ? 'one problem' : `${imported.problems.length} problems`}.`,
      ),
      h('ul', { class: 'problems' }, ...imported.problems.slice(0, 8).map((p) => h('li', {}, p))),
      imported.problems.length > 8 ? h('p', { class: 'muted' }, `and ${imported.problems.length - 8} more`) : '',
    );
    return undefined;
  }
  textarea.removeAttribute('aria-invalid');
  save({ ownText: text });
  result.replaceChildren(
    h(
      'p',
      { class: 'ok' },
      `Read ${plural(imported.tools.length, 'tool')} as ${FORMAT_LABELS[imported.format]}. Saved in this browser: the catalogue comes back after a reload.`,
    ),
  );
  return imported.tools;
}

/** The queries box: the visitor's own saved text, else the sample for the catalogue. */
export function queriesFor(id: string): string {
  return load().queries?.[id] ?? SAMPLE_QUERIES[id] ?? '';
}

const percent = (x: number) => `${Math.round(x * 100)}%`;
const fixed = (x: number) => x.toFixed(2);

/** Keeps the queries box's text for the catalogue on show. */
export function saveQueries(text: string): void {
  save({ queries: { ...load().queries, [app.catalogue]: text } });
}

/** Scores the queries in the box and shows the two rankers side by side, then the queries the layer misses. */
export async function scoreQueries(): Promise<void> {
  const out = byId('golden-result');
  const { queries, problems } = parseGolden(byId<HTMLTextAreaElement>('queries').value);
  if (queries.length === 0) {
    out.replaceChildren(h('p', { class: 'error' }, problems[0] ?? 'Write at least one line: query → tool_name.'));
    return;
  }
  const known = new Set(app.tools.map((t) => t.name));
  const unknown = [...new Set(queries.flatMap((q) => q.expected).filter((name) => !known.has(name)))];
  // Its own layer, so scoring never touches the session; the depth MRR needs is the only option changed.
  const layer = createToolSearch({ ...app.options, maxSearchResults: MRR_DEPTH, store: createMemoryStore() });
  const report = await evaluateGolden(layer, app.tools, queries);
  out.replaceChildren(
    ...problems.map((p) => h('p', { class: 'error' }, `${p} (skipped)`)),
    unknown.length > 0
      ? h('p', { class: 'warning' }, 'Not in this catalogue, so never found: ', chips(unknown, ''))
      : '',
    summaryTable(report),
    missList(report),
  );
}

function summaryTable(report: GoldenReport): HTMLElement {
  const row = (name: string, s: { recall5: number; mrr: number }, id: string) =>
    h('tr', { id }, h('th', { scope: 'row' }, name), h('td', {}, percent(s.recall5)), h('td', {}, fixed(s.mrr)));
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'scores' },
      h('caption', {}, plural(report.outcomes.length, 'query', 'queries')),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'ranker'),
          h('th', { scope: 'col' }, 'recall@5'),
          h('th', { scope: 'col' }, `MRR@${MRR_DEPTH}`),
        ),
      ),
      h(
        'tbody',
        {},
        row('tool-search-layer', report.layer, 'score-layer'),
        row('plain keyword match', report.keyword, 'score-keyword'),
      ),
    ),
  );
}

function missList(report: GoldenReport): HTMLElement {
  const misses = report.outcomes.filter((o) => o.layer.recall5 < 1);
  if (misses.length === 0)
    return h('p', { class: 'ok', id: 'misses' }, 'The layer finds every expected tool in its first five results.');
  return h(
    'div',
    { id: 'misses' },
    h('h3', {}, `Queries the layer misses (${misses.length})`),
    h(
      'ul',
      { class: 'misses' },
      ...misses.map((o) =>
        h(
          'li',
          {},
          h('q', {}, o.query),
          h(
            'span',
            {},
            ' expected ',
            chips(
              o.expected.filter((n) => !o.layer.top.includes(n)),
              '',
            ),
          ),
          h('span', {}, ' got ', chips(o.layer.top, 'nothing')),
        ),
      ),
    ),
  );
}

/** Feeds every other query as a session of users, then shows what learning did to the others: two bars and a list. */
export async function learnFromQueries(): Promise<void> {
  const out = byId('learn-result');
  const { queries } = parseGolden(byId<HTMLTextAreaElement>('queries').value);
  if (queries.length < 2) {
    out.replaceChildren(h('p', { class: 'error' }, 'Write at least two lines: one to learn from, one to test.'));
    return;
  }
  const report = await evaluateLearning(app.options, app.tools, queries);
  const bar = (label: string, value: number, id: string) =>
    h(
      'div',
      { class: 'learn-bar', id },
      h('span', { class: 'learn-label' }, label),
      h('span', { class: 'learn-track' }, h('span', { class: 'learn-fill', style: `width: ${percent(value)}` })),
      h('span', { class: 'learn-value' }, percent(value)),
    );
  const changed = report.outcomes.filter((o) => o.on !== o.off);
  out.replaceChildren(
    h(
      'p',
      {},
      `Learned from ${plural(report.fed.length, 'session')} (every other query: a search, then its tools called); recall@5 of the other ${report.outcomes.length}:`,
    ),
    h(
      'div',
      {
        class: 'learn-chart',
        role: 'img',
        'aria-label': `recall@5 ${percent(report.off)} without learning, ${percent(report.on)} with`,
      },
      bar('learning off', report.off, 'learn-off'),
      bar('learning on', report.on, 'learn-on'),
    ),
    changed.length === 0
      ? h(
          'p',
          { class: 'muted' },
          'No held-out query changed: learning helps where users ask for the same tools in other words.',
        )
      : h(
          'ul',
          { class: 'misses', id: 'learn-changes' },
          ...changed.map((o) => h('li', {}, h('q', {}, o.query), ` ${percent(o.off)} → ${percent(o.on)}`)),
        ),
  );
}
