// The page's state and the round pipeline: the layer made from the settings, the host that holds the
// conversation, the scripted player, and what happens after every round (views, request body, charts, saving).
import {
  createMemoryStore,
  createToolSearch,
  type DiscoveredStore,
  type Tool,
  ToolSearchError,
  type ToolSearchOptions,
} from 'tool-search-layer';
import { createIndexedDbStore } from 'tool-search-layer/indexeddb';
import { logEvent } from './events.ts';
import { CORE_MODES, type CoreMode, createHost, type Round } from './host.ts';
import { save } from './persist.ts';
import { diffBodies, type Mode, PROVIDERS, type Provider, requestBody } from './providers.ts';
import { createPlayer, type ScriptPlan, scriptSteps } from './script.ts';
import { renderCharts } from './ui-chart.ts';
import { renderBody, renderRound } from './ui-round.ts';
import { act, renderHistory } from './view.ts';

/** The system prompt of every request body the page shows. */
export const SYSTEM = 'You are a helpful assistant. Find the tools you need with search_tools, then call them.';

const memoryStore = createMemoryStore();
let indexedDbStore: DiscoveredStore | undefined;

/** Everything the page's controls change. */
export const app = {
  tools: [] as Tool[],
  catalogue: 'mcp-github',
  enabledGroups: undefined as string[] | undefined,
  store: 'memory' as 'memory' | 'indexeddb',
  options: {} as ToolSearchOptions,
  layer: createToolSearch({ store: memoryStore }),
  provider: 'openai-chat' as Provider,
  mode: PROVIDERS['openai-chat'].defaultMode,
  sessionId: 'demo',
  plan: { request: '', query: '' } as ScriptPlan,
};

/** The store the settings chose; the IndexedDB one is opened on first use. */
export function currentStore(): DiscoveredStore {
  if (app.store === 'memory') return memoryStore;
  indexedDbStore ??= createIndexedDbStore({ dbName: 'tool-search-layer-playground' });
  return indexedDbStore;
}

/** Makes the layer from options; a ToolSearchError is returned as its message and the old layer stays. */
export function makeLayer(options: ToolSearchOptions): string | undefined {
  try {
    app.layer = createToolSearch({ ...options, store: currentStore(), onEvent: logEvent });
    app.options = options;
    return undefined;
  } catch (error) {
    if (!ToolSearchError.isInstance(error)) throw error;
    return error.message;
  }
}

/** The core mode behind the chosen mode: native rounds discover as `tools` does; the provider defers the rest. */
const coreMode = (): CoreMode => (CORE_MODES.includes(app.mode as CoreMode) ? (app.mode as CoreMode) : 'tools');

/** The recency order of a session, least recent first, as the layer reports it. */
async function recent(sessionId: string): Promise<readonly string[]> {
  return (await app.layer.inspect(sessionId)).recent;
}

export const host = createHost({
  layer: () => app.layer,
  recent,
  tools: () => app.tools,
  enabledGroups: () => app.enabledGroups,
  sessionId: () => app.sessionId,
  mode: coreMode,
});

// This round's and the last round's body for every provider and mode, so switching either shows that request's
// own comparison: the one its prompt cache would make.
type Bodies = Map<string, Record<string, unknown>>;
let bodies = { now: new Map() as Bodies, before: new Map() as Bodies };
const bodyKey = (provider: Provider, mode: Mode) => `${provider} ${mode}`;

/** Forgets the compared bodies: a new conversation starts with nothing cached. */
export function forgetBodies(): void {
  bodies = { now: new Map(), before: new Map() };
}

/** Prepares the next round and shows it everywhere. */
export async function nextRound(): Promise<Round> {
  const round = await host.prepare();
  bodies = { before: bodies.now, now: new Map() };
  for (const [provider, { modes }] of Object.entries(PROVIDERS) as [Provider, (typeof PROVIDERS)[Provider]][]) {
    for (const mode of modes) bodies.now.set(bodyKey(provider, mode), await bodyOf(round, provider, mode));
  }
  await showRound(round);
  return round;
}

/** The adapter's request body for a round. */
function bodyOf(round: Round, provider: Provider, mode: Mode): Promise<Record<string, unknown>> {
  return requestBody(provider, mode, {
    layer: app.layer,
    sessionId: app.sessionId,
    tools: app.tools,
    enabledGroups: app.enabledGroups,
    messages: round.history,
    system: SYSTEM,
  });
}

/** The body of the round on show for the chosen provider and mode, as the adapter made it (what real chat sends). */
export function currentBody(): Record<string, unknown> | undefined {
  return bodies.now.get(bodyKey(app.provider, app.mode));
}

/** Draws a round: what the model can use, the provider's body compared with the last, the history, the charts. */
export async function showRound(round: Round | undefined = host.rounds.at(-1)): Promise<void> {
  renderHistory(host.history);
  redrawCharts();
  save({ scriptStep: player.next, ...(app.store === 'indexeddb' && { history: [...host.history] }) });
  if (!round) return;
  renderRound(round, coreMode(), app.layer.options.alwaysDirectTools, (name) => void act(() => callByHand(name)));
  const key = bodyKey(app.provider, app.mode);
  if (!bodies.now.has(key)) bodies.now.set(key, await bodyOf(round, app.provider, app.mode));
  const body = bodies.now.get(key) as Record<string, unknown>;
  const previous = bodies.before.get(key);
  renderBody(app.provider, app.mode, diffBodies(app.provider, body, previous), previous === undefined);
}

/** Redraws the charts (also when the tokenizer arrives). */
export function redrawCharts(): void {
  const { maxSearchResults, maxDiscoveredKeep } = app.layer.options;
  renderCharts(host.rounds, app.provider, { perSearch: maxSearchResults || 5, keep: maxDiscoveredKeep });
}

/** The model calls a tool by hand (the visitor plays it), then the next round is prepared. */
export async function callByHand(name: string): Promise<void> {
  player.pause();
  await host.call(name);
  await nextRound();
}

export const player = createPlayer(
  host,
  () => scriptSteps(app.plan),
  async () => void (await nextRound()),
);

/** The modes the chosen provider's adapter offers. */
export const providerModes = (): readonly Mode[] => PROVIDERS[app.provider].modes;
