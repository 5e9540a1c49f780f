// The MCP server the Assistant connects to: an Agents SDK `McpAgent` in the same Worker, reached over Durable
// Object RPC (`this.addMcpServer('toolbox', this.env.TOOLS)`). Twenty-four small tools, so that the model has to
// search. `McpAgent` runs MCP SDK v1's server, hence `@modelcontextprotocol/sdk` (the client side needs no v1).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpAgent } from 'agents/mcp';
import { z } from 'zod';
import type { Env } from './env.ts';

type Numbers = { a: number; b: number };
const text = (value: unknown) => ({ content: [{ type: 'text' as const, text: String(value) }] });

const arithmetic: Record<string, [string, (n: Numbers) => number]> = {
  add: ['Add two numbers', ({ a, b }) => a + b],
  subtract: ['Subtract b from a', ({ a, b }) => a - b],
  multiply: ['Multiply two numbers', ({ a, b }) => a * b],
  divide: ['Divide a by b', ({ a, b }) => a / b],
  power: ['Raise a to the power b', ({ a, b }) => a ** b],
  modulo: ['The remainder of a divided by b', ({ a, b }) => a % b],
  maximum: ['The larger of two numbers', ({ a, b }) => Math.max(a, b)],
  minimum: ['The smaller of two numbers', ({ a, b }) => Math.min(a, b)],
};

const conversions: Record<string, [string, (value: number) => number]> = {
  celsius_to_fahrenheit: ['Convert a temperature from Celsius to Fahrenheit', (c) => (c * 9) / 5 + 32],
  fahrenheit_to_celsius: ['Convert a temperature from Fahrenheit to Celsius', (f) => ((f - 32) * 5) / 9],
  kilometres_to_miles: ['Convert a distance from kilometres to miles', (km) => km / 1.609344],
  miles_to_kilometres: ['Convert a distance from miles to kilometres', (mi) => mi * 1.609344],
  kilograms_to_pounds: ['Convert a weight from kilograms to pounds', (kg) => kg / 0.45359237],
  pounds_to_kilograms: ['Convert a weight from pounds to kilograms', (lb) => lb * 0.45359237],
  litres_to_gallons: ['Convert a volume from litres to US gallons', (l) => l / 3.785411784],
  gallons_to_litres: ['Convert a volume from US gallons to litres', (g) => g * 3.785411784],
};

const texts: Record<string, [string, (input: string) => string | number]> = {
  uppercase: ['Turn text into upper case letters', (s) => s.toUpperCase()],
  lowercase: ['Turn text into lower case letters', (s) => s.toLowerCase()],
  reverse_text: ['Reverse the characters of a text', (s) => [...s].reverse().join('')],
  count_words: ['Count the words in a text', (s) => s.split(/\s+/).filter(Boolean).length],
  count_characters: ['Count the characters in a text', (s) => [...s].length],
  slugify: [
    'Make a URL slug from a title',
    (s) =>
      s
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, ''),
  ],
  trim_whitespace: ['Remove leading and trailing whitespace from a text', (s) => s.trim()],
  base64_encode: ['Encode text as base64', (s) => btoa(s)],
};

/** The toolbox MCP server, one Durable Object per client connection. */
export class ToolsServer extends McpAgent<Env> {
  server = new McpServer({ name: 'toolbox', version: '1.0.0' });

  async init(): Promise<void> {
    for (const [name, [description, run]] of Object.entries(arithmetic)) {
      const annotations = { readOnlyHint: true };
      const inputSchema = { a: z.number(), b: z.number() };
      this.server.registerTool(name, { description, inputSchema, annotations }, async (n) => text(run(n)));
    }
    for (const [name, [description, run]] of Object.entries(conversions)) {
      const inputSchema = { value: z.number() };
      this.server.registerTool(name, { description, inputSchema }, async ({ value }) => text(run(value)));
    }
    for (const [name, [description, run]] of Object.entries(texts)) {
      const inputSchema = { text: z.string() };
      this.server.registerTool(name, { description, inputSchema }, async (input) => text(run(input.text)));
    }
  }
}
