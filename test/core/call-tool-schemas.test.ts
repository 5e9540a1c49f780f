// The bridge's validator (@cfworker/json-schema) on the schemas tools carry: drafts, $ref, anyOf, enum,
// additionalProperties, and the shapes MCP servers and SDKs send. This suite also runs inside workerd.
import { createToolSearch, type JsonSchema, type Tool } from 'tool-search-layer';
import { describe, expect, it } from 'vitest';
import { recordingLogger } from './fixtures.ts';

/** Calls a one-tool catalogue (plus filler so the layer is not bypassed) with `args`; the tool is direct. */
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

const draft07 = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: { owner: { $ref: '#/definitions/user' }, labels: { type: 'array', items: { type: 'string' } } },
  required: ['owner'],
  additionalProperties: false,
  definitions: {
    user: { type: 'object', properties: { login: { type: 'string', minLength: 1 } }, required: ['login'] },
  },
};

const draft2020 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    point: { $ref: '#/$defs/point' },
    unit: { enum: ['c', 'f'] },
    limit: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }] },
  },
  required: ['point'],
  $defs: { point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false } },
};

// What the MCP TypeScript SDK sends for a zod schema (zod-to-json-schema output, as server-everything lists it).
const mcpZod = {
  type: 'object',
  properties: {
    a: { type: 'number', description: 'First number' },
    mode: { type: 'string', enum: ['fast', 'slow'], default: 'fast' },
    when: { type: 'string', format: 'date-time' },
  },
  required: ['a'],
  additionalProperties: false,
  $schema: 'http://json-schema.org/draft-07/schema#',
};

describe('callTool: argument validation', () => {
  it('follows draft-07 $ref into definitions, with additionalProperties', async () => {
    expect(await call(draft07, { owner: { login: 'ada' }, labels: ['bug'] })).toMatchObject({ ok: true });
    expect(await errorOf(draft07, { owner: { login: '' } })).toContain('arguments.owner.login: String is too short');
    expect(await errorOf(draft07, { owner: { login: 'a' }, extra: 1 })).toContain('"extra" is not allowed');
    expect(await errorOf(draft07, { labels: [3] })).toMatch(/required property "owner".*arguments\.labels\[0\]/);
  });

  it('follows 2020-12 $defs, prefixItems, enum and anyOf', async () => {
    expect(await call(draft2020, { point: [1, 2], unit: 'c', limit: null })).toMatchObject({ ok: true });
    expect(await call(draft2020, { point: [1, 2], limit: 3 })).toMatchObject({ ok: true });
    expect(await errorOf(draft2020, { point: [1, 2], unit: 'k' })).toContain(
      'arguments.unit: does not match any of ["c","f"]',
    );
    expect(await errorOf(draft2020, { point: [1, 2], limit: 0 })).toContain('arguments.limit');
    expect(await errorOf(draft2020, { point: [1, 2, 3] })).toContain('arguments.point');
  });

  it('takes the schemas MCP servers send, formats included', async () => {
    expect(await call(mcpZod, { a: 1, mode: 'slow', when: '2026-12-03T10:00:00Z' })).toMatchObject({ ok: true });
    expect(await errorOf(mcpZod, { a: '1' })).toContain('arguments.a: type "string" is invalid. Expected "number".');
    expect(await errorOf(mcpZod, { a: 1, when: 'tomorrow' })).toContain('arguments.when');
    // MCP's `{ type: 'object' }` with no properties, and a tool with no schema at all, take any object.
    expect(await call({ type: 'object' }, { anything: [1] })).toMatchObject({ ok: true });
  });

  it('names at most three problems and counts the rest', async () => {
    const schema = {
      type: 'object',
      properties: Object.fromEntries(['a', 'b', 'c', 'd', 'e'].map((key) => [key, { type: 'string' }])),
    };
    const error = await errorOf(schema, { a: 1, b: 1, c: 1, d: 1, e: 1 });
    expect(error).toContain('(+2 more)');
  });

  it('never changes the caller’s schema, and works on a frozen one', async () => {
    const schema = structuredClone(draft07);
    const before = JSON.stringify(schema);
    const frozen = deepFreeze(structuredClone(draft07));
    expect(await call(frozen, { owner: { login: 'x' } })).toMatchObject({ ok: true });
    expect(await call(schema, { owner: { login: 'x' } })).toMatchObject({ ok: true });
    expect(JSON.stringify(schema)).toBe(before);
    expect(Object.getOwnPropertyNames(schema)).toEqual(Object.getOwnPropertyNames(draft07));
  });

  it('lets a call through, warning once, when the schema itself cannot be used', async () => {
    const logger = recordingLogger();
    const broken = { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } };
    expect(await call(broken, { a: 1 }, logger)).toMatchObject({ ok: true });
    expect(logger.lines).toEqual([expect.stringMatching(/parameters of "target" cannot be checked/)]);
  });
});

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
