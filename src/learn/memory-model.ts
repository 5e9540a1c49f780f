// The memory's trained part: a softmax over the tools its requests used, with a weight per (term, tool) pair some
// remembered request held, trained on the memory's own requests (their hashed terms and stopwords, the tools each
// used). Where the vote of the most similar requests counts what a few neighbours used, the model weighs every word
// against every other request that held it, and learns which words tell apart requests written from one template
// (bench/TUNING.md: 95.1 / 91.3 alone on ToolLens, where the memory's neighbours reach 88). It trains in the background
// in slices, an epoch each time the memory grows by a sixteenth, and speaks as loudly as its record on a sample of
// requests it was never trained on.
import { keepFirst } from './first-few.ts';
import { type Entry, keyOf, type MemoryEntries } from './memory-entries.ts';
import { sampleRank } from './memory-vote.ts';

/** The model's vote by tool id: `votes[i]` (its probability, 0 to 1) is the vote of tool `ids[i]`. */
export interface ModelVotes {
  readonly ids: readonly number[];
  readonly votes: readonly number[];
}

/** A memory's trained model. */
export interface MemoryModel {
  /**
   * The `top` most probable tools for the query's hashed terms among a catalogue's `tools`, by their ids in it (whose
   * names are `byName`). Valid until the next vote.
   */
  vote(terms: readonly number[], top: number, tools: number, byName: ReadonlyMap<string, number>): ModelVotes;
  /** How often its first tools are those a held-out request used (0 to 1; 0 until it first trained). */
  reliability(): number;
  /** Trains for a slice (about `budget` pair updates); whether training remains. */
  train(budget: number): boolean;
  /** Whether training is due: an epoch under way, or the memory changed enough since the last began. */
  due(): boolean;
}

/**
 * How the model's vote is formed: its `top` most probable tools, scaled by a power of its reliability (`calibrate`:
 * a record of 0.9 keeps 43% of the weight, one of 0.55 under 1%); below `least`, it is not taken at all.
 */
export const MODEL_VOTE: { readonly top: number; readonly calibrate: number; readonly least: number } = {
  top: 10,
  calibrate: 8,
  least: 0.01,
};

/**
 * Requests held out of training, on which the model is judged: those whose sampleRank falls in the first sixteenth of
 * its range, the same requests at every epoch (a request trained on once and judged later would flatter the model),
 * at most SAMPLES of them, the first by rank.
 */
const HELD_OUT = 2 ** 32 / 16;
const SAMPLES = 256;
/** Epochs a model that never trained takes at once; later, one per sixteenth of growth (bench/TUNING.md). */
const FIRST_EPOCHS = 5;
/** The step of plain gradient descent (bench/toollens-trained.ts: the first rate that converged). */
const RATE = 2;
/**
 * A record below which the model speaks under a hundredth of its default weight (0.3 to the eighth power, times 128):
 * such a model trains again only once the memory changed by as many requests as it holds, not by a sixteenth.
 */
const QUIET = 0.3;
/** What a term looked up in the model's numbers counts for in a slice's budget, against one pair read or updated. */
const LOOKUP = 32;
/** Fewest requests the model trains on: below, it stays silent. */
const LEAST = 32;

/** An example as one epoch reads it: its terms' numbers and weights (IDF, unit length) and its tools' numbers. */
interface Example {
  readonly terms: Int32Array;
  readonly x: Float64Array;
  readonly tools: Int32Array;
}

/** A term's pairs: the tools some request with it used, and their weights, the first `n`. */
interface Pairs {
  tools: Int32Array;
  w: Float64Array;
  n: number;
}

/** Creates the trained model over a memory index's entries (it reads them when it trains). */
export function createModel(s: MemoryEntries): MemoryModel {
  // Its own numbers for terms and tools: the entries renumber theirs when they compact.
  const termNo = new Map<number, number>();
  const pairs: Pairs[] = [];
  let idf = new Float64Array(64);
  const toolNo = new Map<string, number>();
  const toolNames: string[] = [];
  // Requests whose pairs were made: an epoch makes those of the new ones only.
  const paired = new WeakSet<Entry>();
  // The epoch under way: its examples in a shuffled order, and how far it went.
  let examples: Example[] = [];
  let next = 0;
  // The requests the epoch under way trains on, and how many of them are made examples yet (made in slices too: a
  // cold memory's first epoch makes thousands of pairs).
  let pending: Entry[] = [];
  // The memory's changes when the epoch's requests were listed.
  let begun = -1;
  let counted = 0;
  let df = new Int32Array(64);
  let made = 0;
  // Each request's terms by the model's numbers, made once.
  const numbered = new WeakMap<Entry, Int32Array>();
  let epochsLeft = 0;
  let trainedAt: number | undefined;
  let started: number | undefined;
  let sample: Entry[] = [];
  let judged = 0;
  let seed = 7;
  // Scratch by tool number: its score, its place among the tools scored (-1: none), and those tools.
  let z = new Float64Array(64);
  let place = new Int32Array(64).fill(-1);
  let touched = new Int32Array(64);
  let count = 0;

  const toolNumber = (name: string): number => {
    let k = toolNo.get(name);
    if (k === undefined) {
      k = toolNames.length;
      toolNo.set(name, k);
      toolNames.push(name);
      if (k >= z.length) {
        const size = z.length * 2;
        z = new Float64Array(size);
        place = new Int32Array(size).fill(-1);
        touched = new Int32Array(size);
      }
    }
    return k;
  };

  /** Scores every tool the terms pair with (`z`, listed in `touched`); the number of pair reads. */
  function score(terms: Int32Array, x: Float64Array): number {
    for (let i = 0; i < count; i++) place[touched[i] as number] = -1;
    count = 0;
    let reads = 0;
    for (let i = 0; i < terms.length; i++) {
      const v = x[i] as number;
      if (v === 0) continue;
      // A term has pairs once a request trained on held it while its IDF was positive; one that never did adds nothing.
      const p = pairs[terms[i] as number];
      if (!p) continue;
      const { tools, w, n } = p;
      reads += n;
      for (let j = 0; j < n; j++) {
        const k = tools[j] as number;
        if (place[k] === -1) {
          place[k] = count;
          touched[count++] = k;
          z[k] = 0;
        }
        z[k] = (z[k] as number) + v * (w[j] as number);
      }
    }
    return reads;
  }

  /** Turns the scores into probabilities over the model's tools (those not scored count, each at a score of 0). */
  function softmax(): void {
    let top = 0;
    for (let i = 0; i < count; i++) top = Math.max(top, z[touched[i] as number] as number);
    let sum = (toolNames.length - count) * Math.exp(-top);
    for (let i = 0; i < count; i++) {
      const k = touched[i] as number;
      const e = Math.exp((z[k] as number) - top);
      z[k] = e;
      sum += e;
    }
    for (let i = 0; i < count; i++) {
      const k = touched[i] as number;
      z[k] = (z[k] as number) / sum;
    }
  }

  // Scratch for a query's terms and weights (a vote reads one query at a time, and keeps nothing of it).
  let heldTerms = new Int32Array(64);
  let heldX = new Float64Array(64);

  /** A request's known terms as numbers with their weights (IDF, scaled to unit length), in the scratch arrays. */
  function weigh(hashes: readonly number[]): { terms: Int32Array; x: Float64Array } {
    if (heldTerms.length < hashes.length) {
      heldTerms = new Int32Array(hashes.length * 2);
      heldX = new Float64Array(hashes.length * 2);
    }
    let n = 0;
    let norm = 0;
    for (const hash of hashes) {
      const t = termNo.get(hash);
      if (t === undefined) continue;
      const v = idf[t] as number;
      if (v === 0) continue;
      let seen = 0;
      while (seen < n && heldTerms[seen] !== t) seen++;
      if (seen < n) continue;
      heldTerms[n] = t;
      heldX[n++] = v;
      norm += v * v;
    }
    norm = Math.sqrt(norm) || 1;
    for (let i = 0; i < n; i++) heldX[i] = (heldX[i] as number) / norm;
    return { terms: heldTerms.subarray(0, n), x: heldX.subarray(0, n) };
  }

  /** The pair of term t and tool k: made, with a weight of 0, if none is. */
  function pair(t: number, k: number): void {
    let p = pairs[t];
    if (!p) {
      p = { tools: new Int32Array(4), w: new Float64Array(4), n: 0 };
      pairs[t] = p;
    }
    for (let j = 0; j < p.n; j++) if (p.tools[j] === k) return;
    if (p.n === p.tools.length) {
      const tools = new Int32Array(p.n * 2);
      tools.set(p.tools);
      const w = new Float64Array(p.n * 2);
      w.set(p.w);
      p.tools = tools;
      p.w = w;
    }
    p.tools[p.n] = k;
    p.w[p.n++] = 0;
  }

  /** Starts an epoch: the live requests but those held out, and their terms' IDF (`make` then makes their examples). */
  function begin(): void {
    begun = s.changes;
    const train: Entry[] = [];
    const chosen: { entry: Entry; rank: number }[] = [];
    for (const entry of s.entries) {
      if (!entry || entry.tools.length === 0) continue;
      const rank = sampleRank(entry);
      if (rank >= HELD_OUT) train.push(entry);
      else keepFirst(chosen, { entry, rank }, SAMPLES, (a, b) => a.rank - b.rank || keyOf(a.entry) - keyOf(b.entry));
    }
    sample = chosen.map((c) => c.entry);
    // In the order of their sessions and turns, then shuffled: the same memory trains alike however its pages hold it.
    train.sort((a, b) => keyOf(a) - keyOf(b));
    pending = train;
    counted = 0;
    df = new Int32Array(Math.max(64, termNo.size * 2));
    examples = [];
    made = 0;
    next = 0;
  }

  /** Shuffles the examples (the same seed sequence for the same memory). */
  function shuffle(): void {
    for (let i = examples.length - 1; i > 0; i--) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      const j = Math.floor((seed / 2 ** 32) * (i + 1));
      [examples[i], examples[j]] = [examples[j] as Example, examples[i] as Example];
    }
  }

  /** An entry's terms by the model's numbers (numbered when first met), kept while the entry lives. */
  function numbersOf(entry: Entry): Int32Array {
    let numbers = numbered.get(entry);
    if (!numbers) {
      numbers = Int32Array.from(entry.terms, (hash) => {
        let t = termNo.get(hash);
        if (t === undefined) {
          t = termNo.size;
          termNo.set(hash, t);
        }
        return t;
      });
      numbered.set(entry, numbers);
    }
    return numbers;
  }

  /**
   * Counts the epoch's terms' document frequencies, then makes its examples (their pairs made first), for about
   * `budget` pair reads (a term looked up counts as LOOKUP); what it spent.
   */
  function make(budget: number): number {
    let spent = 0;
    // Document frequencies over the requests trained on: a term one request holds is left out (it tells nothing).
    while (counted < pending.length && spent < budget) {
      const fresh = !numbered.has(pending[counted] as Entry);
      const numbers = numbersOf(pending[counted++] as Entry);
      spent += fresh ? LOOKUP * numbers.length : numbers.length;
      if (df.length < termNo.size) {
        const grown = new Int32Array(termNo.size * 2);
        grown.set(df);
        df = grown;
      }
      for (const t of numbers) df[t] = (df[t] as number) + 1;
    }
    if (counted < pending.length) return spent;
    if (made === 0 && examples.length === 0) {
      if (idf.length < termNo.size) idf = new Float64Array(termNo.size * 2);
      for (let t = 0; t < termNo.size; t++) {
        const d = t < df.length ? (df[t] as number) : 0;
        idf[t] = d >= 2 ? Math.log(pending.length / d) : 0;
      }
    }
    while (made < pending.length && spent < budget) {
      const entry = pending[made++] as Entry;
      const numbers = numbersOf(entry);
      const held: number[] = [];
      let norm = 0;
      for (const t of numbers) {
        const v = idf[t] as number;
        if (v === 0) continue;
        held.push(t);
        norm += v * v;
      }
      norm = Math.sqrt(norm) || 1;
      const terms = Int32Array.from(held);
      const x = Float64Array.from(held, (t) => (idf[t] as number) / norm);
      const tools = Int32Array.from(entry.tools, toolNumber);
      spent += 4 * numbers.length;
      if (!paired.has(entry)) {
        for (const t of terms)
          for (const k of tools) {
            pair(t, k);
            spent += pairs[t]?.n ?? 0;
          }
        paired.add(entry);
      }
      examples.push({ terms, x, tools });
    }
    if (made < pending.length) return spent;
    // All made: shuffled, the requests' own order fixed first (begin), so the same memory trains alike.
    shuffle();
    pending = [];
    return spent;
  }

  /** One step of descent on an example: the cross-entropy of the softmax against its tools, shared evenly. */
  function step({ terms, x, tools }: Example): number {
    const reads = score(terms, x);
    softmax();
    for (const k of tools) if (place[k] !== -1) z[k] = (z[k] as number) - 1 / tools.length;
    for (let i = 0; i < terms.length; i++) {
      const v = RATE * (x[i] as number);
      if (v === 0) continue;
      const p = pairs[terms[i] as number];
      if (!p) continue;
      const { tools: paired, w, n } = p;
      for (let j = 0; j < n; j++) w[j] = (w[j] as number) - v * (z[paired[j] as number] as number);
    }
    return 2 * reads;
  }

  /** The share of each sampled request's tools among the model's first as many, averaged. */
  function judge(): number {
    let sum = 0;
    const first: number[] = [];
    const byScore = (a: number, b: number) => (z[b] as number) - (z[a] as number) || a - b;
    for (const entry of sample) {
      const q = weigh(entry.terms);
      score(q.terms, q.x);
      first.length = 0;
      for (let i = 0; i < count; i++) keepFirst(first, touched[i] as number, entry.tools.length, byScore);
      const named = first.map((k) => toolNames[k]);
      sum += entry.tools.filter((tool) => named.includes(tool)).length / entry.tools.length;
    }
    return sample.length === 0 ? 0 : sum / sample.length;
  }

  /**
   * Whether the memory changed enough since the last epoch began for another to begin: by a sixteenth, or, for a
   * model whose record keeps it silent (below QUIET), by as many requests as it holds.
   */
  const stale = (): boolean =>
    epochsLeft === 0 &&
    s.entries.length - s.dead >= LEAST &&
    (started === undefined || (s.changes - started) * (judged < QUIET ? 1 : 16) > s.latest.size);

  // By catalogue, the ids of the model's tools (-1 for a tool it lacks), extended as tools are numbered.
  const idsByCatalogue = new WeakMap<ReadonlyMap<string, number>, number[]>();
  const out = { ids: [] as number[], votes: [] as number[] };
  let best = new Int32Array(16);

  return {
    vote(hashes, top, tools, byName) {
      out.ids.length = 0;
      out.votes.length = 0;
      if (trainedAt === undefined) return out;
      const q = weigh(hashes);
      if (q.terms.length === 0) return out;
      score(q.terms, q.x);
      let ids = idsByCatalogue.get(byName);
      if (!ids) {
        ids = [];
        idsByCatalogue.set(byName, ids);
      }
      for (let k = ids.length; k < toolNames.length; k++) ids.push(byName.get(toolNames[k] as string) ?? -1);
      // The `top` best scores, by insertion (ties: the lower number), and the softmax's sum over the catalogue's
      // tools (those the memory never saw used are as likely as any it knows nothing of): a query whose words the
      // model hardly knows spreads its probability over them all, and names no tool loudly.
      if (best.length < top) best = new Int32Array(top);
      let kept = 0;
      let most = 0;
      for (let i = 0; i < count; i++) {
        const k = touched[i] as number;
        const zk = z[k] as number;
        if (zk > most) most = zk;
        if (kept === top && !(zk > (z[best[top - 1] as number] as number))) continue;
        let at = kept < top ? kept++ : top - 1;
        for (; at > 0; at--) {
          const b = best[at - 1] as number;
          const zb = z[b] as number;
          if (zb > zk || (zb === zk && b < k)) break;
          best[at] = b;
        }
        best[at] = k;
      }
      let sum = Math.max(0, Math.max(toolNames.length, tools) - count) * Math.exp(-most);
      for (let i = 0; i < count; i++) sum += Math.exp((z[touched[i] as number] as number) - most);
      for (let i = 0; i < kept; i++) {
        const k = best[i] as number;
        const id = ids[k] as number;
        if (id < 0) continue;
        out.ids.push(id);
        out.votes.push(Math.exp((z[k] as number) - most) / sum);
      }
      return out;
    },
    reliability: () => (trainedAt === undefined ? 0 : judged),
    due: () => epochsLeft > 0 || stale(),
    train(budget) {
      if (epochsLeft === 0) {
        if (!stale()) return false;
        epochsLeft = started === undefined ? FIRST_EPOCHS : 1;
        started = s.changes;
        begin();
      }
      let spent = 0;
      while (spent < budget) {
        if (pending.length > 0) {
          spent += make(budget - spent);
          continue;
        }
        if (next === examples.length) {
          if (--epochsLeft === 0) {
            trainedAt = started;
            judged = judge();
            // Made again from the memory at the next epoch: the requests may have changed by then.
            examples = [];
            next = 0;
            return stale();
          }
          // The same requests as the epoch before (the first training's epochs, most often): shuffled again only.
          if (s.changes === begun) {
            shuffle();
            next = 0;
          } else begin();
          continue;
        }
        spent += step(examples[next++] as Example);
      }
      return true;
    },
  };
}
