// The `semantic` option as the core entry knows it: types, schema and the public bounds, without the ranker,
// which createToolSearch loads (its own chunk) only when the option is set.
import * as v from 'valibot';
import { count } from '../base/validate.ts';

/** Texts per `embed` call when tools are embedded: small enough for every hosted embedding API's batch limit. */
export const EMBED_BATCH = 64;
/** Tool vectors kept module-wide, least recently used dropped first (about 15 MB at 384 dimensions). */
export const MAX_TOOL_VECTORS = 10_000;
/**
 * One vector per text, in order, or null for a text the model cannot embed (another language, say): a query it
 * abstains on is ranked by keywords alone, a tool it abstains on keeps its keyword rank. `kind` lets asymmetric
 * models prefix queries and documents differently.
 */
export type Embed = (
  texts: string[],
  kind: 'tool' | 'query',
) => Promise<readonly (readonly number[] | Float32Array | null)[]>;

/** The `semantic` option: the host's embedding function and how much its ranking counts. */
export interface SemanticOptions {
  /** Embeds texts (tools in batches of up to 64, or one query); no model is bundled and nothing is fetched by the library. */
  readonly embed: Embed;
  /**
   * How far a tool the model puts far out of the catalogue (4.5 or more deviations above the query's mean similarity)
   * is lifted, as a share of the built-in ranking's top score, scaled by the model's agreement with the keywords on the
   * query. Default 1 (fitted by leave one set out so that a weak model costs no set more than 0.5 points).
   */
  readonly weight?: number;
  /** Cosine similarity from which a tool joins the result set without a keyword match (and 5 deviations above the query's mean, where the keywords found something). Default 0.5. */
  readonly minSimilarity?: number;
  /** How long a search waits for `embed` before answering with the built-in ranking alone. Default 2,000 ms. */
  readonly timeoutMs?: number;
  /** Names the model for the vector cache, so a per-request `embed` (a Worker's `env.AI`) shares vectors. Default: the identity of `embed`. */
  readonly model?: string;
}

/** The semantic option with its defaults applied. */
export interface ResolvedSemantic {
  readonly embed: Embed;
  readonly weight: number;
  readonly minSimilarity: number;
  readonly timeoutMs: number;
  readonly model: string | undefined;
}

/** The valibot schema of the `semantic` option (its output keeps `model` optional). */
export const semanticSchema: v.GenericSchema<
  unknown,
  (Omit<ResolvedSemantic, 'model'> & { readonly model?: string | undefined }) | undefined
> = v.optional(
  v.strictObject(
    {
      embed: v.custom<Embed>((value) => typeof value === 'function', 'must be a function'),
      weight: v.optional(
        v.pipe(v.number('must be a number'), v.finite('must be finite'), v.minValue(0, 'must be 0 or more')),
        1,
      ),
      minSimilarity: v.optional(
        v.pipe(v.number('must be a number'), v.minValue(-1, 'must be -1 or more'), v.maxValue(1, 'must be 1 or less')),
        0.5,
      ),
      timeoutMs: count(2000, 1),
      model: v.optional(v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'))),
    },
    'is not an option',
  ),
);
