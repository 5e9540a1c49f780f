import type { Tool } from '../types.ts';

/** The searchable texts of one tool: name, description, parameter names, parameter descriptions. */
export type Fields = [name: string, description: string, paramNames: string, paramText: string];

// Schemas come from untrusted hosts: a node budget bounds deep, huge and cyclic ones alike.
const MAX_DEPTH = 8;
const MAX_NODES = 200;
const NESTED = ['items', 'anyOf', 'oneOf', 'allOf', 'additionalProperties', 'prefixItems'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

interface Walk {
  readonly names: string[];
  readonly texts: string[];
  /** Schema nodes still to visit. */
  left: number;
}

// A module-level function rather than a closure per tool: building 1,000s of closures showed in a cold build.
function walk(w: Walk, node: unknown, depth: number): void {
  if (!isObject(node) || depth > MAX_DEPTH || --w.left < 0) return;
  if (Array.isArray(node)) {
    for (const item of node) walk(w, item, depth + 1);
    return;
  }
  const { description, properties } = node;
  if (typeof description === 'string') w.texts.push(description);
  if (Array.isArray(node.enum)) for (const v of node.enum) if (typeof v === 'string') w.texts.push(v);
  if (isObject(properties) && !Array.isArray(properties)) {
    for (const key of Object.keys(properties)) {
      w.names.push(key);
      walk(w, properties[key], depth + 1);
    }
  }
  for (const key of NESTED) if (isObject(node[key])) walk(w, node[key], depth + 1);
}

/** Reads a tool's searchable texts without trusting its shape. */
export function toolFields(tool: Tool): Fields {
  const w: Walk = { names: [], texts: [], left: MAX_NODES };
  const t: { name?: unknown; description?: unknown; parameters?: unknown } = isObject(tool) ? tool : {};
  walk(w, t.parameters, 0);
  return [
    typeof t.name === 'string' ? t.name : '',
    typeof t.description === 'string' ? t.description : '',
    w.names.join(' '),
    w.texts.join(' '),
  ];
}
