// Request bodies checked against OpenAI's published OpenAPI schemas (test/fixtures/openai-request-schemas.json,
// extracted by scripts/openai-schemas.mjs), with the JSON Schema validator the bridge uses.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@cfworker/json-schema';
import { expect } from 'vitest';

const file = join(import.meta.dirname, '..', 'fixtures', 'openai-request-schemas.json');
const document = JSON.parse(readFileSync(file, 'utf8')) as { components: unknown };
const validators = new Map<string, Validator>();

/** The request schemas the tests validate against. */
export type RequestSchema = 'CreateChatCompletionRequest' | 'CreateResponse';

/** Fails the test, naming each violation, when `body` does not match OpenAI's published schema. */
export function expectValidRequest(schema: RequestSchema, body: unknown): void {
  let validator = validators.get(schema);
  if (!validator) {
    const root = { $ref: `#/components/schemas/${schema}`, components: document.components };
    validator = new Validator(root as never, '2020-12', false);
    validators.set(schema, validator);
  }
  const result = validator.validate(body);
  const errors = result.errors.map((error) => `${error.instanceLocation}: ${error.error}`);
  expect(errors, `${schema}: ${JSON.stringify(body).slice(0, 200)}`).toEqual([]);
}
