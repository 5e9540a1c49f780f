// The baseline a user could build in an afternoon: wink-bm25-text-search over the split name (weight 3), the
// description (1) and the parameter text (0.5), with wink-nlp-utils' lowerCase, tokenize0, removeWords and stem,
// and a query's repeated tokens counted once.
import bm25 from 'wink-bm25-text-search';
import nlp from 'wink-nlp-utils';
import type { BenchTool } from '../data.ts';
import { nameWords } from './name-words.ts';
import type { Peer } from './peer.ts';

const prepTasks = [nlp.string.lowerCase, nlp.string.tokenize0, nlp.tokens.removeWords, nlp.tokens.stem];
const once = (tokens: string[]): string[] => [...new Set(tokens)];

/** Every parameter name (split into words) and description, enum value, of a JSON Schema, nested ones included. */
export function parameterText(schema: unknown, out: string[] = [], depth = 0): string[] {
  if (typeof schema !== 'object' || schema === null || depth > 8) return out;
  if (Array.isArray(schema)) {
    for (const s of schema) parameterText(s, out, depth + 1);
    return out;
  }
  const node = schema as Record<string, unknown>;
  if (typeof node.description === 'string') out.push(node.description);
  if (Array.isArray(node.enum)) for (const v of node.enum) if (typeof v === 'string') out.push(v);
  const props = node.properties;
  if (typeof props === 'object' && props !== null && !Array.isArray(props)) {
    for (const [key, value] of Object.entries(props)) {
      out.push(nameWords(key));
      parameterText(value, out, depth + 1);
    }
  }
  for (const key of ['items', 'anyOf', 'oneOf', 'allOf', 'additionalProperties'])
    if (typeof node[key] === 'object') parameterText(node[key], out, depth + 1);
  return out;
}

export const winkBm25TunedPeer: Peer = {
  name: 'wink-bm25 tuned',
  settings:
    'fields: name words (weight 3), description (1), parameter names and texts (0.5); prep: lowerCase, tokenize0, removeWords, stem (wink-nlp-utils); repeated query tokens counted once',
  createRanker(tools: readonly BenchTool[], { limit }) {
    const engine = bm25();
    engine.defineConfig({ fldWeights: { name: 3, description: 1, parameters: 0.5 } });
    // The query is prepared with the default tasks; each field gets the same pipeline without the deduplication.
    engine.definePrepTasks([...prepTasks, once]);
    for (const field of ['name', 'description', 'parameters']) engine.definePrepTasks(prepTasks, field);
    tools.forEach((t, i) => {
      engine.addDoc(
        {
          name: nameWords(t.name),
          description: t.description ?? '',
          parameters: parameterText(t.parameters).join(' '),
        },
        i,
      );
    });
    if (tools.length < 3) return () => [];
    engine.consolidate();
    return (query) =>
      (engine.search(query, limit) as [number, number][]).map(([id]) => (tools[id] as { name: string }).name);
  },
};
