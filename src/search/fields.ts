import { cut, MAX_INDEXED_DESCRIPTION, MAX_INDEXED_SCHEMA_TEXT } from '../base/limits.ts';
import type { Tool } from '../base/types.ts';

/** The searchable texts of one tool: name, description, parameter names, parameter descriptions. */
export type Fields = [name: string, description: string, paramNames: string, paramText: string];

// Schemas come from untrusted hosts: a node budget bounds deep, huge and cyclic ones alike.
const MAX_DEPTH = 8;
const MAX_NODES = 200;
// Read in this order; `walk` lists them again in its switch.
const NESTED = ['items', 'anyOf', 'oneOf', 'allOf', 'additionalProperties', 'prefixItems'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** Receives a schema's parameter names and parameter texts in the order they are indexed. */
export interface SchemaSink {
  name(key: string): void;
  text(value: string): void;
  /** Schema nodes still to visit. */
  left: number;
}

// One reused sink for toolFields: a sink per tool would be 1,000s of objects and closures in a cold build.
const collector = {
  names: [] as string[],
  texts: [] as string[],
  left: 0,
  name(key: string): void {
    collector.names.push(key);
  },
  text(value: string): void {
    collector.texts.push(value);
  },
};

// A module-level function rather than a closure per tool: building 1,000s of closures showed in a cold build.
// The node's keys are enumerated once (the enumerable ones, as JSON carries a schema to the model) and only those
// present are read: nine lookups of mostly absent keys on objects of every shape were half the cost of reading a catalogue.
function walk(w: SchemaSink, node: unknown, depth: number): void {
  if (!isObject(node) || depth > MAX_DEPTH || --w.left < 0) return;
  if (Array.isArray(node)) {
    for (const item of node) walk(w, item, depth + 1);
    return;
  }
  let has = 0;
  for (const key in node) {
    switch (key) {
      case 'description':
        has |= 1;
        break;
      case 'enum':
        has |= 2;
        break;
      case 'properties':
        has |= 4;
        break;
      case 'items':
      case 'anyOf':
      case 'oneOf':
      case 'allOf':
      case 'additionalProperties':
      case 'prefixItems':
        has |= 8;
    }
  }
  if (has & 1 && typeof node.description === 'string') w.text(node.description);
  if (has & 2 && Array.isArray(node.enum)) for (const v of node.enum) if (typeof v === 'string') w.text(v);
  const properties = has & 4 ? node.properties : undefined;
  if (isObject(properties) && !Array.isArray(properties)) {
    for (const key of Object.keys(properties)) {
      w.name(key);
      walk(w, properties[key], depth + 1);
    }
  }
  if (has & 8) for (const key of NESTED) if (isObject(node[key])) walk(w, node[key], depth + 1);
}

/** The host's keywords as one text: an array's strings (others skipped), or a single string. */
function keywordText(keywords: unknown): string {
  if (typeof keywords === 'string') return keywords;
  if (!Array.isArray(keywords)) return '';
  let text = '';
  for (const k of keywords) if (typeof k === 'string') text += `\n${k}`;
  return text;
}

/** A tool's raw parts, read without trusting its shape. */
export type ToolParts = { name?: unknown; description?: unknown; parameters?: unknown; keywords?: unknown };

const NONE: ToolParts = {};

/** The tool as an object whose parts may be read (an empty one for a tool that is no object). */
export const partsOf = (tool: Tool): ToolParts => (isObject(tool) ? tool : NONE);

/** A tool's name as it is indexed: '' when it has none. */
export const nameOf = (t: ToolParts): string => (typeof t.name === 'string' ? t.name : '');

/** A tool's description as it is indexed: '' when it has none. */
export const descriptionOf = (t: ToolParts): string => (typeof t.description === 'string' ? t.description : '');

/** Gives the sink a schema's parameter names and texts, in the order they are indexed, within the node budget. */
export function walkSchema(parameters: unknown, sink: SchemaSink): void {
  sink.left = MAX_NODES;
  walk(sink, parameters, 0);
}

/** Reads a tool's searchable texts without trusting its shape; the host's keywords join the description. */
export function toolFields(tool: Tool): Fields {
  const t = partsOf(tool);
  const names: string[] = [];
  const texts: string[] = [];
  collector.names = names;
  collector.texts = texts;
  walkSchema(t.parameters, collector);
  const description = descriptionOf(t);
  const keywords = t.keywords === undefined ? '' : keywordText(t.keywords);
  // A third-party catalogue may carry megabytes of text: the index reads a bounded head of each part.
  const searchable = keywords ? `${description}\n${keywords}` : description;
  return [
    nameOf(t),
    cut(searchable, MAX_INDEXED_DESCRIPTION),
    names.join(' '),
    cut(texts.join(' '), MAX_INDEXED_SCHEMA_TEXT),
  ];
}
