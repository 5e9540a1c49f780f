// Extracts from OpenAI's published OpenAPI document (github.com/openai/openai-openapi, openapi.json) the
// request schemas the OpenAI adapter tests validate bodies against, with every schema they reference.
// Usage: node scripts/openai-schemas.mjs <openapi.json> <commit> > test/fixtures/openai-request-schemas.json
import { readFileSync } from 'node:fs';

const [file, commit] = process.argv.slice(2);
const schemas = JSON.parse(readFileSync(file, 'utf8')).components.schemas;
const roots = ['CreateChatCompletionRequest', 'CreateResponse'];
const kept = new Set(roots);
const walk = (node) => {
  if (Array.isArray(node)) return node.forEach(walk);
  if (!node || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string') {
      const name = value.split('/').pop();
      if (!kept.has(name)) {
        kept.add(name);
        walk(schemas[name]);
      }
    } else walk(value);
  }
};
for (const root of roots) walk(schemas[root]);
const out = {
  source: `https://github.com/openai/openai-openapi/blob/${commit}/openapi.json`,
  roots,
  components: { schemas: Object.fromEntries([...kept].sort().map((name) => [name, schemas[name]])) },
};
process.stdout.write(`${JSON.stringify(out)}\n`);
