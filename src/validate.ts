// Turns the first valibot issue into a ToolSearchError that names the path and the reason.
import * as v from 'valibot';
import { ToolSearchError } from './errors.ts';

/** Parses options with a schema; throws ToolSearchError ("<where>: invalid option "path": reason"). */
export function parseOptions<const TSchema extends v.GenericSchema>(
  schema: TSchema,
  input: unknown,
  where: string,
): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, input ?? {});
  if (result.success) return result.output;
  const issue = result.issues[0];
  const path = v.getDotPath(issue);
  const received = issue.received === undefined ? '' : ` (received ${issue.received})`;
  const subject = path ? `invalid option "${path}"` : 'invalid options';
  throw new ToolSearchError(`${where}: ${subject}: ${issue.message}${received}`);
}

type Count = v.OptionalSchema<
  v.SchemaWithPipe<
    readonly [v.NumberSchema<undefined>, v.IntegerAction<number, string>, v.MinValueAction<number, number, string>]
  >,
  number
>;

/** A non-negative integer option (or, with `min`, at least `min`) with its default. */
export function count(fallback: number, min = 0): Count {
  const reason = min === 0 ? 'must be 0 or more' : `must be ${min} or more`;
  return v.optional(v.pipe(v.number(), v.integer('must be an integer'), v.minValue(min, reason)), fallback);
}
