// The playground: the visitor plays the model, this file plays the host. It keeps one history per
// session id, answers search_tools with layer.search, and calls layer.prepare on "Next round".
import {
  createMemoryStore,
  createToolSearch,
  type Message,
  SEARCH_TOOL_NAME,
  type Tool,
  type ToolSearch,
  ToolSearchError,
  type ToolSearchOptions,
} from 'tool-search-layer';
import { CATALOGUES, groupCounts, loadCatalogue, tokenizerReady, toolTokens } from './catalogues.ts';
import { openAiToolsJson, roundNumber, searchArgs, simulatedResult, withToolCall } from './session.ts';
import { byId, formatCount, h, type RoundView, renderHistory, renderResult, renderRound } from './view.ts';

// One store for every layer the options form creates, so changing an option keeps the sessions.
const store = createMemoryStore();
let layer: ToolSearch = createToolSearch({ store });
let tools: Tool[] = [];
let enabledGroups: string[] | undefined;
const histories = new Map<string, Message[]>();
/** How long the history was when the shown round was prepared: later messages are "new". */
let preparedLength = 0;
let lastArgs: Record<string, unknown> = {};
/** The round on show, re-rendered once token counts are available. */
let lastRound: RoundView | undefined;

const sessionId = (): string => byId<HTMLInputElement>('session-id').value;
const history = (): Message[] => histories.get(sessionId()) ?? [];

/** Runs one user action with the status pill saying so; errors show in the status, not only the console. */
async function act(work: () => Promise<void>): Promise<void> {
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
    throw error;
  }
}

function setHistory(messages: Message[]): void {
  histories.set(sessionId(), messages);
  showHistory();
}

function showHistory(): void {
  const messages = history();
  renderHistory(messages, preparedLength);
  const fresh = messages.length - preparedLength;
  const button = byId('next-round');
  button.textContent = fresh > 0 ? `Next round (${fresh} new messages) →` : 'Next round →';
  button.classList.toggle('pulse', fresh > 0);
}

/** What a host does before each model call: prepare with the history as it stands. */
async function prepareRound(): Promise<void> {
  const messages = history();
  const prepared = await layer.prepare({ sessionId: sessionId(), tools, messages, enabledGroups });
  preparedLength = messages.length;
  lastRound = {
    round: roundNumber(messages),
    prepared,
    alwaysDirect: layer.options.alwaysDirectTools,
    recent: (await store.get(sessionId()))?.recent ?? [],
    visible: visibleTools(),
    tokensOf: toolTokens,
    onCall: (name) => void act(async () => callTool(name)),
  };
  renderRound(lastRound);
  byId('exposed-json').textContent = JSON.stringify(JSON.parse(openAiToolsJson(prepared.tools)), null, 2);
  showHistory();
}

/** The tools a host without the layer would send: the enabled groups' tools and the ungrouped ones. */
function visibleTools(): Tool[] {
  if (!enabledGroups) return tools;
  const enabled = new Set(enabledGroups);
  return tools.filter((tool) => !tool.groups?.length || tool.groups.some((g) => enabled.has(g)));
}

/** The model called search_tools with `args` (as it sent them): answer it and append the exchange. */
async function search(args: string): Promise<void> {
  const result = await layer.search({ sessionId: sessionId(), tools, enabledGroups }, args);
  try {
    lastArgs = JSON.parse(args);
  } catch {
    lastArgs = {};
  }
  setHistory(withToolCall(history(), SEARCH_TOOL_NAME, args, result));
  renderResult(result, (offset) => {
    byId<HTMLInputElement>('offset').value = String(offset);
    void act(() => search(JSON.stringify({ ...lastArgs, offset })));
  });
}

/** The model called an exposed tool: a paired call and result, which the next prepare reads as a use. */
async function callTool(name: string): Promise<void> {
  setHistory(withToolCall(history(), name, '{}', simulatedResult(name)));
}

async function pickCatalogue(id: string): Promise<void> {
  tools = await loadCatalogue(id);
  const example = CATALOGUES.find((c) => c.id === id)?.example ?? '';
  byId<HTMLInputElement>('query').value = example;
  // A new catalogue is a new conversation: the old sets would name tools this one does not have.
  await layer.clear();
  histories.clear();
  enabledGroups = undefined;
  byId('result').hidden = true;
  const groups = groupCounts(tools);
  showCatalogueStats();
  byId('groups').replaceChildren(
    ...[...groups].map(([group, count]) =>
      h(
        'label',
        { class: 'check' },
        h('input', { type: 'checkbox', value: group }),
        ` ${group} `,
        h('small', { class: 'muted' }, String(count)),
      ),
    ),
  );
  await prepareRound();
}

function showCatalogueStats(): void {
  const groups = groupCounts(tools).size;
  const tokens = toolTokens(tools);
  const cost = tokens === undefined ? '' : ` · ${formatCount(tokens)} tokens as a plain tools list`;
  byId('catalogue-stats').textContent = `${formatCount(tools.length)} tools · ${groups} groups${cost}`;
}

/** The options form as createToolSearch options; blank numbers keep their defaults. */
function readOptions(): ToolSearchOptions {
  const form = new FormData(byId<HTMLFormElement>('options'));
  const text = (name: string) => String(form.get(name) ?? '').trim();
  const options: Record<string, unknown> = {
    showToolNames: form.has('showToolNames'),
    locale: text('locale'),
    alwaysDirectTools: text('alwaysDirectTools')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
  };
  for (const name of ['maxDirectTools', 'maxSearchResults', 'maxDiscoveredKeep', 'toolNamesBudget']) {
    if (text(name) !== '') options[name] = Number(text(name));
  }
  return options as ToolSearchOptions;
}

/** Rebuilds the layer from the form; invalid options keep the previous layer and show the library's error. */
async function applyOptions(): Promise<void> {
  const error = byId('options-error');
  try {
    layer = createToolSearch({ ...readOptions(), store });
    error.hidden = true;
  } catch (e) {
    if (!ToolSearchError.isInstance(e)) throw e;
    error.textContent = `${e.message} (not applied)`;
    error.hidden = false;
    return;
  }
  await prepareRound();
}

function wire(): void {
  const picker = byId<HTMLSelectElement>('catalogue');
  picker.replaceChildren(...CATALOGUES.map((c) => h('option', { value: c.id }, c.label)));
  picker.addEventListener('change', () => void act(() => pickCatalogue(picker.value)));
  byId('options').addEventListener('change', () => void act(applyOptions));
  byId('groups').addEventListener('change', () => {
    const checked = [...byId('groups').querySelectorAll<HTMLInputElement>('input:checked')].map((i) => i.value);
    enabledGroups = checked.length > 0 ? checked : undefined;
    void act(prepareRound);
  });
  byId('search').addEventListener('submit', (event) => {
    event.preventDefault();
    const value = (id: string) => byId<HTMLInputElement>(id).value;
    void act(() => search(searchArgs(value('query'), value('limit'), value('offset'))));
  });
  byId('send-raw').addEventListener('click', () => {
    void act(() => search(byId<HTMLTextAreaElement>('raw-args').value));
  });
  byId('next-round').addEventListener('click', () => void act(prepareRound));
  byId('session-id').addEventListener('change', () => void act(prepareRound));
  byId('clear-session').addEventListener('click', () =>
    act(async () => {
      await layer.clear(sessionId());
      histories.delete(sessionId());
      byId('result').hidden = true;
      await prepareRound();
    }),
  );
  byId('clear-all').addEventListener('click', () =>
    act(async () => {
      await layer.clear();
      histories.clear();
      byId('result').hidden = true;
      await prepareRound();
    }),
  );
}

wire();
void act(() => pickCatalogue(CATALOGUES[0].id));
void tokenizerReady.then(() => {
  showCatalogueStats();
  if (lastRound) renderRound(lastRound);
});
