// Which modes each provider adapter really offers in this build of the library: the page lists only those.
import type { Message, Tool, ToolSearch } from 'tool-search-layer';
import { type Mode, PROVIDERS, type Provider, requestBody } from './providers.ts';

type Body = Record<string, unknown> & { tools?: Record<string, unknown>[] };

/** What a body must show to be in a mode: its own tools, its own deferral, its own additions. */
const SHOWS: Record<Mode, (body: Body) => boolean> = {
  tools: (body) => !names(body).includes('call_tool') && !deferred(body),
  bridge: (body) => names(body).includes('call_tool'),
  native: (body) => deferred(body),
  inline: (body) => JSON.stringify(body).includes('tool_addition'),
};
// Gemini's parameters keep the tools in `config`, each entry a list of function declarations.
const toolsOf = (body: Body): Record<string, unknown>[] => body.tools ?? (body.config as Body | undefined)?.tools ?? [];
const names = (body: Body) =>
  toolsOf(body).flatMap((t) =>
    Array.isArray(t.functionDeclarations)
      ? t.functionDeclarations.map((d: { name?: string }) => d.name)
      : [(t.function as { name?: string } | undefined)?.name ?? t.name],
  );
const deferred = (body: Body) => toolsOf(body).some((t) => t.defer_loading === true || t.type === 'namespace');

/**
 * Keeps, for each provider, the modes its adapter really offers in this build: each mode is asked for on a small
 * catalogue after one search, and kept when the body shows it (an adapter that ignores or refuses the mode loses it).
 */
export async function detectModes(layerFor: () => ToolSearch): Promise<void> {
  const tools: Tool[] = Array.from({ length: 8 }, (_, i) => ({
    name: `tool_${i}`,
    description: `tool number ${i} for detection`,
    parameters: { type: 'object', properties: {} },
  }));
  for (const provider of Object.keys(PROVIDERS) as Provider[]) {
    const offered: Mode[] = [];
    for (const mode of PROVIDERS[provider].modes) {
      const layer = layerFor();
      const context = { sessionId: 'detect', tools };
      const args = JSON.stringify({ query: 'tool number 1' });
      const result = await layer.search({ ...context, exposure: mode === 'bridge' ? 'bridge' : 'tools' }, args);
      const messages: Message[] = [
        { role: 'user', content: 'find a tool' },
        { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'search_tools', arguments: args }] },
        { role: 'tool', toolCallId: 'c1', content: JSON.stringify(result) },
      ];
      try {
        const input = { layer, sessionId: 'detect', tools, enabledGroups: undefined, messages, system: 'detect' };
        if (SHOWS[mode]((await requestBody(provider, mode, input)) as Body)) offered.push(mode);
      } catch {
        // An adapter that refuses the mode does not offer it.
      }
    }
    PROVIDERS[provider].modes = offered;
  }
}
