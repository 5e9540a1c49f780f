// layer.callTool: a bridged call runs with its arguments unchanged, or gets a corrective result; nothing throws.
import { CALL_TOOL_NAME, type CallToolResult, createToolSearch, type Tool } from 'tool-search-layer';
import { describe, expect, it } from 'vitest';
import { catalogue, recordingLogger } from './fixtures.ts';

const quiet = () => ({ logger: recordingLogger() });
const context = { sessionId: 's', tools: catalogue };

/** A bridge layer whose session has discovered `found`. */
async function layerWith(found: readonly string[], options = {}) {
  const layer = createToolSearch({ ...quiet(), exposure: 'bridge', ...options });
  for (const name of found) await layer.search(context, { query: name, limit: 1 });
  return layer;
}

function refusal(call: CallToolResult) {
  if (call.ok) throw new Error(`expected a corrective result, got a call of ${call.name}`);
  expect(JSON.stringify(call.result).startsWith('{"notCalled":')).toBe(true);
  return call.result;
}

describe('callTool: calls that may run', () => {
  it('returns the name, the arguments unchanged and the tool, from an object or a JSON string', async () => {
    const layer = await layerWith(['get_weather']);
    const args = { city: 'Oslo' };
    const call = await layer.callTool(context, { name: 'get_weather', arguments: args });
    expect(call).toEqual({ ok: true, name: 'get_weather', arguments: args, tool: catalogue[3] });
    if (call.ok) expect(call.arguments).toBe(args);
    expect(await layer.callTool(context, '{"name":"get_weather","arguments":{"city":"Rome"}}')).toMatchObject({
      ok: true,
      arguments: { city: 'Rome' },
    });
    expect(await layer.callTool(context, { name: 'get_weather', arguments: '{"city":"Bern"}' })).toMatchObject({
      ok: true,
      arguments: { city: 'Bern' },
    });
  });

  it('lets direct tools through, and takes omitted arguments as {}', async () => {
    const layer = createToolSearch({ ...quiet(), alwaysDirectTools: ['web_search'] });
    expect(await layer.callTool(context, { name: 'web_search', arguments: { q: 'x' } })).toMatchObject({ ok: true });
    const free: Tool = { name: 'ping', description: 'Ping' };
    const open = await layerWith([]);
    await open.search({ ...context, tools: [...catalogue, free] }, { query: 'ping', limit: 1 });
    expect(await open.callTool({ ...context, tools: [...catalogue, free] }, { name: 'ping' })).toMatchObject({
      ok: true,
      arguments: {},
    });
  });
});

describe('callTool: corrective results', () => {
  it('answers a wrong name with the closest visible names', async () => {
    const result = refusal(await (await layerWith([])).callTool(context, { name: 'get_wether', arguments: {} }));
    expect(result.notCalled).toBe('get_wether');
    expect(result.closest).toContain('get_weather');
    expect(result.error).toMatch(/No available tool is named "get_wether"/);
  });

  it('answers a tool outside the enabled groups exactly as a name that does not exist', async () => {
    const layer = await layerWith(['get_weather']);
    const mailOnly = { ...context, enabledGroups: ['mail'] };
    const hidden = refusal(await layer.callTool(mailOnly, { name: 'get_weather', arguments: { city: 'x' } }));
    const without = { ...mailOnly, sessionId: 'never', tools: catalogue.filter((tool) => tool.name !== 'get_weather') };
    const missing = refusal(await layer.callTool(without, { name: 'get_weather', arguments: { city: 'x' } }));
    expect(hidden).toEqual(missing);
    expect(JSON.stringify(hidden)).not.toMatch(/get_forecast|query_city_weather|Current weather/);
  });

  it('says a discovered tool that left the round is not available', async () => {
    const layer = await layerWith(['get_weather']);
    const gone = { ...context, tools: catalogue.filter((tool) => tool.name !== 'get_weather') };
    const result = refusal(await layer.callTool(gone, { name: 'get_weather', arguments: { city: 'x' } }));
    expect(result.error).toMatch(/"get_weather" is not available right now/);
  });

  it.each([
    ['a non-JSON string', 'call get_weather', /expected a JSON object/],
    ['null', null, /expected a JSON object/],
    ['an array', [{ name: 'get_weather' }], /expected a JSON object/],
    ['a number', 42, /expected a JSON object/],
    ['no name', { arguments: {} }, /"name" must be/],
    ['an empty name', { name: ' ', arguments: {} }, /"name" must be/],
    ['a name that is not a string', { name: 3, arguments: {} }, /"name" must be/],
    ['arguments that are an array', { name: 'get_weather', arguments: ['Oslo'] }, /"arguments" must be a JSON object/],
    ['arguments that are a number', { name: 'get_weather', arguments: 3 }, /"arguments" must be a JSON object/],
    ['arguments that are not JSON', { name: 'get_weather', arguments: '{city' }, /"arguments" must be a JSON object/],
  ])('answers %s with how to call call_tool', async (_, input, error) => {
    const result = refusal(await (await layerWith(['get_weather'])).callTool(context, input));
    expect(result.error).toMatch(error);
    expect(result.hint).toMatch(/\{"name": "get_weather", "arguments": \{"city": "Paris"\}\}/);
  });

  it('answers arguments that fail the schema with the path and the reason', async () => {
    const layer = await layerWith(['get_forecast']);
    const result = refusal(await layer.callTool(context, { name: 'get_forecast', arguments: { city: 3 } }));
    expect(result.notCalled).toBe('get_forecast');
    expect(result.error).toContain('arguments.city: type "number" is invalid. Expected "string".');
    expect(result.error).toContain('arguments: does not have required property "days".');
    expect(result.hint).toMatch(/call_tool/);
  });

  it("answers an undiscovered tool with a search hint, or with its definition under 'discover'", async () => {
    const layer = await layerWith([]);
    const hint = refusal(await layer.callTool(context, { name: 'send_email', arguments: { to: 'a', body: 'b' } }));
    expect(hint.hint).toContain('"query": "send email"');
    expect(hint.tools).toBeUndefined();
    const call = { name: 'send_email', arguments: { to: 'a', body: 'b' } };
    const shown = refusal(await layer.callTool(context, call, { onUndiscoveredCall: 'discover' }));
    expect(shown.tools?.[0]?.parameters).toEqual(catalogue[0]?.parameters);
    expect(await layer.callTool(context, call)).toMatchObject({ ok: true });
  });

  it('answers call_tool and search_tools named through call_tool', async () => {
    const layer = await layerWith([]);
    const self = refusal(await layer.callTool(context, { name: CALL_TOOL_NAME, arguments: { name: 'x' } }));
    expect(self.hint).toMatch(/Put the name of the tool/);
    const search = refusal(await layer.callTool(context, { name: 'search_tools', arguments: { query: 'mail' } }));
    expect(search.hint).toMatch(/Call search_tools directly/);
  });

  it('speaks Chinese with locale zh', async () => {
    const layer = await layerWith(['get_forecast'], { locale: 'zh' });
    expect(refusal(await layer.callTool(context, 'x')).error).toMatch(/call_tool 参数无效/);
    const invalid = refusal(await layer.callTool(context, { name: 'get_forecast', arguments: {} }));
    expect(invalid.error).toMatch(/未调用工具“get_forecast”：参数与其参数定义不符/);
    const gone = { ...context, tools: catalogue.filter((tool) => tool.name !== 'get_forecast') };
    expect(refusal(await layer.callTool(gone, { name: 'get_forecast', arguments: {} })).error).toMatch(/当前不可用/);
  });

  it('never throws for model input', async () => {
    const layer = await layerWith(['get_weather']);
    const inputs: unknown[] = [
      undefined,
      '',
      '{}',
      '[]',
      'null',
      true,
      { name: {} },
      { name: 'get_weather', arguments: null },
    ];
    inputs.push({ name: 'get_weather', arguments: { city: 'x'.repeat(10_000), extra: [1, { deep: [null] }] } });
    inputs.push({ name: '__proto__', arguments: {} }, { name: 'constructor', arguments: '{"__proto__": {}}' });
    for (const input of inputs) await expect(layer.callTool(context, input)).resolves.toHaveProperty('ok');
  });
});
