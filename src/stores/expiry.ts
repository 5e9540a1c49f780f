// The ttlSeconds and now options shared by the stores that expire sessions in their own code (IndexedDB, Durable Objects).
import * as v from 'valibot';

/** A `ttlSeconds` option: a whole number of seconds, at least 1, or absent (never expire). */
export const ttlSchema: v.OptionalSchema<v.GenericSchema<number>, undefined> = v.optional(
  v.pipe(
    v.number('must be a number'),
    v.integer('must be an integer'),
    v.minValue(1, 'must be 1 or more'),
    // Past this the write time plus the age is no longer an exact millisecond count.
    v.maxValue(1e12, 'must be at most 1e12 seconds'),
  ),
);

/** A `now` option: a clock in milliseconds, for tests. */
export const clockSchema: v.OptionalSchema<v.GenericSchema<() => number>, undefined> = v.optional(
  v.custom<() => number>((value) => typeof value === 'function', 'must be a function returning milliseconds'),
);

/** Whether a session written at `written` (ms, undefined when unknown) is past its age at `time`. */
export function expired(written: unknown, ttlMs: number, time: number): boolean {
  // A session written before ttlSeconds was set carries no write time: it lives until its next write stamps it,
  // as a KV key written without an expiration does.
  return typeof written === 'number' && time - written >= ttlMs;
}
