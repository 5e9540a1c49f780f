import { createMemoryStore, createToolSearch, locales, ToolSearchError } from 'tool-search-layer';
import { zh } from 'tool-search-layer/zh';
import { describe, expect, it } from 'vitest';
import { catalogue } from './fixtures.ts';

describe('options', () => {
  it('applies every default of the spec', () => {
    const { options } = createToolSearch();
    expect(options).toMatchObject({
      enabled: true,
      showToolNames: true,
      maxDirectTools: 5,
      maxSearchResults: 5,
      alwaysDirectTools: [],
      maxDiscoveredKeep: 20,
      toolNamesBudget: 6000,
    });
    expect(options.texts).toEqual(locales.en);
    expect(options.store.name).toBe('memory');
    expect(typeof options.logger.warn).toBe('function');
  });

  it.each([
    [{ enabled: 'yes' }, 'enabled'],
    [{ showToolNames: 1 }, 'showToolNames'],
    [{ maxDirectTools: -1 }, 'maxDirectTools', 'must be 0 or more'],
    [{ maxDirectTools: 2.5 }, 'maxDirectTools', 'must be an integer'],
    [{ maxSearchResults: '5' }, 'maxSearchResults'],
    [{ maxSearchResults: Number.NaN }, 'maxSearchResults'],
    [{ maxDiscoveredKeep: -3 }, 'maxDiscoveredKeep', 'must be 0 or more'],
    [{ toolNamesBudget: 0.5 }, 'toolNamesBudget', 'must be an integer'],
    [{ alwaysDirectTools: 'web_search' }, 'alwaysDirectTools'],
    [{ alwaysDirectTools: ['a', 'b', 'a'] }, 'alwaysDirectTools', 'must not repeat a name ("a")'],
    [{ alwaysDirectTools: [''] }, 'alwaysDirectTools.0', 'must not be empty'],
    [{ alwaysDirectTools: [3] }, 'alwaysDirectTools.0'],
    [{ locale: 'fr' }, 'locale', 'must be "en" or "zh"'],
    [{ texts: { description: 3 } }, 'texts.description'],
    [{ texts: { nope: 'x' } }, 'texts.nope', 'is not a text key'],
    [{ store: {} }, 'store', 'must be a store'],
    [{ logger: { log() {} } }, 'logger', 'warn function'],
    [{ maxResults: 3 }, 'maxResults', 'is not an option'],
  ])('rejects %o naming the path "%s"', (options, path, reason?: string) => {
    let error: unknown;
    try {
      createToolSearch(options as never);
    } catch (e) {
      error = e;
    }
    expect(ToolSearchError.isInstance(error)).toBe(true);
    expect(error).toBeInstanceOf(ToolSearchError);
    const message = (error as Error).message;
    expect(message).toContain(`"${path}"`);
    expect(message).toMatch(/^\[tool-search-layer\] createToolSearch: invalid option/);
    if (reason) expect(message).toContain(reason);
  });

  it('rejects options that are not an object', () => {
    expect(() => createToolSearch(42 as never)).toThrow(ToolSearchError);
  });

  it('switches the model-facing texts by locale (zh loaded with the first call), and overrides single texts', async () => {
    const layer = createToolSearch({ locale: 'zh', logger: { warn: () => {} } });
    const round = await layer.prepare({ sessionId: 's', tools: catalogue });
    expect(layer.options.texts).toEqual(zh);
    expect(round.tools[0]?.description).toMatch(/工具/);
    const custom = createToolSearch({ locale: 'zh', texts: { hintNone: 'nothing here' } });
    expect(custom.options.texts.hintNone).toBe('nothing here');
    expect(custom.options.texts.description).toBe(zh.description);
    expect(Object.isFrozen(custom.options.texts)).toBe(true);
  });

  it('gives both locales the same keys and fills every placeholder the layer uses', () => {
    expect(Object.keys(zh).sort()).toEqual(Object.keys(locales.en).sort());
    for (const texts of [locales.en, zh]) {
      // found and count are the result's own fields: the hint says what to do next, and where the next page starts.
      expect(texts.hintFound).not.toMatch(/^\s*$/);
      expect(texts.hintMore).toContain('{nextOffset}');
      expect(texts.namesMoreGroups).toContain('{groups}');
    }
  });

  it('does not mutate or keep a reference to the caller options', () => {
    const direct = ['web_search'];
    const options = Object.freeze({ alwaysDirectTools: Object.freeze(direct) });
    const layer = createToolSearch(options);
    expect(layer.options.alwaysDirectTools).toEqual(['web_search']);
    expect(layer.options.alwaysDirectTools).not.toBe(direct);
  });

  it('validates the memory store bounds too', () => {
    expect(() => createMemoryStore({ maxSessions: 0 })).toThrow(
      /createMemoryStore: invalid option "maxSessions": must be 1 or more/,
    );
    expect(() => createMemoryStore({ idleTimeoutMs: -1 })).toThrow(/"idleTimeoutMs"/);
    expect(() => createMemoryStore({ ttl: 5 } as never)).toThrow(/"ttl": is not an option/);
  });

  it('recognises its errors across bundle copies by a registered symbol', () => {
    const foreign = Object.assign(new Error('x'), { [Symbol.for('tool-search-layer.error')]: true });
    expect(ToolSearchError.isInstance(foreign)).toBe(true);
    expect(ToolSearchError.isInstance(new Error('x'))).toBe(false);
    expect(ToolSearchError.isInstance(null)).toBe(false);
  });
});
