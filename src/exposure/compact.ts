// Compact search results ('tools' mode only): the full definition reaches the model in the next round's tools
// anyway, so a search shows a one-line parameter summary instead of paying for the schema twice.

import type { JsonSchema } from '../base/types.ts';
import type { FoundTool, SearchResult } from '../core/search-tool.ts';
import type { Texts } from '../core/texts.ts';
import type { ExposureSettings } from './mode.ts';
import { bridgeTexts, textsWith } from './texts.ts';

/** A tool as a compact search returns it: `parameters` is a one-line summary such as `city: string, days?: integer`. */
export interface CompactFoundTool extends FoundTool {
  readonly parameters: string;
}

/** A search result whose tools are compact. */
export interface CompactSearchResult extends Omit<SearchResult, 'tools'> {
  readonly tools: readonly CompactFoundTool[];
}

/** The longest summary; past it whole parameters are dropped for "…". */
const SUMMARY_CHARS = 240;
const ENUM_SHOWN = 5;

const textsByLayer = new WeakMap<ExposureSettings, () => Texts>();

/** A layer's texts for compact searches: the hint says the definitions come with the next step. */
export function compactTexts(options: ExposureSettings): Texts {
  let texts = textsByLayer.get(options);
  if (!texts) {
    const hint = bridgeTexts(options.texts, options.locale).compactHintFound;
    texts = textsWith(options.texts, () => ({ hintFound: hint }));
    textsByLayer.set(options, texts);
  }
  return texts();
}

/** Turns a full search result into a compact one. */
export function compactResult(result: SearchResult): CompactSearchResult {
  return {
    ...result,
    tools: result.tools.map((tool) => ({ ...tool, parameters: summarize(tool.parameters) })),
  };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `name: type` per property, `?` for the optional ones, in the schema's order; '' for none. */
export function summarize(schema: JsonSchema | string | null | undefined): string {
  if (typeof schema === 'string') return schema;
  const properties = isObject(schema?.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema?.required) ? schema.required : []);
  let line = '';
  for (const [name, property] of Object.entries(properties)) {
    const part = `${name}${required.has(name) ? '' : '?'}: ${typeOf(property, 0)}`;
    const next = line ? `${line}, ${part}` : part;
    if (next.length > SUMMARY_CHARS) return `${line}, …`;
    line = next;
  }
  return line;
}

/** A short type: `string`, `integer[]`, `"c"|"f"`, `string|null`; `any` when the schema says nothing. */
function typeOf(schema: unknown, depth: number): string {
  if (!isObject(schema) || depth > 2) return 'any';
  if (Array.isArray(schema.enum)) {
    const values = schema.enum.slice(0, ENUM_SHOWN).map((value) => JSON.stringify(value));
    return schema.enum.length > ENUM_SHOWN ? `${values.join('|')}|…` : values.join('|');
  }
  if ('const' in schema) return JSON.stringify(schema.const);
  const union = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(union)) return [...new Set(union.map((member) => typeOf(member, depth + 1)))].join('|');
  if (typeof schema.$ref === 'string') return schema.$ref.split('/').pop() || 'object';
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const named = types.filter((type): type is string => typeof type === 'string');
  if (named.length === 0) return isObject(schema.properties) ? 'object' : 'any';
  return named.map((type) => (type === 'array' ? `${typeOf(schema.items, depth + 1)}[]` : type)).join('|');
}
