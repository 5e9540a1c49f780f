// Issue 15, item 6: what users write with the adapter compiles under `tsc --strict` against the built package,
// with the newest openai (7) and the previous major (6, through the `openai6` alias), and runs as typed.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import OpenAI from 'openai';
import { createToolSearch } from 'tool-search-layer';
import { afterEach, describe, expect, it } from 'vitest';
import { chatStreamReply, type MockProvider, responsesStreamReply, startMockProvider } from './mock-provider.ts';
import { chatTools, quiet, responsesTools } from './openai-fixtures.ts';
import { nativeTools, streamChat, streamResponse } from './openai-types/streams.ts';

const root = join(import.meta.dirname, '..', '..');
const folder = join(import.meta.dirname, 'openai-types');

/** Runs tsc over the fixtures with one of the two configs; the package's types come from dist/ (`npm run build`). */
function typecheck(config: string): { status: number | null; output: string } {
  const tsc = join(root, 'node_modules', '.bin', 'tsc');
  const run = spawnSync(tsc, ['-p', join(folder, config)], { cwd: root, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

let provider: MockProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

describe('types a user meets', () => {
  // tsc takes a few seconds, more on a busy machine.
  it.each(['tsconfig.json', 'tsconfig.openai6.json'])(
    'the fixtures pass tsc --strict (%s)',
    { timeout: 60_000 },
    (config) => {
      expect(typecheck(config)).toEqual({ status: 0, output: '' });
    },
  );

  it('a streamed Chat Completions request iterates with for await', async () => {
    provider = await startMockProvider(() => chatStreamReply('Sunny in Oslo.'));
    const client = new OpenAI({ baseURL: `${provider.origin}/v1`, apiKey: 'test', maxRetries: 0 });
    expect(await streamChat(client, createToolSearch(quiet()), chatTools)).toBe('Sunny in Oslo.');
    expect(provider.body(0)).toMatchObject({ stream: true });
    const sent = provider.body(0).tools as { function: { name: string } }[];
    expect(sent.map((tool) => tool.function.name)).toEqual(['search_tools', 'call_tool']);
  });

  it('a streamed Responses request iterates with for await', async () => {
    provider = await startMockProvider(() => responsesStreamReply('Rain in Bergen.'));
    const client = new OpenAI({ baseURL: `${provider.origin}/v1`, apiKey: 'test', maxRetries: 0 });
    expect(await streamResponse(client, createToolSearch(quiet()), responsesTools)).toBe('Rain in Bergen.');
    expect(provider.body(0)).toMatchObject({ stream: true });
  });

  it('native mode returns the tool_search and namespaces its type admits', async () => {
    const groupOf = (name: string) => (name.includes('mail') || name.includes('inbox') ? 'mail' : undefined);
    const { search, namespaces } = await nativeTools(createToolSearch(quiet()), responsesTools, groupOf);
    expect(search).toHaveLength(1);
    expect(namespaces.map((n) => n.name)).toEqual(['mail']);
  });
});
