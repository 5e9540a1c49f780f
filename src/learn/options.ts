// The `learn` option as the core entry knows it: types, schema and defaults, without the learner, which
// createToolSearch loads (its own chunk) only when the option is on.
import * as v from 'valibot';
import { count } from '../base/validate.ts';

/** How the layer learns from its own sessions: which tool the model called after which search. */
export interface LearnOptions {
  /** The sessions that share what is learned (an app, a tenant): one layer learns into one scope. Default 'default'. */
  readonly scope?: string;
  /** How much learned credit weighs against the keyword rank (the top keyword result weighs 1). Default 12, chosen under leave-one-set-out (docs/ranking.md). */
  readonly weight?: number;
  /** Learned credit halves after this many sessions have added to the scope, so newer use outweighs older. Default 5,000. */
  readonly halfLife?: number;
  /** Most tools kept per query term, the strongest first; a search reads the first 12 of them at most. Default 32. */
  readonly maxToolsPerTerm?: number;
  /** Most bytes of JSON the scope's credits take in the store, over 32 shards of at most 90 KB each; the terms searched least of late go first. Default 2,000,000. */
  readonly maxBytes?: number;
  /** Most bytes of JSON the memory of past requests (their terms hashed, the tools they used together) takes in the store, in pages of at most 90 KB, the oldest going first; 0 turns the memory off. Default 2,000,000. */
  readonly memoryBytes?: number;
  /** How much the most similar past requests' vote weighs against the keyword rank (the top keyword result weighs 1); the memory scales its vote by how often it was right, so it stays quiet where requests do not recur. Default 32, chosen under leave-one-set-out (docs/ranking.md). */
  readonly memoryWeight?: number;
  /** How much the vote of the tool sets the request most resembles (every tool of each, together) weighs against the keyword rank; the sets are the memory's requests grouped by the tools each used, scaled by how often they were right, and 0 turns them off. Default 32, chosen under leave-one-set-out (docs/ranking.md). */
  readonly setWeight?: number;
  /** How much the vote of a model trained on the memory's requests (a softmax over their tools, by their words, trained in the background) weighs against the keyword rank, scaled by how often it names what requests it never trained on used; 0 turns it off. Default 128, chosen under leave-one-set-out (docs/ranking.md). */
  readonly modelWeight?: number;
}

/** The learn option with its defaults applied. */
export interface ResolvedLearn {
  readonly scope: string;
  readonly weight: number;
  readonly halfLife: number;
  readonly maxToolsPerTerm: number;
  readonly maxBytes: number;
  readonly memoryBytes: number;
  readonly memoryWeight: number;
  readonly setWeight: number;
  readonly modelWeight: number;
}

/** The memory's default weight, chosen under leave-one-set-out (docs/ranking.md). */
export const MEMORY_WEIGHT = 32;

/** The trained model's default weight, chosen under leave-one-set-out (bench/TUNING.md). */
export const MODEL_WEIGHT = 128;

/** The tool sets' default weight, chosen under leave-one-set-out (docs/ranking.md). */
export const SET_WEIGHT = 32;

const settings = v.strictObject(
  {
    scope: v.optional(v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty')), 'default'),
    weight: v.optional(
      v.pipe(v.number('must be a number'), v.finite('must be finite'), v.minValue(0, 'must be 0 or more')),
      12,
    ),
    halfLife: count(5000, 1),
    maxToolsPerTerm: count(32, 1),
    maxBytes: count(2_000_000, 32_000),
    memoryBytes: v.optional(
      v.pipe(
        v.number('must be a number'),
        v.integer('must be a whole number'),
        v.check((x) => x === 0 || x >= 16_000, 'must be 0 (off) or 16000 or more'),
      ),
      2_000_000,
    ),
    memoryWeight: v.optional(
      v.pipe(v.number('must be a number'), v.finite('must be finite'), v.minValue(0, 'must be 0 or more')),
      MEMORY_WEIGHT,
    ),
    setWeight: v.optional(
      v.pipe(v.number('must be a number'), v.finite('must be finite'), v.minValue(0, 'must be 0 or more')),
      SET_WEIGHT,
    ),
    modelWeight: v.optional(
      v.pipe(v.number('must be a number'), v.finite('must be finite'), v.minValue(0, 'must be 0 or more')),
      MODEL_WEIGHT,
    ),
  },
  'is not a learn option',
);

/** The valibot schema of the `learn` option: false or absent is off, true is the defaults. */
export const learnSchema: v.GenericSchema<unknown, ResolvedLearn | undefined> = v.pipe(
  v.optional(
    v.union([v.boolean(), v.record(v.string(), v.unknown())], 'must be true, false or an object of learn options'),
    false,
  ),
  v.transform((value) => (value === true ? {} : value === false ? undefined : value)),
  v.optional(settings),
  v.transform((value) => value && Object.freeze(value)),
);
