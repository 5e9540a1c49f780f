// The ranker hook (SPEC section 10): a host embedding model fused with the built-in ranking.
import {
  createMemoryStore,
  createToolSearch,
  type SearchErrorResult,
  type SearchResult,
  type SemanticOptions,
  type Tool,
} from 'tool-search-layer';
import { describe, expect, it } from 'vitest';
import { PREFILTER_MARGIN, sparseBounds, sparseColumns } from '../../src/semantic/prefilter.ts';
import { quantizedBounds, quantizedRows } from '../../src/semantic/quantized.ts';
import { catalogue, names, recordingLogger } from './fixtures.ts';
import { asked, taught, turn } from './learn-share-fixtures.ts';

const ok = (result: SearchResult | SearchErrorResult): SearchResult => {
  if ('error' in result) throw new Error(result.error);
  return result;
};

// A deterministic model: words fold to a concept through a small synonym table, then hash into 64 dimensions.
const concepts: Record<string, string> = {
  rainy: 'weather',
  rain: 'weather',
  umbrella: 'weather',
  forecast: 'weather',
  conditions: 'weather',
  letter: 'email',
  mail: 'email',
  message: 'email',
  messages: 'email',
  inbox: 'email',
  appointment: 'calendar',
  meeting: 'calendar',
  event: 'calendar',
  events: 'calendar',
};
const STOP = new Set(['a', 'an', 'the', 'for', 'of', 'to', 'in', 'by', 'get', 'send', 'read', 'list', 'next']);

function bagOfConcepts(text: string): number[] {
  const vector = new Array<number>(64).fill(0);
  for (const raw of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    if (STOP.has(raw)) continue;
    const word = concepts[raw] ?? raw;
    let h = 7;
    for (let i = 0; i < word.length; i++) h = (h * 31 + word.charCodeAt(i)) % 64;
    vector[h] = (vector[h] as number) + 1;
  }
  return vector;
}

/** An embed function with its own identity (so its cache entries are its own), counting its calls. */
function countingEmbed(vectorOf: (text: string, kind: 'tool' | 'query') => number[] = bagOfConcepts) {
  const calls: { kind: 'tool' | 'query'; texts: string[] }[] = [];
  const embed: SemanticOptions['embed'] = async (texts, kind) => {
    calls.push({ kind, texts });
    return texts.map((text) => vectorOf(text, kind));
  };
  return { embed, calls, toolCalls: () => calls.filter((c) => c.kind === 'tool') };
}

const quiet = () => ({ logger: recordingLogger() });

// The built-in order for "apple" is pie, tart. The test model ranks tart (cosine 1), cherry (0.8), pie (0.6),
// salad (0.3), bread (0), soup (-1), and 200 fillers spread evenly over -0.15 to 0.15, so the query's similarities
// have mean 0.008 and deviation 0.149 over the catalogue: tart stands 6.64 deviations out, cherry 5.30, pie 3.96,
// salad 1.95. The model agrees with the keywords (their best tools stand out), so it is trusted fully.
const FILLERS = 200;
const fillers: Tool[] = Array.from({ length: FILLERS }, (_, i) => ({
  name: `filler_${i}`,
  description: `filler ${i}`,
}));
const desserts: Tool[] = [
  { name: 'apple_pie', description: 'apple apple apple pie' },
  { name: 'apple_tart', description: 'a tart with apple' },
  { name: 'cherry_cake', description: 'cherry cake' },
  { name: 'bread', description: 'bread' },
  { name: 'soup', description: 'soup' },
  { name: 'salad', description: 'salad' },
  ...fillers,
];
const angled = (cosine: number): number[] => [cosine, Math.sqrt(1 - cosine * cosine)];
const dessertVectors: Record<string, number[]> = {
  apple_pie: [0.6, 0.8],
  apple_tart: [1, 0],
  cherry_cake: [0.8, 0.6],
  bread: [0, 1],
  soup: [-1, 0],
  salad: [0.3, -0.95],
  ...Object.fromEntries(fillers.map((_, i) => [`filler_${i}`, angled(-0.15 + (0.3 * i) / (FILLERS - 1))])),
};
const dessertModel = (text: string, kind: 'tool' | 'query'): number[] =>
  kind === 'query' ? [1, 0] : (dessertVectors[text.split('.')[0]?.replace(' ', '_') as string] ?? [-0.6, -0.8]);

/** Pseudo-random vectors in [0, 1): no signal, and cosines near 0.75, above the default floor. */
function noise(text: string): number[] {
  let seed = 7;
  for (let i = 0; i < text.length; i++) seed = Math.imul(seed ^ text.charCodeAt(i), 16777619);
  return Array.from({ length: 32 }, () => {
    seed = Math.imul(seed ^ (seed >>> 13), 1274126177);
    return ((seed >>> 0) % 1000) / 1000;
  });
}

describe('the semantic ranker hook', () => {
  const search = async (semantic: Partial<SemanticOptions>, tools: Tool[] = desserts, query = 'apple') => {
    const layer = createToolSearch({ ...quiet(), semantic: { embed: countingEmbed(dessertModel).embed, ...semantic } });
    return ok(await layer.search({ sessionId: 's', tools }, { query }));
  };

  it('lifts the tools that stand far out of the catalogue and lets them join; a weight of 0 keeps the keyword order', async () => {
    const plain = ok(await createToolSearch(quiet()).search({ sessionId: 's', tools: desserts }, { query: 'apple' }));
    expect(names(plain.tools)).toEqual(['apple_pie', 'apple_tart']);
    // Tart (6.64 deviations out, past zMove + 1) is lifted whole over pie (3.96, not lifted); cherry (5.30) joins
    // without a keyword, below the keyword matches at the default weight (1) and over pie at weight 2; salad (1.95)
    // never joins.
    const byDefault = await search({});
    expect(names(byDefault.tools)).toEqual(['apple_tart', 'apple_pie', 'cherry_cake']);
    expect(byDefault.found).toBe(3);
    const strong = await search({ weight: 2 });
    expect(names(strong.tools)).toEqual(['apple_tart', 'cherry_cake', 'apple_pie']);
    expect(strong.found).toBe(3);
    // A small weight lifts tart over pie, but an addition stays under the keyword matches.
    expect(names((await search({ weight: 0.25 })).tools)).toEqual(['apple_tart', 'apple_pie', 'cherry_cake']);
    // Weight 0 keeps the built-in order; the floor still lets a far-out tool join, after the keyword matches.
    expect(names((await search({ weight: 0 })).tools)).toEqual(['apple_pie', 'apple_tart', 'cherry_cake']);
  });

  it('lets a tool join only at or above the similarity floor, and only far out of the catalogue; found counts it', async () => {
    expect(names((await search({ minSimilarity: 0.9 })).tools)).toEqual(['apple_tart', 'apple_pie']);
    expect((await search({ minSimilarity: 0.8 })).found).toBe(3);
    // Salad's cosine (0.3) is at a floor of 0.3, but it stands only 1.95 deviations out: a model's middling
    // similarity does not push a tool in beside keyword matches.
    const low = await search({ minSimilarity: 0.3, weight: 2 });
    expect(names(low.tools)).toEqual(['apple_tart', 'cherry_cake', 'apple_pie']);
    expect(low.found).toBe(3);
  });

  it('ranks by keywords alone where the model abstains (null) on the query, and keeps abstained tools lexical', async () => {
    const plain = ok(await createToolSearch(quiet()).search({ sessionId: 's', tools: desserts }, { query: 'apple' }));
    const counting = countingEmbed(dessertModel);
    const abstainOnQuery: SemanticOptions['embed'] = async (texts, kind) =>
      kind === 'query' ? texts.map(() => null) : counting.embed(texts, kind);
    expect(await search({ embed: abstainOnQuery, weight: 2 })).toEqual(plain);
    // The model abstains on tart and cherry: tart keeps its keyword rank, cherry (no vector) cannot join.
    const abstainOnSome: SemanticOptions['embed'] = async (texts, kind) =>
      (await counting.embed(texts, kind)).map((v, i) => (/^apple tart|^cherry/.test(texts[i] as string) ? null : v));
    const some = await search({ embed: abstainOnSome, weight: 2 });
    expect(names(some.tools)).toEqual(['apple_pie', 'apple_tart']);
    expect(some.found).toBe(2);
  });

  it('moves nothing on noise: random vectors and one vector for every text leave the keyword ranking as it is', async () => {
    const context = { sessionId: 's', tools: catalogue };
    const plain = createToolSearch({ ...quiet(), maxSearchResults: 0 });
    for (const vectorOf of [noise, () => [1, 2, 3]]) {
      const layer = createToolSearch({
        ...quiet(),
        maxSearchResults: 0,
        semantic: { embed: countingEmbed(vectorOf).embed, weight: 1, minSimilarity: 0 },
      });
      for (const query of ['weather forecast', 'send an email message', 'list files in a directory', 'stock price']) {
        const expected = ok(await plain.search(context, { query }));
        const got = ok(await layer.search(context, { query }));
        expect(names(got.tools)).toEqual(names(expected.tools));
        expect(got.found).toBe(expected.found);
      }
    }
  });

  it('keeps a keyword-perfect match in the top results at the defaults when the model is weak (flat cosines)', async () => {
    // 400 tools named by two of 40 words; a weak model that sees only a text's first word (its topic), over one
    // direction every text shares, and noise: its cosines sit near 0.9 for every tool, the ten tools of the query's
    // topic stand far out alike, and it cannot tell them apart. It lifts them alike, so the keywords still decide.
    const words = Array.from({ length: 40 }, (_, i) => `w${String.fromCharCode(97 + (i % 26))}${Math.floor(i / 26)}x`);
    const random = seeded(11);
    const tools: Tool[] = Array.from({ length: 400 }, (_, i) => {
      const a = words[i % 40] as string;
      const b = words[(i * 7 + Math.floor(i / 40)) % 40] as string;
      return { name: `${a}_${b}_${i}`, description: `${a} ${b} ${words[Math.floor(random() * 40)]}` };
    });
    const weak = (text: string): number[] => {
      const own = seeded(text.length * 31 + (text.charCodeAt(0) || 0));
      const v = Array.from({ length: 48 }, () => 0.15 * (own() - 0.5));
      v[0] = 3;
      const topic = /w[a-z]\dx/.exec(text)?.[0] ?? '';
      const at = 1 + (words.indexOf(topic) % 47);
      v[at] = (v[at] as number) + 0.6;
      return v;
    };
    const plain = createToolSearch({ ...quiet(), maxSearchResults: 0 });
    const layer = createToolSearch({ ...quiet(), maxSearchResults: 0, semantic: { embed: countingEmbed(weak).embed } });
    for (const i of [3, 57, 120, 199, 256, 311, 398]) {
      const tool = tools[i] as Tool;
      const query = tool.name.replace(/_/g, ' ');
      const keywordTop = names(ok(await plain.search({ sessionId: 's', tools }, { query, limit: 5 })).tools);
      expect(keywordTop[0]).toBe(tool.name);
      const fused = names(ok(await layer.search({ sessionId: 's', tools }, { query, limit: 5 })).tools);
      expect(fused[0]).toBe(tool.name);
    }
  });

  it('finds tools close in meaning that share no keyword with the query', async () => {
    const plain = createToolSearch(quiet());
    expect(ok(await plain.search({ sessionId: 's', tools: catalogue }, { query: 'rainy umbrella' })).found).toBe(0);
    const layer = createToolSearch({ ...quiet(), semantic: { embed: countingEmbed().embed } });
    const rainy = ok(await layer.search({ sessionId: 's', tools: catalogue }, { query: 'rainy umbrella' }));
    expect(names(rainy.tools)).toContain('get_weather');
    expect(names(rainy.tools)).toContain('get_forecast');
    expect(rainy.found).toBe(rainy.tools.length);
    // The found tools join the discovered set like any other.
    const out = await layer.prepare({ sessionId: 's', tools: catalogue });
    expect(out.discovered).toEqual(names(rainy.tools));
  });

  it('embeds the tools of a catalogue once, in batches of 64, shared by every layer with that embed; a query once', async () => {
    const many: Tool[] = Array.from({ length: 150 }, (_, i) => ({
      name: `tool_${i}`,
      description: `does thing number ${i} with weather`,
    }));
    const counting = countingEmbed();
    const a = createToolSearch({ ...quiet(), semantic: { embed: counting.embed } });
    const b = createToolSearch({ ...quiet(), semantic: { embed: counting.embed } });
    await a.search({ sessionId: 's', tools: many }, { query: 'rainy weather' });
    expect(counting.toolCalls().map((c) => c.texts.length)).toEqual([64, 64, 22]);
    expect(counting.calls.filter((c) => c.kind === 'query')).toEqual([{ kind: 'query', texts: ['rainy weather'] }]);
    // A second layer, a new array of equal tools, another query, and the next page of the first query.
    await b.search({ sessionId: 's', tools: many.map((t) => ({ ...t })) }, { query: 'forecast' });
    await b.search({ sessionId: 's', tools: many }, { query: 'rainy weather', offset: 5 });
    expect(counting.toolCalls()).toHaveLength(3);
    expect(counting.calls.filter((c) => c.kind === 'query').map((c) => c.texts)).toEqual([
      ['rainy weather'],
      ['forecast'],
    ]);
    // A tool whose text changed is embedded again, alone.
    const changed = [...many.slice(0, -1), { name: 'tool_149', description: 'now about email' }];
    await b.search({ sessionId: 's', tools: changed }, { query: 'forecast' });
    expect(counting.toolCalls().at(-1)?.texts).toEqual(['tool 149. now about email']);
  });

  it('shares vectors between embed functions that name the same model (a per-request embed in a Worker)', async () => {
    const tools = catalogue.map((t) => ({ ...t, description: `${t.description} (model test)` }));
    const first = countingEmbed();
    const second = countingEmbed();
    const model = `test-model-${Math.random()}`;
    await createToolSearch({ ...quiet(), semantic: { embed: first.embed, model } }).search(
      { sessionId: 's', tools },
      { query: 'rainy' },
    );
    await createToolSearch({ ...quiet(), semantic: { embed: second.embed, model } }).search(
      { sessionId: 's', tools },
      { query: 'rainy' },
    );
    expect(first.calls).toHaveLength(2);
    expect(second.calls).toHaveLength(0);
  });

  it('asks nothing of the model for an empty query or a query without keywords', async () => {
    const counting = countingEmbed();
    const layer = createToolSearch({ ...quiet(), semantic: { embed: counting.embed } });
    const all = ok(await layer.search({ sessionId: 's', tools: catalogue }, { query: '' }));
    expect(all.found).toBe(catalogue.length);
    expect(ok(await layer.search({ sessionId: 's', tools: catalogue }, { query: 'the a of' })).found).toBe(0);
    expect(counting.calls).toEqual([]);
  });

  it('answers with the built-in ranking alone when embed throws, warning once per layer', async () => {
    const logger = recordingLogger();
    const debug: string[] = [];
    const layer = createToolSearch({
      logger: { warn: logger.warn, debug: (m) => debug.push(m) },
      semantic: {
        embed: async () => {
          throw new Error('quota exceeded');
        },
      },
    });
    const plain = createToolSearch(quiet());
    for (const query of ['weather forecast', 'email']) {
      const context = { sessionId: 's', tools: catalogue };
      expect(ok(await layer.search(context, { query }))).toEqual(ok(await plain.search(context, { query })));
    }
    expect(logger.lines).toEqual([
      '[tool-search-layer] the semantic ranker failed (quota exceeded); this search used the built-in ranking alone (warned once per layer)',
    ]);
    expect(debug.filter((line) => line.includes('semantic ranker failed'))).toHaveLength(1);
  });

  it('answers with the built-in ranking alone when embed hangs past timeoutMs', async () => {
    const logger = recordingLogger();
    const layer = createToolSearch({ logger, semantic: { embed: () => new Promise(() => {}), timeoutMs: 30 } });
    // embed never settles: an answer at all is the timeout's doing (without it, this test would never end).
    const result = ok(await layer.search({ sessionId: 's', tools: catalogue }, { query: 'weather' }));
    const plain = ok(
      await createToolSearch(quiet()).search({ sessionId: 's', tools: catalogue }, { query: 'weather' }),
    );
    expect(result).toEqual(plain);
    expect(logger.lines).toEqual([expect.stringContaining('embed did not answer within 30 ms')]);
  });

  it('keeps the vectors a slow model sends after the timeout for the next search', async () => {
    const tools = catalogue.map((t) => ({ ...t, description: `${t.description} (slow test)` }));
    const counting = countingEmbed();
    const slow: SemanticOptions['embed'] = (texts, kind) =>
      new Promise((resolve) => setTimeout(() => resolve(counting.embed(texts, kind)), 60));
    const layer = createToolSearch({ ...quiet(), semantic: { embed: slow, timeoutMs: 20 } });
    const first = ok(await layer.search({ sessionId: 's', tools }, { query: 'rainy' }));
    expect(first.found).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 120));
    const second = ok(await layer.search({ sessionId: 's', tools }, { query: 'rainy' }));
    expect(names(second.tools)).toContain('get_weather');
    expect(counting.toolCalls()).toHaveLength(1);
  });

  it('falls back when embed returns the wrong number or shape of vectors', async () => {
    for (const [reply, reason] of [
      [[], /an array of \d+ vectors/],
      [null, /an array of \d+ vectors/],
      [['x'], /./],
    ] as const) {
      const logger = recordingLogger();
      const layer = createToolSearch({
        logger,
        semantic: { embed: async (texts) => (texts.length === 1 ? [[1, 0]] : (reply as never)) },
      });
      const result = ok(await layer.search({ sessionId: 's', tools: catalogue }, { query: 'email' }));
      expect(result.found).toBeGreaterThan(0);
      expect(logger.lines[0]).toMatch(reason);
    }
  });

  it('pages stably: the pages of a fused ranking add up to the whole ranking', async () => {
    const layer = createToolSearch({ ...quiet(), maxSearchResults: 0, semantic: { embed: countingEmbed().embed } });
    const context = { sessionId: 's', tools: catalogue };
    const query = 'email message calendar weather rain';
    const whole = ok(await layer.search(context, { query }));
    expect(whole.found).toBeGreaterThan(6);
    const paged: string[] = [];
    for (let offset = 0; offset < whole.found; offset += 2) {
      const page = ok(await layer.search(context, { query, limit: 2, offset }));
      expect(page.pagination?.total).toBe(whole.found);
      paged.push(...names(page.tools));
    }
    expect(paged).toEqual(names(whole.tools));
    // The substring floor holds: every tool the built-in ranking finds is in the fused result set.
    const plain = ok(await createToolSearch({ ...quiet(), maxSearchResults: 0 }).search(context, { query }));
    expect(names(whole.tools)).toEqual(expect.arrayContaining(names(plain.tools)));
    // Another layer, and the same layer again, give the same order: nothing depends on the session.
    const again = createToolSearch({ ...quiet(), maxSearchResults: 0, semantic: { embed: countingEmbed().embed } });
    expect(names(ok(await again.search({ sessionId: 'other', tools: catalogue }, { query })).tools)).toEqual(
      names(whole.tools),
    );
  });

  it('never embeds, returns, counts or relates a tool outside the enabled groups', async () => {
    const counting = countingEmbed();
    const layer = createToolSearch({
      ...quiet(),
      maxSearchResults: 0,
      semantic: { embed: counting.embed, minSimilarity: -1 },
    });
    const result = ok(
      await layer.search({ sessionId: 's', tools: catalogue, enabledGroups: ['mail'] }, { query: 'rainy weather' }),
    );
    const shown = [...names(result.tools), ...(result.related ?? [])];
    expect(shown).not.toContain('get_weather');
    expect(shown.every((name) => !/weather|forecast|event|file|directory|Stock|Currency/.test(name))).toBe(true);
    // minSimilarity -1 lets every visible tool join: exactly the ungrouped and mail tools, the only ones embedded.
    expect(result.found).toBe(6);
    expect(counting.toolCalls().flatMap((c) => c.texts)).toHaveLength(6);
  });

  it('skipped catalogue entries are never embedded or returned', async () => {
    const counting = countingEmbed();
    const layer = createToolSearch({ ...quiet(), semantic: { embed: counting.embed, minSimilarity: -1 } });
    const tools = [...catalogue, { name: '', description: 'rainy ghost' } as Tool, catalogue[3] as Tool];
    const result = ok(await layer.search({ sessionId: 's', tools }, { query: 'rainy', limit: 50 }));
    expect(result.found).toBe(catalogue.length);
    expect(counting.toolCalls().flatMap((c) => c.texts)).toHaveLength(catalogue.length);
  });

  it('says in the search tool that a query may describe the task, in both locales', async () => {
    const semantic = { embed: countingEmbed().embed };
    for (const locale of ['en', 'zh'] as const) {
      const layer = createToolSearch({ ...quiet(), locale, semantic });
      const out = await layer.prepare({ sessionId: 's', tools: catalogue });
      const { parameters } = out.tools[0] as Tool;
      const { query } = (parameters as { properties: { query: { description: string } } }).properties;
      expect(query.description).toBe(layer.options.texts.queryParamSemantic);
    }
  });

  it('validates the option, naming every invalid field', () => {
    expect(() => createToolSearch({ semantic: {} as never })).toThrow(/"semantic.embed": is required/);
    expect(() =>
      createToolSearch({ semantic: { embed: async () => [], weight: -1, minSimilarity: 2, timeoutMs: 0 } }),
    ).toThrow(
      /"semantic.weight": must be 0 or more \(received -1\); "semantic.minSimilarity": must be 1 or less \(received 2\); "semantic.timeoutMs": must be 1 or more \(received 0\)/,
    );
    expect(() => createToolSearch({ semantic: { embed: 'x' as never } })).toThrow(
      /"semantic.embed": must be a function/,
    );
    const { options } = createToolSearch({ semantic: { embed: async () => [] } });
    expect(options.semantic).toMatchObject({ weight: 1, minSimilarity: 0.5, timeoutMs: 2000 });
  });
});

/** A seeded generator (mulberry32), so the synthetic catalogues repeat. */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A unit vector in float32, as the layer stores it. */
const unitRow = (v: number[]): Float32Array => {
  const norm = Math.sqrt(v.reduce((a, x) => a + x * x, 0));
  return Float32Array.from(v, (x) => x / norm);
};

describe('the first pass of the floor search over a sparse model', () => {
  const D = 64;
  const random = seeded(7);
  const sparseVector = (nonZero: number): number[] => {
    const v = new Array<number>(D).fill(0);
    for (let k = 0; k < nonZero; k++) v[Math.floor(random() * D)] = random() * 2 - 1;
    return v;
  };
  const queries = [...Array.from({ length: 6 }, () => unitRow(sparseVector(12))), unitRow(sparseVector(200))];
  // 1,500 random sparse rows, and per query rows a hair over and under the floors below (a mix of the query and noise).
  const rows: Float32Array[] = Array.from({ length: 1500 }, () => unitRow(sparseVector(6)));
  for (const q of queries.slice(0, 6)) {
    for (const target of [0.3, 0.5, 0.8]) {
      for (const off of [-1e-4, 1e-4]) {
        const noise = unitRow(sparseVector(3));
        const along = Array.from(
          noise,
          (x, j) => x - (q[j] as number) * noise.reduce((a, y, i) => a + y * (q[i] as number), 0),
        );
        const n = Math.sqrt(along.reduce((a, x) => a + x * x, 0)) || 1;
        const c = target + off;
        rows.push(unitRow(Array.from(q, (x, j) => c * x + (Math.sqrt(1 - c * c) * (along[j] as number)) / n)));
      }
    }
  }
  const matrix = new Float32Array(rows.length * D);
  rows.forEach((r, i) => {
    matrix.set(r, i * D);
  });
  const has = new Uint8Array(rows.length).fill(1);
  has[3] = 0;
  const exact = (q: Float32Array, id: number): number => {
    let s = 0;
    for (let j = 0; j < D; j++) s += (matrix[id * D + j] as number) * (q[j] as number);
    return s;
  };

  it('bounds every row from above, so no row at the floor is left out, and leaves few rows to the exact pass', () => {
    const columns = sparseColumns(matrix, has, D);
    expect(columns).toBeDefined();
    for (const floor of [-0.2, 0, 0.3, 0.5, 0.8]) {
      for (const [qi, q] of queries.entries()) {
        const bounds = Float64Array.from(sparseBounds(columns as NonNullable<typeof columns>, q, floor));
        let kept = 0;
        let over = 0;
        const wrong: string[] = [];
        for (let id = 0; id < rows.length; id++) {
          if (!has[id]) continue;
          const cosine = exact(q, id);
          const bound = bounds[id] as number;
          if (bound < cosine - 1e-12) wrong.push(`row ${id}: bound ${bound} under cosine ${cosine}`);
          if (cosine >= floor) over++;
          if (bound >= floor - PREFILTER_MARGIN) kept++;
        }
        expect(wrong).toEqual([]);
        // The rows made for each sparse query put some over every floor, a hair away from it.
        if (qi < 6) expect(over).toBeGreaterThan(0);
        // A sparse query at a floor of 0.5 leaves under a tenth of the rows to the exact pass.
        if (floor === 0.5 && qi < 6) expect(kept).toBeLessThan(rows.length / 10);
      }
    }
  });

  it('is not built for a dense model, whose 8-bit pass bounds every row from above and leaves few to the exact pass', () => {
    // 1,001 dense rows (an odd count: the last pair has one row) of 300 dimensions (two chunks of the 8-bit sums),
    // some a hair over and under the floor of 0.5 for the query.
    const d = 300;
    const denseVector = (): number[] => Array.from({ length: d }, () => random() * 2 - 1);
    const q = unitRow(denseVector());
    const dense: Float32Array[] = Array.from({ length: 1001 }, (_, i) => {
      if (i % 100 !== 0) return unitRow(denseVector());
      const noise = denseVector();
      const dot = noise.reduce((a, x, j) => a + x * (q[j] as number), 0);
      const along = noise.map((x, j) => x - dot * (q[j] as number));
      const norm = Math.sqrt(along.reduce((a, x) => a + x * x, 0));
      const c = 0.5 + (i % 200 === 0 ? 1e-4 : -1e-4);
      return unitRow(along.map((x, j) => c * (q[j] as number) + (Math.sqrt(1 - c * c) * x) / norm));
    });
    const matrix = new Float32Array(dense.length * d);
    dense.forEach((r, i) => {
      matrix.set(r, i * d);
    });
    const has = new Uint8Array(dense.length).fill(1);
    has[7] = 0;
    expect(sparseColumns(matrix, has, d)).toBeUndefined();
    const bounds = quantizedBounds(quantizedRows(matrix, has, d), q, 0.5 - PREFILTER_MARGIN);
    const wrong: string[] = [];
    let kept = 0;
    let over = 0;
    for (let id = 0; id < dense.length; id++) {
      if (!has[id]) continue;
      let cosine = 0;
      for (let j = 0; j < d; j++) cosine += (matrix[id * d + j] as number) * (q[j] as number);
      if ((bounds[id] as number) < cosine - 1e-12) wrong.push(`row ${id}: bound ${bounds[id]} under cosine ${cosine}`);
      if (cosine >= 0.5) over++;
      if ((bounds[id] as number) >= 0.5 - PREFILTER_MARGIN) kept++;
    }
    expect(wrong).toEqual([]);
    expect(over).toBe(6);
    expect(kept).toBeLessThan(30);
    // At a floor of 0.9 the first half of the dimensions and the norms of the other halves settle every row, and
    // each bound is still over its cosine.
    const early = quantizedBounds(quantizedRows(matrix, has, d), q, 0.9 - PREFILTER_MARGIN);
    let settled = 0;
    for (let id = 0; id < dense.length; id++) {
      if (!has[id]) continue;
      let cosine = 0;
      for (let j = 0; j < d; j++) cosine += (matrix[id * d + j] as number) * (q[j] as number);
      if ((early[id] as number) < cosine - 1e-12) wrong.push(`row ${id}: bound ${early[id]} under cosine ${cosine}`);
      if ((early[id] as number) < 0.9 - PREFILTER_MARGIN) settled++;
    }
    expect(wrong).toEqual([]);
    expect(settled).toBe(1000);
  });

  it('finds through the public API exactly the tools over the floor, near misses out, outside enabled groups never', async () => {
    // 20 keyword matches the model agrees with (cosine 0.9), 6 tools without a keyword at 0.7 + 1e-3, 30 at 0.7 - 1e-3,
    // the rest orthogonal (the floor of 0.7 is over the query's mean + 5 deviations, 0.66, so the option sets it): the
    // sparse first pass runs (two non-zero components of 128) on 2,000 tools, and the 8-bit one where the same
    // vectors are made dense (an orthogonal turn keeps every cosine).
    const tools: Tool[] = Array.from({ length: 2000 }, (_, i) => ({
      name: `tool_${i}`,
      description: i < 20 ? `apple gadget ${i}` : `widget ${i}`,
      groups: [i >= 20 && i < 26 ? 'close' : 'rest'],
    }));
    const cosineOf = (i: number): number => (i < 20 ? 0.9 : i < 26 ? 0.7 + 1e-3 : i < 56 ? 0.7 - 1e-3 : 0);
    const vectorOf = (text: string, kind: 'tool' | 'query'): number[] => {
      const v = new Array<number>(128).fill(0);
      const i = Number(/tool (\d+)/.exec(text)?.[1]);
      const c = kind === 'query' ? 1 : cosineOf(i);
      v[0] = c;
      if (c < 1) v[1 + (i % 127)] = Math.sqrt(1 - c * c);
      return v;
    };
    // A Householder reflection (v - 2 (u.v) u, u a dense unit vector) turns each sparse vector into a dense one.
    const u = Array.from({ length: 128 }, (_, j) => Math.cos(j + 1) / 8);
    const uNorm = Math.sqrt(u.reduce((a, x) => a + x * x, 0));
    const turned = (text: string, kind: 'tool' | 'query'): number[] => {
      const v = vectorOf(text, kind);
      const along = (2 * v.reduce((a, x, j) => a + x * (u[j] as number), 0)) / (uNorm * uNorm);
      return v.map((x, j) => x - along * (u[j] as number));
    };
    for (const model of [vectorOf, turned]) {
      const layer = createToolSearch({
        ...quiet(),
        maxSearchResults: 0,
        semantic: { embed: countingEmbed(model).embed, minSimilarity: 0.7 },
      });
      const all = ok(await layer.search({ sessionId: 's', tools }, { query: 'apple', limit: 100 }));
      const over = tools.filter((_, i) => cosineOf(i) >= 0.7).map((t) => t.name);
      expect(all.found).toBe(over.length);
      expect(new Set(names(all.tools))).toEqual(new Set(over));
      const rest = ok(
        await layer.search({ sessionId: 's', tools, enabledGroups: ['rest'] }, { query: 'apple', limit: 100 }),
      );
      expect(rest.found).toBe(20);
      expect(names(rest.tools).every((name) => Number(name.slice(5)) < 20)).toBe(true);
      // Six visible tools (a sample of the step-th positions holds too few): no keyword matches, the floor finds them all.
      const close = ok(
        await layer.search({ sessionId: 's', tools, enabledGroups: ['close'] }, { query: 'apple', limit: 100 }),
      );
      expect(close.found).toBe(6);
      expect(new Set(names(close.tools))).toEqual(new Set(over.slice(20)));
    }
  });
});

describe('the ranker hook with learning on', () => {
  it('is reordered by what learning learned, and searches in flight at once answer as one at a time', async () => {
    // The semantic ranking waits on the embedder, so the learned values wait with it.
    const tools = [...catalogue];
    const semantic = { embed: countingEmbed().embed };
    const learning = createToolSearch({ ...quiet(), semantic, learn: true, store: createMemoryStore() });
    const plain = createToolSearch({ ...quiet(), semantic });
    for (const [i, [query, called]] of taught.entries())
      await learning.prepare({ sessionId: `taught-${i}`, tools, messages: turn(query, called) });
    await learning.flush();
    const first = async (layer: typeof plain, query: string) =>
      names(ok(await layer.search({ sessionId: 'ask', tools }, { query })).tools)[0];
    const alone: (string | undefined)[] = [];
    for (const query of asked) alone.push(await first(learning, query));
    // The third request's sessions used both tools of one set: either may come first.
    expect(alone.slice(0, 2)).toEqual(['get_forecast', 'write_file']);
    expect(['create_event', 'send_email']).toContain(alone[2]);
    expect(await Promise.all(asked.map((query) => first(plain, query)))).not.toEqual(alone);
    for (let round = 0; round < 3; round++)
      expect(await Promise.all(asked.map((query) => first(learning, query)))).toEqual(alone);
  });
});
