// The `semantic` option from a Cloudflare Workers AI binding: `env.AI.run(model, { text })` answers `{ shape, data }`
// for every text embedding model of its catalogue (bge-small, bge-base, bge-large, bge-m3, embeddinggemma, qwen3).
import type { Embed, SemanticOptions } from '../options.ts';

/** What the layer needs of a Workers AI binding (`env.AI`): `run` with an embedding model and texts. */
export interface WorkersAiBinding {
  run(model: string, inputs: { text: string[]; pooling?: 'mean' | 'cls' }): Promise<unknown>;
}

/** How workersAiEmbed calls the model. */
export interface WorkersAiEmbedOptions {
  /** The model's pooling (bge models): `cls` is more accurate, `mean` their default; part of the vectors' name. */
  readonly pooling?: 'mean' | 'cls';
  /** Names the vectors in the store; change it when the model's vectors change. Default the model id (and pooling). */
  readonly name?: string;
}

/** The vectors of an answer: `data` (every embedding model), or `response` (bge-m3 asked with contexts). */
function vectorsOf(answer: unknown, count: number, model: string): number[][] {
  const { data, response } = (answer ?? {}) as { data?: unknown; response?: unknown };
  const vectors = Array.isArray(data) ? data : response;
  if (!Array.isArray(vectors) || vectors.length !== count) {
    throw new Error(`Workers AI ${model} answered without ${count} embeddings (expected { shape, data })`);
  }
  return vectors as number[][];
}

/**
 * The `semantic` option over a Workers AI text embedding model. `binding` is `env.AI`, or a function that returns
 * the current request's binding for a layer created once; the model id names the vectors, so every isolate over the
 * same store shares them.
 * @example createToolSearch({ store, semantic: workersAiEmbed(env.AI, '@cf/baai/bge-small-en-v1.5') })
 */
/* @__NO_SIDE_EFFECTS__ */
export function workersAiEmbed(
  binding: WorkersAiBinding | (() => WorkersAiBinding),
  model: string,
  options: WorkersAiEmbedOptions = {},
): SemanticOptions & { readonly model: string } {
  const { pooling } = options;
  const embed: Embed = async (texts) => {
    const ai = typeof binding === 'function' ? binding() : binding;
    const answer = await ai.run(model, pooling ? { text: texts, pooling } : { text: texts });
    return vectorsOf(answer, texts.length, model);
  };
  return { embed, model: options.name ?? (pooling ? `${model}:${pooling}` : model) };
}
