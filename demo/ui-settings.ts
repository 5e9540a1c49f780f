// Section 3: the layer's options, the store, the provider and its exposure modes, the enabled groups.
import type { ToolSearchOptions } from 'tool-search-layer';
import { app, makeLayer, providerModes } from './app.ts';
import { groupCounts } from './catalogues.ts';
import { load, save } from './persist.ts';
import { type Mode, PROVIDERS, type Provider } from './providers.ts';
import { byId, h } from './view.ts';

const NUMBERS = ['maxDirectTools', 'maxSearchResults', 'maxDiscoveredKeep', 'toolNamesBudget'];

/** The options form as createToolSearch options; blank numbers keep their defaults. */
export function readOptions(): ToolSearchOptions {
  const form = new FormData(byId<HTMLFormElement>('options'));
  const text = (name: string) => String(form.get(name) ?? '').trim();
  const options: Record<string, unknown> = {
    showToolNames: form.has('showToolNames'),
    locale: text('locale'),
    searchResults: text('searchResults'),
    alwaysDirectTools: text('alwaysDirectTools')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
  };
  for (const name of NUMBERS) if (text(name) !== '') options[name] = Number(text(name));
  return options as ToolSearchOptions;
}

/** Puts saved option values back into the form. */
export function restoreOptions(): void {
  const saved = load().options ?? {};
  const form = byId<HTMLFormElement>('options');
  for (const [name, value] of Object.entries(saved)) {
    const field = form.elements.namedItem(name);
    if (field instanceof HTMLInputElement && field.type === 'checkbox') field.checked = Boolean(value);
    else if (field instanceof HTMLInputElement || field instanceof HTMLSelectElement) field.value = String(value);
  }
}

/** Applies the form: a new layer, or the library's error beside the form and the old layer kept. */
export function applyOptions(): boolean {
  const error = byId('options-error');
  const problem = makeLayer(readOptions());
  if (problem) {
    error.textContent = `${problem} (not applied: the last valid options stay in force)`;
    error.hidden = false;
    return false;
  }
  error.hidden = true;
  const form = byId<HTMLFormElement>('options');
  const values: Record<string, string | boolean> = {};
  for (const name of [...NUMBERS, 'locale', 'searchResults', 'alwaysDirectTools']) {
    values[name] = (form.elements.namedItem(name) as HTMLInputElement).value;
  }
  values.showToolNames = (form.elements.namedItem('showToolNames') as HTMLInputElement).checked;
  save({ options: values });
  return true;
}

/** What the store choice means for a reload, said once under the choice. */
export function storeNote(restored?: string): void {
  const note =
    app.store === 'memory'
      ? 'Memory: the session lives in this page only; a reload starts it over.'
      : 'IndexedDB: the discovered set is kept by tool-search-layer/indexeddb (database tool-search-layer-playground) and the history in localStorage, so the session survives a reload.';
  byId('store-note').textContent = restored ? `${restored} ${note}` : note;
}

const MODE_NOTES: Record<Mode, string> = {
  tools: 'tools: search_tools plus the discovered tools; the tools block grows as tools are found.',
  bridge:
    'bridge: search_tools and call_tool, the same bytes every round; found tools are called through call_tool, so the prefix never changes.',
  native:
    "native: the provider's own deferred loading; every tool is sent deferred and found ones load in the conversation.",
  inline:
    "inline: Anthropic's mid-conversation tool additions; the tools array stays put and each found tool's definition is appended in a system message.",
};

/** The provider picker and the mode radios of the chosen provider. */
export function fillProviders(): void {
  const picker = byId<HTMLSelectElement>('provider');
  picker.replaceChildren(
    ...Object.entries(PROVIDERS).map(([id, provider]) => h('option', { value: id }, provider.label)),
  );
  picker.value = app.provider;
  fillModes();
}

/** The adapter function whose default each provider's mode hint names. */
const PREPARE: Record<Provider, string> = {
  'openai-chat': 'prepareChatCompletion',
  'openai-responses': 'prepareResponse',
  anthropic: 'prepareAnthropicMessages',
  gemini: 'prepareGeminiRequest',
};

/** Whether the chosen mode is the adapter's default, and which mode a provider switch left behind. */
function defaultNote(switchedFrom: Mode | undefined): string {
  const { label, defaultMode } = PROVIDERS[app.provider];
  if (app.mode !== defaultMode) return `Not the default of ${label}, which is ${defaultMode}.`;
  const why = `(what ${PREPARE[app.provider]} does when no exposure is passed)`;
  return switchedFrom === undefined || switchedFrom === defaultMode
    ? `${defaultMode} is the default of ${label} ${why}.`
    : `Switched from ${switchedFrom} to ${defaultMode}, the default of ${label} ${why}; ${switchedFrom} is still one click away.`;
}

/**
 * The radios of the modes the provider's adapter offers; a mode it lacks falls back to the adapter's default.
 * `switchedFrom` is the mode before a provider switch, named in the hint when it changed.
 */
export function fillModes(switchedFrom?: Mode): void {
  const modes = providerModes();
  if (!modes.includes(app.mode)) app.mode = PROVIDERS[app.provider].defaultMode;
  const box = byId('modes');
  box.replaceChildren(
    h('legend', {}, `Exposure mode (${PROVIDERS[app.provider].label})`),
    ...modes.map((mode) => {
      const input = h('input', { type: 'radio', name: 'mode', value: mode }) as HTMLInputElement;
      input.checked = mode === app.mode;
      return h('label', { class: 'check' }, input, ` ${mode}`);
    }),
  );
  byId('mode-note').textContent = `${defaultNote(switchedFrom)} ${MODE_NOTES[app.mode]}`;
}

/** Saves the provider and mode. */
export function saveChoice(provider: Provider, mode: Mode): void {
  save({ provider, mode });
}

/** One checkbox per group with its size. */
export function fillGroups(): void {
  byId('groups').replaceChildren(
    ...[...groupCounts(app.tools)].map(([group, count]) => {
      const input = h('input', { type: 'checkbox', value: group }) as HTMLInputElement;
      input.checked = app.enabledGroups?.includes(group) ?? false;
      return h('label', { class: 'check' }, input, ` ${group} `, h('small', { class: 'muted' }, `(${count})`));
    }),
  );
}
