// A word-level model trained on ToolLens's training split, alone: what a softmax over tools reaches from a request's
// words, on the ranker's terms (stop words dropped), on those and the stop words, and on every word (stop words
// kept). bench/TUNING.md ("A softmax over tools trained on the memory's terms") quotes it: it is the evidence that the
// recall@5 of 95 issue 40 asks for is reached by a word-level model only with the words the ranker drops. Nothing in
// src/ uses it.
//
// The model: a weight per (term, tool) pair that some fed request held (no other pair, no bias), a request's terms
// weighted by their IDF over the fed requests and scaled to unit length, trained by plain SGD on the cross-entropy of
// a softmax over every tool, the target spread evenly over the request's tools, the requests in a shuffled order each
// epoch. Terms held by a single request are left out.
//
//   TOOLLENS_DIR=/path/to/ToolLens npx tsx bench/toollens-trained.ts [--epochs 10] [--rate 2]

import { termHash } from '../src/learn/memory.ts';
import { queryTerms } from '../src/search/rank.ts';
import { isStopword } from '../src/search/stopwords.ts';
import type { BenchQuery } from './data.ts';
import { shuffled } from './learn-sim.ts';
import { loadToolLens } from './toollens.ts';

const argument = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};

/** A request as the model reads it: its distinct terms' numbers, and the numbers of the tools it used. */
interface Example {
  readonly terms: readonly number[];
  readonly tools: readonly number[];
}

/** A tokenizer the model is trained on: a request's terms. */
type Words = (text: string) => readonly string[];

/** The ranker's terms, as the memory keeps them (hashed), as text for the model's numbering. */
const rankerTerms: Words = (text) => queryTerms(text).map((term) => String(termHash(term)));

/** The ranker's terms and, apart from them, the query's stop words (its lower-cased runs of a-z that are stop words). */
const rankerTermsAndStopwords: Words = (text) => [
  ...rankerTerms(text),
  ...(text.toLowerCase().match(/[a-z]+/g) ?? []).filter(isStopword).map((w) => `~${w}`),
];

/** Every word: lower-cased runs of letters and digits, a crude suffix stripped, stop words kept; or without them. */
const everyWord =
  (keepStopwords: boolean): Words =>
  (text) =>
    (text.toLowerCase().match(/[a-z0-9]+/g) ?? [])
      .filter((w) => keepStopwords || !isStopword(w))
      .map((w) => {
        for (const suffix of ['ing', 'es', 's', 'ed', 'ly'])
          if (w.length > suffix.length + 2 && w.endsWith(suffix)) return w.slice(0, -suffix.length);
        return w;
      });

/** Recall@5 and C@5 of the model after each epoch that `report` names, and the seconds its training took. */
function run(words: Words, train: readonly BenchQuery[], test: readonly BenchQuery[], toolNames: readonly string[]) {
  const epochs = argument('--epochs', 10);
  const rate = argument('--rate', 2);
  const toolNo = new Map(toolNames.map((name, i) => [name, i]));
  const tools = toolNames.length;
  const termNo = new Map<string, number>();
  const read = (text: string, add: boolean): number[] => {
    const out: number[] = [];
    for (const term of new Set(words(text))) {
      let n = termNo.get(term);
      if (n === undefined && add) {
        n = termNo.size;
        termNo.set(term, n);
      }
      if (n !== undefined) out.push(n);
    }
    return out;
  };
  const examples: Example[] = shuffled(train, 0x5eed).map((q) => ({
    terms: read(q.query, true),
    tools: q.relevant.flatMap((name) => toolNo.get(name) ?? []),
  }));
  const terms = termNo.size;
  const df = new Float64Array(terms);
  for (const e of examples) for (const t of e.terms) df[t] = (df[t] as number) + 1;
  const idf = Float64Array.from(df, (d) => (d >= 2 ? Math.log(examples.length / d) : 0));
  const weighted = (held: readonly number[]): number[] => {
    const x = held.map((t) => idf[t] ?? 0);
    const norm = Math.hypot(...x) || 1;
    return x.map((v) => v / norm);
  };
  // The pairs by term, in one flat array: pairs[start[t] .. start[t + 1]) are term t's tools.
  const lists: Set<number>[] = Array.from({ length: terms }, () => new Set());
  for (const e of examples)
    for (const t of e.terms) if ((idf[t] as number) > 0) for (const k of e.tools) lists[t]?.add(k);
  const start = new Int32Array(terms + 1);
  for (let t = 0; t < terms; t++) start[t + 1] = (start[t] as number) + (lists[t] as Set<number>).size;
  const pairTool = new Int32Array(start[terms] as number);
  for (let t = 0; t < terms; t++) pairTool.set([...(lists[t] as Set<number>)], start[t] as number);
  const weight = new Float64Array(pairTool.length);
  // Per tool, its score for the request at hand; the tools that have one, and each one's place in that list.
  const z = new Float64Array(tools);
  const place = new Int32Array(tools).fill(-1);
  const touched: number[] = [];
  const score = (held: readonly number[], x: readonly number[]): void => {
    for (const k of touched) place[k] = -1;
    touched.length = 0;
    for (let i = 0; i < held.length; i++) {
      const t = held[i] as number;
      const v = x[i] as number;
      if (v === 0) continue;
      for (let p = start[t] as number; p < (start[t + 1] as number); p++) {
        const k = pairTool[p] as number;
        if (place[k] === -1) {
          place[k] = touched.length;
          touched.push(k);
          z[k] = 0;
        }
        z[k] = (z[k] as number) + v * (weight[p] as number);
      }
    }
  };
  const xs = examples.map((e) => weighted(e.terms));
  const order = examples.map((_, i) => i);
  let seed = 7;
  const random = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  let seconds = 0;
  const rows: string[] = [];
  for (let epoch = 1; epoch <= epochs; epoch++) {
    const began = performance.now();
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j] as number, order[i] as number];
    }
    for (const r of order) {
      const e = examples[r] as Example;
      const x = xs[r] as number[];
      score(e.terms, x);
      // The tools without a score have 0: they count in the softmax's sum, each as exp(0).
      let top = 0;
      for (const k of touched) top = Math.max(top, z[k] as number);
      let sum = (tools - touched.length) * Math.exp(-top);
      for (const k of touched) sum += Math.exp((z[k] as number) - top);
      // z becomes the gradient's factor per tool: its probability less its share of the target.
      for (const k of touched) z[k] = Math.exp((z[k] as number) - top) / sum;
      for (const k of e.tools) if (place[k] !== -1) z[k] = (z[k] as number) - 1 / e.tools.length;
      for (let i = 0; i < e.terms.length; i++) {
        const t = e.terms[i] as number;
        const v = x[i] as number;
        if (v === 0) continue;
        for (let p = start[t] as number; p < (start[t + 1] as number); p++)
          weight[p] = (weight[p] as number) - rate * v * (z[pairTool[p] as number] as number);
      }
    }
    seconds += (performance.now() - began) / 1000;
    if (epoch !== epochs && epoch % 5 !== 0) continue;
    let recall = 0;
    let complete = 0;
    for (const q of test) {
      const held = read(q.query, false);
      score(held, weighted(held));
      const top5 = [...touched].sort((a, b) => (z[b] as number) - (z[a] as number) || a - b).slice(0, 5);
      const needed = q.relevant.flatMap((name) => toolNo.get(name) ?? []);
      const found = needed.filter((k) => top5.includes(k)).length;
      recall += found / needed.length;
      if (found === needed.length) complete++;
    }
    rows.push(
      `${epoch} epochs: recall@5 ${((100 * recall) / test.length).toFixed(1)}, C@5 ${((100 * complete) / test.length).toFixed(1)}, trained in ${seconds.toFixed(1)} s`,
    );
  }
  return { terms, pairs: pairTool.length, rows };
}

const dir = process.env.TOOLLENS_DIR ?? process.argv[2];
if (!dir || dir.startsWith('--'))
  throw new Error('Set TOOLLENS_DIR to ToolLens (github.com/quchangle1/COLT, datasets/ToolLens).');
const { tools, train, test } = loadToolLens(dir);
const names = tools.map((t) => t.name);
for (const [label, words] of [
  ["the ranker's terms", rankerTerms],
  ["the ranker's terms and the stop words", rankerTermsAndStopwords],
  ['every word, stop words kept', everyWord(true)],
  ['every word but the stop words', everyWord(false)],
] as const) {
  const { terms, pairs, rows } = run(words, train, test, names);
  console.log(`${label} (${terms} terms, ${pairs} pairs):\n  ${rows.join('\n  ')}`);
}
