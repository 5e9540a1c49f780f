// Gemini's function declarations: the JSON Schema subset `parametersJsonSchema` takes, and Gemini's name rule.
// A declaration sent is never the caller's object (the SDK rewrites `parameters` in place), and a schema is
// only ever loosened for Gemini: the layer validates the model's arguments against the original schema.
import type { JsonSchema } from '../../base/types.ts';

/** Gemini's rule for a function name: a letter or `_` first, then letters, digits, `_ . : -`, 128 at most. */
export const GEMINI_NAME: RegExp = /^[A-Za-z_][A-Za-z0-9_.:-]{0,127}$/;

/** The keywords Gemini reads in `parametersJsonSchema`; any other is left out of what is sent. */
const KEPT = new Set([
  '$id',
  '$defs',
  '$ref',
  '$anchor',
  'type',
  'format',
  'title',
  'description',
  'enum',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'anyOf',
  'properties',
  'additionalProperties',
  'required',
  'propertyOrdering',
  // Keywords of Gemini's own Schema type, which it reads in JSON Schema too.
  'default',
  'pattern',
  'minLength',
  'maxLength',
  'minProperties',
  'maxProperties',
  'nullable',
  'example',
]);

/** A schema as Gemini takes it, and what was changed to get there (empty when it is sent as it is). */
export interface GeminiSchema {
  readonly schema: Record<string, unknown>;
  readonly changes: readonly string[];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The schema Gemini gets for a tool's parameters, or a reason it cannot take one. The root must describe an
 * object. Converted: `oneOf` to `anyOf`; `const` to a one-value `enum`; enum values other than strings and
 * numbers left out; an array-form `items` to `prefixItems`; `definitions` to `$defs` (and their `$ref`s);
 * `true` sub-schemas to `{}`, `false` properties left out; every other keyword Gemini does not read is left out.
 */
export function geminiSchema(parameters: JsonSchema | null | undefined): GeminiSchema | { readonly refused: string } {
  if (parameters === undefined || parameters === null)
    return { schema: { type: 'object', properties: {} }, changes: [] };
  if (!isObject(parameters)) return { refused: 'its parameters are not a JSON Schema object' };
  const type = parameters.type;
  if (type !== undefined && type !== 'object')
    return { refused: `its parameters are of type ${JSON.stringify(type)}, not an object` };
  const changes = new Set<string>();
  const schema = convert(parameters, changes) as Record<string, unknown>;
  if (type === undefined) schema.type = 'object';
  return { schema: changes.size === 0 && type !== undefined ? parameters : schema, changes: [...changes] };
}

function schemaMap(value: unknown, changes: Set<string>, where: string): Record<string, unknown> | undefined {
  if (!isObject(value)) {
    changes.add(`${where} that is not an object left out`);
    return undefined;
  }
  const out: Record<string, unknown> = {};
  for (const [key, sub] of Object.entries(value)) {
    if (sub === false) {
      changes.add('false sub-schema left out');
      continue;
    }
    out[key] = convert(sub, changes);
  }
  return out;
}

function convert(node: unknown, changes: Set<string>): unknown {
  if (node === true) {
    changes.add('true sub-schema as {}');
    return {};
  }
  if (!isObject(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    switch (key) {
      case 'properties':
      case '$defs':
      case 'definitions': {
        const map = schemaMap(value, changes, key);
        if (key === 'definitions') changes.add('definitions as $defs');
        if (map) out[key === 'definitions' ? '$defs' : key] = map;
        break;
      }
      case 'items':
        if (Array.isArray(value)) {
          changes.add('array items as prefixItems');
          out.prefixItems = value.map((item) => convert(item, changes));
        } else out.items = convert(value, changes);
        break;
      case 'prefixItems':
      case 'anyOf':
      case 'oneOf':
        if (!Array.isArray(value)) break;
        if (key === 'oneOf') changes.add('oneOf as anyOf');
        out[key === 'oneOf' ? 'anyOf' : key] = value.map((item) => convert(item, changes));
        break;
      case 'additionalProperties':
        out[key] = typeof value === 'boolean' ? value : convert(value, changes);
        break;
      case 'const':
        if (typeof value === 'string' || typeof value === 'number') {
          changes.add('const as enum');
          out.enum = [value];
        } else changes.add('const left out');
        break;
      case 'enum': {
        const values = Array.isArray(value) ? value.filter((v) => typeof v === 'string' || typeof v === 'number') : [];
        if (!Array.isArray(value) || values.length !== value.length)
          changes.add('enum values other than strings and numbers left out');
        if (values.length > 0) out.enum = values;
        break;
      }
      case '$ref':
        if (typeof value === 'string' && value.startsWith('#/definitions/')) {
          changes.add('definitions as $defs');
          out.$ref = `#/$defs/${value.slice('#/definitions/'.length)}`;
        } else out.$ref = value;
        break;
      default:
        if (KEPT.has(key)) out[key] = value;
        else changes.add(`"${key}" left out`);
    }
  }
  return out;
}
