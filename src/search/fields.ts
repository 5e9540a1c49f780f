import type { Tool } from '../types.ts';

/** The searchable texts of one tool: name, description, parameter names, parameter descriptions. */
export type Fields = [name: string, description: string, paramNames: string, paramText: string];

// Schemas come from untrusted hosts: a node budget bounds deep, huge and cyclic ones alike.
const MAX_DEPTH = 8;
const MAX_NODES = 200;
const NESTED = ['items', 'anyOf', 'oneOf', 'allOf', 'additionalProperties', 'prefixItems'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** Reads a tool's searchable texts without trusting its shape. */
export function toolFields(tool: Tool): Fields {
  const names: string[] = [];
  const texts: string[] = [];
  let budget = MAX_NODES;
  const walk = (node: unknown, depth: number): void => {
    if (!isObject(node) || depth > MAX_DEPTH || --budget < 0) return;
    if (Array.isArray(node)) {
      for (const item of node) walk(item, depth + 1);
      return;
    }
    const { description, properties } = node;
    if (typeof description === 'string') texts.push(description);
    if (Array.isArray(node.enum)) for (const v of node.enum) if (typeof v === 'string') texts.push(v);
    if (isObject(properties) && !Array.isArray(properties)) {
      for (const key of Object.keys(properties)) {
        names.push(key);
        walk(properties[key], depth + 1);
      }
    }
    for (const key of NESTED) if (isObject(node[key])) walk(node[key], depth + 1);
  };
  const t: { name?: unknown; description?: unknown; parameters?: unknown } = isObject(tool) ? tool : {};
  walk(t.parameters, 0);
  return [
    typeof t.name === 'string' ? t.name : '',
    typeof t.description === 'string' ? t.description : '',
    names.join(' '),
    texts.join(' '),
  ];
}
