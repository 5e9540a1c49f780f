// The `semantic` option from an AI SDK embedding model: one line for a host that already has one
// (`semantic: embedWith(openai.embedding('text-embedding-3-small'))`), its vectors shared across isolates by name.
import { embedMany } from 'ai';
import type { Embed, SemanticOptions } from '../../semantic/options.ts';

type EmbedManyOptions = Parameters<typeof embedMany>[0];
type ProviderOptions = NonNullable<EmbedManyOptions['providerOptions']>;

/** How embedWith calls `embedMany`. */
export interface EmbedWithOptions {
  /** Dimensions asked of the model, where it supports it (part of the vectors' name). Default: the model's own. */
  readonly dimensions?: number;
  /** Provider options per kind of text: asymmetric models take another task for queries (Google's `taskType`). */
  readonly providerOptions?: ProviderOptions | ((kind: 'tool' | 'query') => ProviderOptions);
  /** Retries per call. Default: the SDK's (2). */
  readonly maxRetries?: number;
  /** Names the vectors in the store; change it when the model's vectors change. Default `<provider>/<modelId>`. */
  readonly model?: string;
}

/** The name a model's vectors are kept under: a global-provider id as given, else `<provider>/<modelId>`. */
function nameOf(model: EmbedManyOptions['model'], dimensions: number | undefined): string {
  const base = typeof model === 'string' ? model : `${model.provider}/${model.modelId}`;
  return dimensions === undefined ? base : `${base}@${dimensions}`;
}

/**
 * The `semantic` option over an AI SDK embedding model: `embed` calls `embedMany`, and `model` names its vectors so
 * that every isolate over the same store shares them. Spread it to set the other semantic options.
 * @example createToolSearch({ store, semantic: embedWith(openai.embedding('text-embedding-3-small')) })
 */
/* @__NO_SIDE_EFFECTS__ */
export function embedWith(
  model: EmbedManyOptions['model'],
  options: EmbedWithOptions = {},
): SemanticOptions & { readonly model: string } {
  const { dimensions, providerOptions, maxRetries } = options;
  const embed: Embed = async (texts, kind) => {
    const { embeddings } = await embedMany({
      model,
      values: texts,
      ...(dimensions !== undefined && { dimensions }),
      ...(maxRetries !== undefined && { maxRetries }),
      ...(providerOptions && {
        providerOptions: typeof providerOptions === 'function' ? providerOptions(kind) : providerOptions,
      }),
    });
    return embeddings;
  };
  return { embed, model: options.model ?? nameOf(model, dimensions) };
}
