// The playground: the visitor plays the model (or lets the script play it), the page plays the host. This file
// wires the controls to app.ts and restores what the last visit left.

import { createMemoryStore, createToolSearch } from 'tool-search-layer';
import { app, forgetBodies, host, nextRound, player, redrawCharts, showRound } from './app.ts';
import { CATALOGUES, tokenizerReady } from './catalogues.ts';
import { wireChat } from './chat.ts';
import { detectModes } from './detect-modes.ts';
import { clearEvents } from './events.ts';
import { forget, load, save } from './persist.ts';
import { type Mode, PROVIDERS, type Provider } from './providers.ts';
import { searchArgs } from './session.ts';
import {
  applyOwn,
  catalogueTools,
  fillPicker,
  learnFromQueries,
  OWN,
  queriesFor,
  saveQueries,
  scoreQueries,
  showCatalogueStats,
} from './ui-catalogue.ts';
import { showScript, wireScript } from './ui-script.ts';
import {
  applyOptions,
  fillGroups,
  fillModes,
  fillProviders,
  restoreOptions,
  saveChoice,
  storeNote,
} from './ui-settings.ts';
import { act, byId, plural, renderResult } from './view.ts';

const input = (id: string) => byId<HTMLInputElement>(id);

/** A new conversation: the session forgotten by the layer and the host, the script at its start. */
async function newConversation(): Promise<void> {
  player.pause();
  await app.layer.clear(app.sessionId);
  host.reset();
  player.rewind();
  forgetBodies();
  byId('result').hidden = true;
  forget('history', 'scriptStep');
  showScript();
  await showRound(undefined);
  emptyRound();
}

/** The round panel before the first round. */
function emptyRound(): void {
  byId('round-title').textContent = 'No round yet';
  byId('round-step').textContent = 'Play the script, or search by hand.';
  for (const id of ['usable', 'body-parts', 'warnings']) byId(id).replaceChildren();
  byId('usable-count').textContent = '';
  byId('body-title').textContent = '';
  byId('body-prefix').textContent = '';
}

/** Switches to a catalogue (its tools, groups, sample queries, the script's request) and starts over, unless restoring. */
async function pickCatalogue(id: string, restoring = false): Promise<void> {
  const tools = await catalogueTools(id);
  if (!tools) return;
  app.catalogue = id;
  app.tools = tools;
  app.enabledGroups = undefined;
  save({ catalogue: id });
  const builtIn = CATALOGUES.find((c) => c.id === id);
  const example = builtIn?.example;
  const queries = queriesFor(id);
  byId<HTMLTextAreaElement>('queries').value = queries;
  // No queries of its own (a pasted catalogue): undefined, not '', so the query comes from the first tool's name.
  const first =
    queries
      .split('\n')[0]
      ?.split(/\s*(?:→|->|=>|\t)\s*/)[0]
      ?.trim() || undefined;
  const query = example ?? first ?? tools[0]?.name.replace(/[_.-]+/g, ' ') ?? 'help';
  app.plan = { request: builtIn?.request ?? first ?? `Please help me: ${query}.`, query };
  input('query').value = query;
  fillGroups();
  showCatalogueStats();
  byId('golden-result').replaceChildren();
  byId('learn-result').replaceChildren();
  if (!restoring) await newConversation();
}

/** The model called search_tools with `args` by hand: answer it, show it, prepare the next round. */
async function searchByHand(args: string): Promise<void> {
  player.pause();
  const result = await host.search(args);
  renderResult(result, (offset) => {
    input('offset').value = String(offset);
    void act(() => searchByHand(JSON.stringify({ ...JSON.parse(args), offset })));
  });
  await nextRound();
}

function wireCatalogue(): void {
  const picker = byId<HTMLSelectElement>('catalogue');
  picker.addEventListener('change', () => void act(() => pickCatalogue(picker.value)));
  const useOwn = async (text: string) => {
    if (!(await applyOwn(text))) return;
    fillPicker();
    picker.value = OWN;
    await pickCatalogue(OWN);
  };
  byId('own-apply').addEventListener('click', () => act(() => useOwn(byId<HTMLTextAreaElement>('own-text').value)));
  input('own-file').addEventListener('change', () =>
    act(async () => {
      const file = input('own-file').files?.[0];
      if (!file) return;
      const text = await file.text();
      byId<HTMLTextAreaElement>('own-text').value = text;
      await useOwn(text);
    }),
  );
  byId('queries').addEventListener('input', () => saveQueries(byId<HTMLTextAreaElement>('queries').value));
  byId('run-queries').addEventListener('click', () => act(scoreQueries));
  byId('run-learning').addEventListener('click', () => act(learnFromQueries));
}

function wireSettings(): void {
  byId('options').addEventListener('change', (event) => {
    const target = event.target as HTMLInputElement;
    if (target.name === 'store') return void act(() => switchStore(target.value as 'memory' | 'indexeddb'));
    if (target.name === 'mode') return void act(() => switchMode(target.value as Mode));
    if (target.id === 'provider') return void act(() => switchProvider(target.value as Provider));
    void act(async () => {
      if (applyOptions() && host.rounds.length > 0) await nextRound();
    });
  });
  byId('groups').addEventListener('change', () => {
    const checked = [...byId('groups').querySelectorAll<HTMLInputElement>('input:checked')].map((i) => i.value);
    app.enabledGroups = checked.length > 0 ? checked : undefined;
    if (host.rounds.length > 0) void act(async () => void (await nextRound()));
  });
  input('session-id').addEventListener('change', () =>
    act(async () => {
      app.sessionId = input('session-id').value.trim() || 'demo';
      save({ sessionId: app.sessionId });
      await newConversation();
    }),
  );
  byId('clear-session').addEventListener('click', () => act(newConversation));
  byId('clear-all').addEventListener('click', () =>
    act(async () => {
      await app.layer.clear();
      clearEvents();
      await newConversation();
    }),
  );
}

async function switchStore(store: 'memory' | 'indexeddb'): Promise<void> {
  app.store = store;
  save({ store });
  applyOptions();
  if (store === 'indexeddb') save({ history: [...host.history] });
  else forget('history');
  storeNote();
  if (host.rounds.length > 0) await nextRound();
}

async function switchMode(mode: Mode): Promise<void> {
  app.mode = mode;
  saveChoice(app.provider, mode);
  fillModes();
  await showRound();
}

// A new provider starts in its adapter's default exposure, as a new user of that adapter would: the mode of
// another provider is not a choice that carries over (Anthropic's default is native, the others' bridge).
async function switchProvider(provider: Provider): Promise<void> {
  const previous = app.mode;
  app.provider = provider;
  app.mode = PROVIDERS[provider].defaultMode;
  fillModes(previous);
  saveChoice(provider, app.mode);
  await showRound();
}

function wireSession(): void {
  byId('search').addEventListener('submit', (event) => {
    event.preventDefault();
    void act(() => searchByHand(searchArgs(input('query').value, input('limit').value, input('offset').value)));
  });
  byId('send-raw').addEventListener(
    'click',
    () => void act(() => searchByHand(byId<HTMLTextAreaElement>('raw-args').value)),
  );
  byId('next-round').addEventListener('click', () => void act(async () => void (await nextRound())));
}

/** Puts the last visit's choices back, then the session when its store kept it. */
async function restore(): Promise<void> {
  const saved = load();
  restoreOptions();
  app.store = saved.store ?? 'memory';
  input(`store-${app.store}`).checked = true;
  app.provider = (saved.provider as Provider) ?? app.provider;
  app.mode = (saved.mode as Mode) ?? app.mode;
  app.sessionId = saved.sessionId ?? app.sessionId;
  input('session-id').value = app.sessionId;
  byId<HTMLTextAreaElement>('own-text').value = saved.ownText ?? '';
  applyOptions();
  await detectModes(() => createToolSearch({ store: createMemoryStore(), maxDirectTools: 2, logger: { warn() {} } }));
  fillProviders();
  app.catalogue =
    saved.catalogue === OWN && saved.ownText === undefined ? CATALOGUES[0].id : (saved.catalogue ?? CATALOGUES[0].id);
  fillPicker();
  const restoring = app.store === 'indexeddb' && (saved.history?.length ?? 0) > 0;
  await pickCatalogue(app.catalogue, restoring);
  if (!restoring || !saved.history) {
    if (restoring === false) await newConversation();
    return storeNote();
  }
  const { order } = await app.layer.inspect(app.sessionId);
  host.reset(saved.history);
  player.rewind(saved.scriptStep ?? 0);
  showScript();
  storeNote(
    `Restored session “${app.sessionId}” after the reload: ${plural(order.length, 'discovered tool')} from IndexedDB, ${plural(saved.history.length, 'message')}.`,
  );
  await nextRound();
}

wireCatalogue();
wireSettings();
wireSession();
wireScript();
wireChat();
void act(restore);
void tokenizerReady.then(() => {
  showCatalogueStats();
  redrawCharts();
});
