// checkCall: what the model gets when it calls a tool it has not been shown.
import { createToolSearch, isUndiscoveredResult, type Message } from 'tool-search-layer';
import { describe, expect, it } from 'vitest';
import { callAndResult, catalogue, recordingLogger } from './fixtures.ts';

const quiet = () => ({ logger: recordingLogger() });
const context = { sessionId: 's', tools: catalogue };

describe('checkCall: calls of tools the model has not discovered', () => {
  it('lets through direct tools, discovered tools, search_tools, and any visible tool of a bypassed round', async () => {
    const layer = createToolSearch({ ...quiet(), alwaysDirectTools: ['calculator'] });
    expect(await layer.checkCall(context, 'calculator')).toEqual({ ok: true });
    expect(await layer.checkCall(context, 'search_tools')).toEqual({ ok: true });
    await layer.search(context, { query: 'forecast', limit: 1 });
    expect(await layer.checkCall(context, 'get_forecast')).toEqual({ ok: true });
    const few = { sessionId: 's', tools: catalogue.slice(0, 3) };
    expect(await layer.checkCall(few, 'delete_email')).toEqual({ ok: true });
  });

  it('lets through every tool a bypassed round sent, as prepare passed them on unchanged', async () => {
    const layer = createToolSearch(quiet());
    const few = { sessionId: 's', tools: catalogue.slice(0, 4), enabledGroups: ['weather'] };
    expect((await layer.prepare(few)).tools.map((t) => t.name)).toContain('send_email');
    expect(await layer.checkCall(few, 'send_email')).toEqual({ ok: true });
    const off = createToolSearch({ ...quiet(), enabled: false });
    expect(await off.checkCall({ ...context, enabledGroups: [] }, 'get_weather')).toEqual({ ok: true });
    const unknown = await off.checkCall(context, 'no_such_tool');
    expect(unknown.ok).toBe(false);
  });

  it("'hint' (the default) names the tool, tells the model to search, and discovers nothing", async () => {
    const layer = createToolSearch(quiet());
    const check = await layer.checkCall(context, 'send_email');
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.result.notCalled).toBe('send_email');
    expect(check.result.error).toMatch(/"send_email" was not called/);
    expect(check.result.hint).toMatch(/search_tools/);
    expect(check.result.hint).toContain('"query": "send email"');
    expect(check.result.tools).toBeUndefined();
    expect((await layer.prepare(context)).discovered).toEqual([]);
  });

  it("'discover' returns the definition, asks for a new call, and exposes the tool from the next round", async () => {
    const layer = createToolSearch(quiet());
    const check = await layer.checkCall(context, 'get_weather', { onUndiscoveredCall: 'discover' });
    if (check.ok) throw new Error('expected a corrective result');
    expect(check.result.tools).toEqual([
      { name: 'get_weather', description: catalogue[3]?.description, parameters: catalogue[3]?.parameters },
    ]);
    expect(check.result.hint).toMatch(/call it again/);
    const next = await layer.prepare(context);
    expect(next.discovered).toEqual(['get_weather']);
    expect(await layer.checkCall(context, 'get_weather')).toEqual({ ok: true });
  });

  it('answers an unknown name with the closest visible names', async () => {
    const layer = createToolSearch(quiet());
    const check = await layer.checkCall(context, 'get_wether');
    if (check.ok) throw new Error('expected a corrective result');
    expect(check.result.error).toMatch(/No available tool is named "get_wether"/);
    expect(check.result.closest?.[0]).toBe('get_weather');
    expect(check.result.closest?.length).toBeLessThanOrEqual(3);
    const typo = await layer.checkCall(context, 'sendEmial');
    expect(!typo.ok && typo.result.closest).toContain('send_email');
  });

  it('never reveals a tool outside the enabled groups', async () => {
    const layer = createToolSearch(quiet());
    const mailOnly = { ...context, enabledGroups: ['mail'] };
    for (const mode of ['hint', 'discover'] as const) {
      const check = await layer.checkCall(mailOnly, 'get_weather', { onUndiscoveredCall: mode });
      if (check.ok) throw new Error('expected a corrective result');
      expect(check.result.tools).toBeUndefined();
      expect(check.result.error).toMatch(/No available tool/);
      for (const name of check.result.closest ?? []) {
        const tool = catalogue.find((t) => t.name === name);
        expect(!tool?.groups || tool.groups.includes('mail')).toBe(true);
      }
    }
    expect((await layer.prepare(mailOnly)).discovered).toEqual([]);
  });

  it('a corrective result in the history never counts as a use', async () => {
    const layer = createToolSearch(quiet());
    const check = await layer.checkCall(context, 'read_file');
    if (check.ok) throw new Error('expected a corrective result');
    const content = JSON.stringify(check.result);
    expect(isUndiscoveredResult(content)).toBe(true);
    const messages: Message[] = [
      ...callAndResult('c1', 'read_file', content),
      ...callAndResult('c2', 'calculator', '4'),
    ];
    expect((await layer.prepare({ ...context, messages })).discovered).toEqual(['calculator']);
  });

  it('rejects a bad mode and a bad name as host mistakes', async () => {
    const layer = createToolSearch(quiet());
    await expect(layer.checkCall(context, 'x', { onUndiscoveredCall: 'run' as 'hint' })).rejects.toThrow(
      /onUndiscoveredCall must be "hint" or "discover"/,
    );
    await expect(layer.checkCall(context, 42 as unknown as string)).rejects.toThrow(/name must be a string/);
  });

  it('answers in the layer locale', async () => {
    const layer = createToolSearch({ ...quiet(), locale: 'zh' });
    const check = await layer.checkCall(context, 'send_email');
    expect(!check.ok && check.result.error).toMatch(/未调用工具“send_email”/);
  });
});
