// Schema patterns come from a third-party catalogue and the strings they are matched against from a model,
// so a catastrophic pattern must not block the event loop (SPEC 12). Each hostile case below needs about
// 2^40 steps of a backtracking engine, hours of CPU: the old validator never answered them. This suite also
// runs inside workerd.
import { createToolSearch, type JsonSchema, type Tool } from 'tool-search-layer';
import { describe, expect, it } from 'vitest';
import { recordingLogger } from './fixtures.ts';

async function call(parameters: JsonSchema, args: unknown, logger = recordingLogger()) {
  const tool: Tool = { name: 'target', description: 'The tool under test', parameters };
  const filler = Array.from({ length: 6 }, (_, i) => ({ name: `filler_${i}`, description: 'Filler' }));
  const layer = createToolSearch({ logger, exposure: 'bridge', alwaysDirectTools: ['target'] });
  return layer.callTool({ sessionId: 's', tools: [tool, ...filler] }, { name: 'target', arguments: args });
}

const errorOf = async (parameters: JsonSchema, args: unknown): Promise<string> => {
  const result = await call(parameters, args);
  if (result.ok) throw new Error('expected the arguments to be refused');
  return result.result.error;
};

const hostile = 'a'.repeat(40);

describe('callTool: schema patterns in linear time', () => {
  it('answers a catastrophic `pattern` at once, with the right verdict', async () => {
    const schema = { type: 'object', properties: { id: { type: 'string', pattern: '^(a+)+$' } } };
    expect(await errorOf(schema, { id: `${hostile}!` })).toContain('arguments.id: String does not match pattern.');
    expect(await call(schema, { id: hostile })).toMatchObject({ ok: true });
  });

  it('answers a catastrophic `patternProperties` key at once', async () => {
    const schema = {
      type: 'object',
      patternProperties: { '^(x+x+)+y$': { type: 'number' } },
      additionalProperties: false,
    };
    expect(await errorOf(schema, { [`${'x'.repeat(40)}`]: 1 })).toContain('is not allowed');
    expect(await errorOf(schema, { xxy: 'one' })).toContain('arguments.xxy: type "string" is invalid');
    expect(await call(schema, { xxy: 1, [`${'x'.repeat(40)}y`]: 2 })).toMatchObject({ ok: true });
  });

  it('answers a catastrophic `propertyNames` pattern at once', async () => {
    const schema = { type: 'object', propertyNames: { pattern: '^(a|aa)+$' } };
    expect(await errorOf(schema, { [`${hostile}b`]: 1 })).toContain('does not match pattern');
    expect(await call(schema, { [hostile]: 1 })).toMatchObject({ ok: true });
  });

  it('keeps the meaning of ordinary ECMAScript patterns', async () => {
    const schema = {
      type: 'object',
      properties: {
        date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
        word: { type: 'string', pattern: '^\\p{L}+$' },
        named: { type: 'string', pattern: '^(?<year>\\d{4})$' },
        slash: { type: 'string', pattern: '^a\\/b$' },
        emoji: { type: 'string', pattern: '^\\u{1F600}$' },
        part: { type: 'string', pattern: 'needle' },
      },
    };
    const good = {
      date: '2026-12-05',
      word: 'Zürich',
      named: '2026',
      slash: 'a/b',
      emoji: '😀',
      part: 'a needle here',
    };
    expect(await call(schema, good)).toMatchObject({ ok: true });
    for (const [key, value] of Object.entries({ date: '2026-1-5', word: 'a1', named: '26', slash: 'ab', part: 'x' })) {
      expect(await errorOf(schema, { ...good, [key]: value })).toContain(`arguments.${key}: String does not match`);
    }
  });

  it('refuses, with a corrective result, a pattern that cannot be matched in linear time', async () => {
    const logger = recordingLogger();
    const schema = {
      type: 'object',
      properties: { password: { type: 'string', pattern: '^(?=.*\\d)(a+)+$' }, note: { type: 'string' } },
    };
    const refused = await call(schema, { password: `${hostile}!` }, logger);
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.result).toMatchObject({ notCalled: 'target' });
    expect(refused.result.error).toMatch(/"target" was not called: its arguments could not be checked/);
    expect(refused.result.error).toContain('^(?=.*\\d)(a+)+$');
    await call(schema, { password: 'x' }, logger);
    expect(logger.lines).toEqual([expect.stringMatching(/"target".*pattern .*cannot be matched in linear time/)]);
    // The pattern is only refused where it applies: without the argument the call runs.
    expect(await call(schema, { note: 'hi' })).toMatchObject({ ok: true });
  });

  it('leaves the global RegExp as it found it', async () => {
    const before = globalThis.RegExp;
    await call({ type: 'object', properties: { a: { type: 'string', pattern: '^(?=x)' } } }, { a: 'x' });
    await call({ type: 'object', properties: { a: { type: 'string', pattern: '(' } } }, { a: 'x' });
    expect(globalThis.RegExp).toBe(before);
    expect(/^(a+)$/.test('aa')).toBe(true);
  });
});
