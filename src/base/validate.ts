// Turns valibot issues into one ToolSearchError that names every invalid option, its path and the reason.
import * as v from 'valibot';
import { ToolSearchError } from './errors.ts';

// valibot's own type messages, "Invalid type: Expected boolean but received "yes"", read as our own reasons.
const EXPECTED: Readonly<Record<string, string>> = {
  boolean: 'true or false',
  number: 'a number',
  string: 'a string',
  Array: 'an array',
  Object: 'an object',
};

// Issues whose received value helps: a wrong type, a number out of range. A length or a key name would not.
const SHOWN = new Set(['min_value', 'max_value', 'integer', 'finite']);

/** One issue as `"path": reason (received value)`, the value shown only where it helps. */
function issueText(issue: v.BaseIssue<unknown>): string {
  const path = v.getDotPath(issue);
  let reason = issue.message;
  let shown = SHOWN.has(issue.type) || (issue.kind === 'schema' && issue.type !== 'custom');
  if (issue.type === 'strict_object' || issue.type === 'object') {
    // valibot reports a wrong type, a missing key and an unknown key all with the object's one message.
    if (issue.expected === 'Object') reason = 'must be an object';
    else if (issue.received === 'undefined') reason = 'is required';
    shown = issue.expected === 'Object';
  } else if (reason.startsWith('Invalid type:') && issue.expected !== null) {
    reason = `must be ${EXPECTED[issue.expected] ?? issue.expected}`;
  }
  // A class name such as Array or Object says nothing the reason does not; a value such as -1 or "fr" does.
  const value = issue.received;
  if ((value !== 'NaN' && /^[A-Z][a-z]/.test(value)) || reason.includes(value)) shown = false;
  return `${path ? `"${path}": ` : ''}${reason}${shown ? ` (received ${value})` : ''}`;
}

/**
 * Parses options with a schema; `undefined` is `{}`. Throws ToolSearchError naming every invalid option:
 * `<where>: invalid option "path": reason`, or `<where>: invalid options: "a": reason; "b": reason`.
 */
export function parseOptions<const TSchema extends v.GenericSchema>(
  schema: TSchema,
  input: unknown,
  where: string,
): v.InferOutput<TSchema> {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    if (input !== undefined) {
      const got = input === null ? 'null' : Array.isArray(input) ? 'an array' : `a ${typeof input}`;
      throw new ToolSearchError(`${where}: invalid options: expected an object or nothing, received ${got}`);
    }
  }
  const result = v.safeParse(schema, input ?? {});
  if (result.success) return result.output;
  const [first, ...more] = result.issues;
  if (more.length === 0 && v.getDotPath(first)) {
    throw new ToolSearchError(`${where}: invalid option ${issueText(first)}`);
  }
  throw new ToolSearchError(`${where}: invalid options: ${result.issues.map(issueText).join('; ')}`);
}

type Count = v.OptionalSchema<
  v.SchemaWithPipe<
    readonly [v.NumberSchema<string>, v.IntegerAction<number, string>, v.MinValueAction<number, number, string>]
  >,
  number
>;

/** A non-negative integer option (or, with `min`, at least `min`) with its default. */
export function count(fallback: number, min = 0): Count {
  const reason = min === 0 ? 'must be 0 or more' : `must be ${min} or more`;
  return v.optional(
    v.pipe(v.number('must be a number'), v.integer('must be an integer'), v.minValue(min, reason)),
    fallback,
  );
}
