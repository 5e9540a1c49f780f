// Checks a bridged call's arguments against the tool's JSON Schema, with a validator that runs in Workers
// (@cfworker/json-schema interprets schemas: no eval, no new Function).
import { type OutputUnit, type SchemaDraft, Validator } from '@cfworker/json-schema';
import type { JsonSchema } from '../base/types.ts';
import { RefusedPattern, withLinearRegExp } from './linear-regexp.ts';

/**
 * The outcome of a check: valid, invalid with the problems said concisely, refused (an argument meets a pattern
 * that cannot be matched in linear time), or not checkable (a broken schema).
 */
export type ArgsCheck =
  | { readonly valid: true }
  | { readonly valid: false; readonly problems: string }
  | { readonly valid: 'refused'; readonly pattern: string; readonly first: boolean }
  | {
      readonly valid: 'unchecked';
      readonly reason: string /** The first time this schema was found unusable. */;
      readonly first: boolean;
    };

/** Problems named in a corrective result; the rest are counted. */
const SHOWN_PROBLEMS = 3;
/** Compiled validators kept, by schema object: a catalogue's worth of recently called tools. */
const VALIDATORS_KEPT = 256;
const validators = new Map<object, Validator | Error>();
const reported = new WeakSet<object>();

/** The draft a schema declares; MCP's own default, 2020-12, when it declares none. */
function draftOf(schema: JsonSchema): SchemaDraft {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (declared.includes('draft-04')) return '4';
  if (declared.includes('draft-06') || declared.includes('draft-07')) return '7';
  if (declared.includes('2019-09')) return '2019-09';
  return '2020-12';
}

/**
 * The validator of a schema, compiled once. It works on a copy: compiling marks the schema objects it is given,
 * and the layer never changes the caller's tools (a frozen schema would throw).
 */
function validatorOf(schema: JsonSchema): Validator | Error {
  let validator = validators.get(schema);
  if (validator) {
    validators.delete(schema);
  } else {
    try {
      validator = new Validator(JSON.parse(JSON.stringify(schema)), draftOf(schema), false);
    } catch (error) {
      validator = error instanceof Error ? error : new Error(String(error));
    }
    if (validators.size >= VALIDATORS_KEPT) validators.delete(validators.keys().next().value as object);
  }
  validators.set(schema, validator);
  return validator;
}

/** Checks arguments against a tool's `parameters`; a tool without a schema takes any object. */
export function checkArguments(parameters: JsonSchema | null | undefined, args: object): ArgsCheck {
  if (parameters === null || parameters === undefined || typeof parameters !== 'object') return { valid: true };
  const validator = validatorOf(parameters);
  if (validator instanceof Error) return unchecked(parameters, validator);
  let errors: OutputUnit[];
  try {
    const result = withLinearRegExp(() => (validator as Validator).validate(args));
    if (result.valid) return { valid: true };
    errors = result.errors;
  } catch (error) {
    if (error instanceof RefusedPattern)
      return { valid: 'refused', pattern: error.pattern, first: firstReport(parameters) };
    // An unresolvable $ref or a pattern that is not a regular expression is found only while validating.
    return unchecked(parameters, error);
  }
  return { valid: false, problems: problemsOf(errors) };
}

function firstReport(schema: object): boolean {
  const first = !reported.has(schema);
  reported.add(schema);
  return first;
}

function unchecked(schema: object, error: unknown): ArgsCheck {
  const reason = error instanceof Error ? error.message : String(error);
  return { valid: 'unchecked', reason, first: firstReport(schema) };
}

/** The leaf errors (the ones no deeper error explains), as `arguments.path: reason`, at most SHOWN_PROBLEMS. */
function problemsOf(errors: readonly OutputUnit[]): string {
  const leaves = errors.filter(
    (error, i) =>
      error.keyword !== 'false' &&
      !errors.some((other, j) => j !== i && other.keyword !== 'false' && isBelow(other, error)),
  );
  const lines = [...new Set(leaves.map(line))];
  const shown = lines.slice(0, SHOWN_PROBLEMS).join(' ');
  return lines.length > SHOWN_PROBLEMS ? `${shown} (+${lines.length - SHOWN_PROBLEMS} more)` : shown;
}

const isBelow = (inner: OutputUnit, outer: OutputUnit): boolean =>
  inner.keywordLocation.startsWith(`${outer.keywordLocation}/`);

function line(error: OutputUnit): string {
  const reason = error.error
    .replace(/^Instance /, '')
    .replace(
      /^Property ("[^"]*") does not match additional properties schema\.$/,
      '$1 is not allowed (additionalProperties: false).',
    );
  return `${pathOf(error.instanceLocation)}: ${reason}`;
}

/** `#/tags/0/name` as `arguments.tags[0].name`. */
function pathOf(pointer: string): string {
  const parts = pointer
    .replace(/^#\/?/, '')
    .split('/')
    .filter((part) => part !== '');
  let path = 'arguments';
  for (const raw of parts) {
    const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    path += /^\d+$/.test(part)
      ? `[${part}]`
      : /^[A-Za-z_$][\w$]*$/.test(part)
        ? `.${part}`
        : `[${JSON.stringify(part)}]`;
  }
  return path;
}
