// The test Worker's main module: it only exports the Durable Object classes whose storage the store
// tests use (through runInDurableObject), one SQLite-backed (as Agents SDK agents are) and one
// key-value backed.
import { DurableObject, WorkerEntrypoint } from 'cloudflare:workers';

export class SqliteHost extends DurableObject {}
export class KeyValueHost extends DurableObject {}

/**
 * A Workers AI stand-in behind a service binding (`AI` in wrangler.jsonc): `run(model, { text })` answers the
 * documented `{ shape, data }` of the text embedding models, from a bag of words in 8 dimensions, and counts calls.
 */
export class FakeAi extends WorkerEntrypoint {
  static calls: { model: string; texts: string[]; pooling?: string }[] = [];
  async run(model: string, inputs: { text: string | string[]; pooling?: 'mean' | 'cls' }) {
    const texts = typeof inputs.text === 'string' ? [inputs.text] : inputs.text;
    FakeAi.calls.push({ model, texts, ...(inputs.pooling && { pooling: inputs.pooling }) });
    const data = texts.map((text) => {
      const v = new Array<number>(8).fill(0);
      for (const word of text.toLowerCase().split(/\W+/).filter(Boolean)) {
        let h = 0;
        for (const c of word) h = (h * 31 + c.charCodeAt(0)) >>> 0;
        v[h % 8] = (v[h % 8] as number) + 1;
      }
      return v;
    });
    return { shape: [texts.length, 8], data, pooling: inputs.pooling ?? 'mean' };
  }
  async calls() {
    return FakeAi.calls.splice(0);
  }
}

export default {
  fetch(): Response {
    return new Response('tool-search-layer test worker');
  },
};
