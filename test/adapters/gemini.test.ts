// Issue 31: tool-search-layer/gemini through the real `@google/genai` client against the loopback provider, over
// GitHub's MCP catalogue (117 tools). Twelve rounds, five discoveries (one round streamed), found tools run through
// `call_tool` and by name with the model's arguments unchanged, every bad input answered with a corrective response.
// 'bridge' is append-only (systemInstruction, tools and earlier contents byte-identical); 'tools' is not (the control).
import type { Content, FunctionDeclaration, GenerateContentResponse, Part, ToolUnion } from '@google/genai';
import { createMemoryStore, createToolSearch, type DiscoveredStore } from 'tool-search-layer';
import {
  answerGeminiFunctionCall,
  type GeminiExposure,
  type GeminiOptions,
  prepareGeminiRequest,
} from 'tool-search-layer/gemini';
import { afterEach, describe, expect, it } from 'vitest';
import {
  callPart,
  declarations,
  executor,
  geminiClient,
  geminiReply,
  geminiStream,
  groupOf,
  quiet,
  typecheckBodies,
} from './gemini-fixtures.ts';
import { type MockProvider, type RecordedRequest, startMockProvider } from './mock-provider.ts';

const MODEL = 'gemini-3-flash';
const ROUNDS = 12;
const STREAMED = 5;

/** Five searches, each followed by a call of the tool found: through call_tool, or by name (`direct`). */
const plan = [
  {
    query: 'create a new issue',
    name: 'create_issue',
    direct: false,
    args: { owner: 'octo', repo: 'hi', title: 'Bug ✓' },
  },
  {
    query: 'list pull requests',
    name: 'list_pull_requests',
    direct: true,
    args: { repo: 'hi', owner: 'octo', state: 'open' },
  },
  { query: 'star a repository', name: 'star_repository', direct: false, args: { owner: 'octo', repo: 'hi' } },
  {
    query: 'fork a repository',
    name: 'fork_repository',
    direct: true,
    args: { owner: 'octo', repo: 'hi', organization: 'acme' },
  },
  {
    query: 'get file contents',
    name: 'get_file_contents',
    direct: false,
    args: { owner: 'octo', repo: 'hi', path: 'a b.md' },
  },
] as const;

/** Round 10: every kind of bad input at once. Each gets a corrective response, and nothing runs. */
const badCalls: Part[] = [
  callPart('call_tool', { name: 'create_issue', arguments: { owner: 5 } }, 'bad-1'),
  callPart('update_gist', { gist_id: '1', content: 'x', filename: 'a' }, 'bad-2'),
  callPart('no_such_tool', {}, 'bad-3'),
  callPart('call_tool', { name: 'star_repository', arguments: 'not json' }, 'bad-4'),
  callPart('search_tools', { limit: 'many' }, 'bad-5'),
  callPart('list_pull_requests', { owner: 'octo' }, 'bad-6'),
];

let provider: MockProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

/** The response the model read last for this call id, from the body the client sent. */
function lastResponse(request: RecordedRequest): Record<string, unknown> {
  const contents = request.body.contents as Content[];
  const parts = contents.at(-1)?.parts ?? [];
  return (parts.at(-1)?.functionResponse?.response ?? {}) as Record<string, unknown>;
}

/** The scripted model: search, call what was found (checking the search found it), bad inputs, then text. */
function script(exposure: GeminiExposure) {
  return (request: RecordedRequest, index: number) => {
    const step = plan[Math.floor(index / 2)];
    const streamed = index === STREAMED;
    const reply = (parts: Part[]) => (streamed ? geminiStream(parts) : geminiReply(parts));
    const thought: Part = {
      text: `Round ${index}: what next?`,
      thought: true,
      thoughtSignature: `c2lnLXRob3VnaHQt${index}`,
    };
    if (index === 10) return reply([thought, ...badCalls]);
    if (index === 11 || !step) return reply([{ text: 'Done.' }]);
    if (index % 2 === 0)
      return reply([thought, callPart('search_tools', { query: step.query }, `s${index}`, `c2lnLQ${index}`)]);
    const found = (lastResponse(request).tools ?? []) as { name: string }[];
    if (!found.some((tool) => tool.name === step.name)) throw new Error(`${step.name} was not found`);
    const call =
      step.direct || exposure === 'tools'
        ? callPart(step.name, step.args, undefined, `c2lnLQ${index}`)
        : callPart('call_tool', { name: step.name, arguments: step.args }, `c${index}`, `c2lnLQ${index}`);
    return reply([thought, call]);
  };
}

/** Runs the twelve rounds through `ai.models`, one streamed; returns the contents sent and the executor's record. */
async function session(exposure: GeminiExposure, store: DiscoveredStore, extraTools: ToolUnion[] = []) {
  provider = await startMockProvider(script(exposure));
  const ai = geminiClient(provider.origin);
  const layer = createToolSearch({ ...quiet(), store });
  const { calls, execute } = executor();
  const tools: ToolUnion[] = [{ functionDeclarations: [...declarations] }, ...extraTools];
  const options: GeminiOptions = { sessionId: `gemini-${exposure}`, groupOf, exposure };
  const contents: Content[] = [{ role: 'user', parts: [{ text: 'Tidy up my repository.' }] }];
  const answers: Part[][] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const params = { model: MODEL, contents, config: { systemInstruction: 'You manage GitHub.', tools } };
    const request = await prepareGeminiRequest(layer, params, options);
    let parts: Part[];
    if (round === STREAMED) {
      parts = [];
      for await (const chunk of await ai.models.generateContentStream(request)) {
        parts.push(...(chunk.candidates?.[0]?.content?.parts ?? []));
      }
      contents.push({ role: 'model', parts });
    } else {
      const response: GenerateContentResponse = await ai.models.generateContent(request);
      const content = response.candidates?.[0]?.content;
      if (!content) throw new Error('no content');
      contents.push(content);
      parts = content.parts ?? [];
    }
    const answered: Part[] = [];
    for (const part of parts) {
      if (part.functionCall) answered.push(await answerGeminiFunctionCall(layer, part, { ...options, tools, execute }));
    }
    answers.push(answered);
    if (answered.length > 0) contents.push({ role: 'user', parts: answered });
  }
  return { layer, calls, contents, answers, tools, options };
}

/** Whether each request's systemInstruction, tools and earlier contents are byte-identical to the previous one's. */
function appendOnly(requests: readonly RecordedRequest[]): string[] {
  const broken: string[] = [];
  for (let i = 1; i < requests.length; i++) {
    const [before, now] = [requests[i - 1]?.body ?? {}, requests[i]?.body ?? {}];
    const raw = requests[i]?.raw ?? '';
    for (const key of ['systemInstruction', 'tools', 'toolConfig', 'generationConfig']) {
      if (JSON.stringify(now[key]) !== JSON.stringify(before[key])) broken.push(`${key} of request ${i}`);
      else if (before[key] !== undefined && !raw.includes(`"${key}":${JSON.stringify(before[key])}`))
        broken.push(`raw ${key} of request ${i}`);
    }
    const earlier = before.contents as unknown[];
    const sent = now.contents as unknown[];
    if (sent.length <= earlier.length) broken.push(`contents of request ${i} did not grow`);
    if (!raw.includes(`"contents":${JSON.stringify(earlier).slice(0, -1)},`))
      broken.push(`earlier contents of request ${i}`);
  }
  return broken;
}

/** The names of the declarations sent in the first tools entry. */
const declaredNames = (tools: ToolUnion[] | undefined): (string | undefined)[] =>
  ((tools?.[0] as { functionDeclarations?: FunctionDeclaration[] } | undefined)?.functionDeclarations ?? []).map(
    (d) => d.name,
  );

describe('tool-search-layer/gemini with @google/genai', () => {
  it('bridge: twelve rounds, five discoveries, each request only appends', async () => {
    const store = createMemoryStore();
    const { calls, answers, layer, tools, options } = await session('bridge', store, [{ googleSearch: {} }]);
    const requests = provider?.requests ?? [];
    expect(requests).toHaveLength(ROUNDS);
    expect(requests[STREAMED]?.path).toContain(`/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`);
    expect(requests[0]?.path).toBe(`/v1beta/models/${MODEL}:generateContent`);
    expect(appendOnly(requests)).toEqual([]);
    expect(
      typecheckBodies(
        'bridge',
        requests.map((request) => request.body),
      ),
    ).toBe('');
    // Only the bridge's two declarations, then googleSearch as given.
    const sentTools = requests[0]?.body.tools as { functionDeclarations?: { name: string }[] }[];
    expect(sentTools.map((tool) => tool.functionDeclarations?.map((d) => d.name) ?? tool)).toEqual([
      ['search_tools', 'call_tool'],
      { googleSearch: {} },
    ]);
    expect(JSON.stringify(sentTools)).not.toContain('"parameters"');
    // Every found tool ran once, in order, with the model's arguments unchanged (keys, order, values).
    expect(calls.map((call) => `${call.name} ${JSON.stringify(call.arguments)}`)).toEqual(
      plan.map((step) => `${step.name} ${JSON.stringify(step.args)}`),
    );
    for (const call of calls) expect(call.tool).toBe(declarations.find((d) => d.name === call.name));
    // The bad inputs: a corrective response each, ids and names echoed, responses objects.
    const corrective = answers[10] ?? [];
    expect(corrective.map((part) => [part.functionResponse?.id, part.functionResponse?.name])).toEqual(
      badCalls.map((part) => [part.functionCall?.id, part.functionCall?.name]),
    );
    const responses = corrective.map((part) => part.functionResponse?.response as Record<string, unknown>);
    expect(responses.map((r) => r.notCalled ?? (r.error ? 'search error' : r))).toEqual([
      'create_issue',
      'update_gist',
      'no_such_tool',
      'star_repository',
      'search error',
      'list_pull_requests',
    ]);
    for (const response of responses) expect(typeof response.hint).toBe('string');
    // A fresh layer over the same store keeps the session's discoveries; another session sees none.
    const fresh = createToolSearch({ ...quiet(), store });
    const again = executor();
    const direct = callPart('fork_repository', { owner: 'a', repo: 'b' }, 'again');
    const ran = await answerGeminiFunctionCall(fresh, direct, { ...options, tools, execute: again.execute });
    expect(ran.functionResponse?.response).toEqual({ ok: true, tool: 'fork_repository' });
    const other = await answerGeminiFunctionCall(fresh, direct, {
      ...options,
      sessionId: 'another',
      tools,
      execute: again.execute,
    });
    expect(other.functionResponse?.response).toMatchObject({ notCalled: 'fork_repository' });
    expect(again.calls).toHaveLength(1);
    const shown = await prepareGeminiRequest(fresh, { config: { tools } }, { ...options, exposure: 'tools' });
    const shownNames = declaredNames(shown.config?.tools);
    expect(shownNames[0]).toBe('search_tools');
    for (const step of plan) expect(shownNames).toContain(step.name);
    expect(shownNames).not.toContain('update_gist');
    const elsewhere = await prepareGeminiRequest(
      fresh,
      { config: { tools } },
      { ...options, sessionId: 'another', exposure: 'tools' },
    );
    expect(declaredNames(elsewhere.config?.tools)).toEqual(['search_tools']);
    expect(layer).not.toBe(fresh);
  });

  it('thoughtSignature parts come back exactly, in every later request', async () => {
    await session('bridge', createMemoryStore());
    const requests = provider?.requests ?? [];
    const signed = (request: RecordedRequest) =>
      (request.body.contents as Content[]).flatMap((content) =>
        (content.parts ?? []).filter((part) => part.thoughtSignature !== undefined).map((part) => JSON.stringify(part)),
      );
    // The model's parts as the client first sent them back (request 1 on) stay, byte for byte, in every later one.
    for (let i = 2; i < requests.length; i++) {
      const before = signed(requests[i - 1] as RecordedRequest);
      expect(signed(requests[i] as RecordedRequest).slice(0, before.length)).toEqual(before);
    }
    const last = signed(requests.at(-1) as RecordedRequest);
    // Two per round with a call (the thought and the call), one streamed round included; none lost.
    expect(last).toHaveLength(2 * 10 + 1);
    for (let round = 0; round < 10; round++) expect(last.join()).toContain(`c2lnLQ${round}`);
  });

  it("'tools' (the control): the same script changes tools at each discovery", async () => {
    const { calls } = await session('tools', createMemoryStore());
    const requests = provider?.requests ?? [];
    expect(
      typecheckBodies(
        'tools',
        requests.map((request) => request.body),
      ),
    ).toBe('');
    const broken = appendOnly(requests);
    expect(broken.filter((line) => line.startsWith('tools of request'))).toHaveLength(5);
    const counts = requests.map(
      (r) => ((r.body.tools as { functionDeclarations: unknown[] }[])[0]?.functionDeclarations ?? []).length,
    );
    // search_tools alone, then each search's finds added: more declarations at each discovery.
    expect(counts[0]).toBe(1);
    expect(counts.at(-1)).toBeGreaterThan(counts[1] ?? 0);
    expect(calls.map((call) => call.name)).toEqual(plan.map((step) => step.name));
  });
});
