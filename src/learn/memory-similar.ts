// The memory's similarity: the past requests that share a query's terms, scored by BM25 over every term the memory
// knows, as the ranker scores tools. The rarer terms find the candidates; a common term only adds to them, read
// through each request's place among the candidates or, for a term far commoner than the candidates, a bitset of the
// requests that hold it.
import { grown } from './grown.ts';
import { type MemoryEntries, queryNumbers, setBit } from './memory-entries.ts';
import { createLayout, type Layout, layOut, lengthFactor } from './memory-layout.ts';
import { isStopwordHash } from './term-hash.ts';

/**
 * Past requests a search scores at most: its rarer terms find them, every other term adds to those found. 128 scored
 * as 256 on the eight shared sets, but cost ToolLens's memory (12,300 requests) 2.3 points with the sets off, and
 * measured no faster (bench/TUNING.md).
 */
const CANDIDATES = 256;

/** The candidates of one query: entry ids and similarities by candidate (the first `count`), and the largest. */
export interface Similar {
  readonly count: number;
  readonly nearest: number;
  readonly found: Int32Array;
  readonly sims: Float64Array;
}

/**
 * A query's terms as a search reads them, as of load `at`: for each of the first `count`, three integers in `terms`
 * (its number and the bounds of its ids in the laid-out postings) and its weight in `w`, and the weights' sum. The
 * integers in one array, not one per field: a kept plan is made for every query asked twice, and each typed array
 * made costs a search about half a microsecond.
 */
interface Plan {
  at: number;
  count: number;
  /** The terms that find candidates, the first: a stopword (after them) only adds to what a term found. */
  finders: number;
  terms: Int32Array;
  w: Float64Array;
  most: number;
}

/** A plan with room for `size` terms. */
const planFor = (size: number): Plan => ({
  at: 0,
  count: 0,
  finders: 0,
  terms: new Int32Array(3 * size),
  w: new Float64Array(size),
  most: 0,
});

/**
 * Queries remembered as asked, by their terms array in one of two slots a fingerprint of its terms picks: a query's
 * plan is kept from its second ask. A new query's plan is made in scratch arrays: most requests come once, and a plan
 * kept for each would cost two arrays and a WeakMap entry. Only the same array asked again counts as asked twice (the
 * learner gives the same array for the same query text while it keeps the query): a plan is found by its array, so
 * one kept for another array with the same terms (the same words sent again with other spacing) was never read, and
 * cost a search about 3 us every second ask. About as many slots as the learner keeps queries: an array it dropped
 * cannot come back.
 */
const ASKED = 2048;

/**
 * Places in the scores that take what non-candidates would add, in turn by posting: a common term's list adds to
 * them more often than to any candidate, and each add to one place waits on the one before it (its store, then the
 * sum), where adds to eight places in turn overlap. Never read.
 */
const SPREAD = 8;

/**
 * Scratch, zeroed after each query: by entry id its candidate's place plus SPREAD (0 for none), and by candidate its
 * id, its score (at its place plus SPREAD) and similarity.
 */
const scratchFor = (size: number) => ({
  slot: new Int32Array(size),
  found: new Int32Array(size),
  score: new Float64Array(size + SPREAD),
  sims: new Float64Array(size),
});

/** Creates the similarity over a memory index's entries (its scratch arrays, by entry id, by candidate and by term, kept between queries and grown with the memory). */
export function createSimilar(s: MemoryEntries): (terms: readonly number[], skip: number | undefined) => Similar {
  let scratch = scratchFor(0);
  let order = new Float64Array(0);
  let termAt = new Int32Array(0);
  const plans = new WeakMap<readonly number[], Plan>();
  const asked: (readonly number[] | undefined)[] = new Array(ASKED).fill(undefined);
  let spare = planFor(32);
  // The postings laid out by term, as of the last load a search saw.
  let laid = createLayout();
  // By request length, its length factor in that layout (0: not computed yet, as a factor is positive), as of load
  // `factorsAt`: a search scores 256 candidates of a few dozen lengths, and each factor takes two divisions.
  let factors = new Float64Array(64);
  let factorsAt = -1;

  /**
   * The query's distinct terms the memory knows, rarest first (ties: first in the query), as term numbers and IDF
   * weights, and the weights' sum: kept per query's terms (the same array from the learner's cache) until the next
   * load, which alone changes term numbers and document frequencies; from its second ask (a new query's is made in a
   * scratch plan).
   */
  function planOf(terms: readonly number[], live: number, { bounds }: Layout): Plan {
    let plan = plans.get(terms);
    if (plan?.at === s.loads) return plan;
    if (!plan) {
      let print = terms.length;
      for (const term of terms) print = Math.imul(print ^ term, 0x9e3779b1);
      // Two slots a query may take: two queries rarely share both (asked in turn, they would evict each other).
      const a = (print >>> 20) & (ASKED - 1);
      const b = (print >>> 8) & (ASKED - 1);
      if (asked[a] === terms) asked[a] = undefined;
      else if (asked[b] === terms) asked[b] = undefined;
      else {
        asked[asked[a] === undefined ? a : b] = terms;
        plan = spare;
      }
    }
    if (order.length < terms.length) [order, termAt] = [new Float64Array(terms.length), new Int32Array(terms.length)];
    // The terms' numbers first (the sets' vote reads them too), then their counts: each lookup waits on no other's.
    const { numbers, hashes, count: distinct } = queryNumbers(s, terms);
    let q = 0;
    let finders = 0;
    // Past every term's order: the stopwords sort after the terms (a request found by "for" alone is no neighbour).
    const after = (live + 1) * terms.length;
    for (let j = 0; j < distinct; j++) {
      const t = numbers[j] as number;
      // The term's live requests, as its region holds them (the entries' count, without a read of its own).
      const n = 2 * t < bounds.length ? (bounds[2 * t + 1] as number) - (bounds[2 * t] as number) : 0;
      if (n === 0) continue;
      const stop = isStopwordHash(hashes[j] as number);
      if (!stop) finders++;
      // df and place in one exact number, so a plain numeric sort orders them (below 2^53 for any memory).
      order[q] = (stop ? after : 0) + n * terms.length + q;
      termAt[q++] = t;
    }
    // A query has a few dozen terms: insertion sorts them faster than a call to sort.
    if (q > 64) order.subarray(0, q).sort();
    else
      for (let j = 1; j < q; j++) {
        const key = order[j] as number;
        let i = j;
        for (; i > 0 && (order[i - 1] as number) > key; i--) order[i] = order[i - 1] as number;
        order[i] = key;
      }
    if (plan === spare && plan.w.length < q) plan = spare = planFor(2 * q);
    else if (!plan || plan.w.length < q) {
      plan = planFor(q);
      plans.set(terms, plan);
    }
    const out = plan.terms;
    const m = terms.length;
    let most = 0;
    for (let j = 0; j < q; j++) {
      const key = (order[j] as number) % after;
      const at = key % m;
      const n = (key - at) / m;
      const w = Math.log(1 + (live - n + 0.5) / (n + 0.5));
      most += w;
      const t = termAt[at] as number;
      out[3 * j] = t;
      out[3 * j + 1] = bounds[2 * t] as number;
      out[3 * j + 2] = bounds[2 * t + 1] as number;
      plan.w[j] = w;
    }
    plan.at = s.loads;
    plan.count = q;
    plan.finders = finders;
    plan.most = most;
    return plan;
  }

  /** A term's ids as a bitset, made from its list the first time a vote asks (the entries keep it up to date). */
  function bitsOf(t: number): Uint32Array {
    let bits = s.bits[t];
    if (!bits) {
      bits = new Uint32Array((s.entries.length >>> 5) * 2 + 2);
      for (const id of s.postings[t] as number[]) bits = setBit(bits, id);
      s.bits[t] = bits;
    }
    return bits;
  }

  /**
   * The past requests that hold any of the query's terms, scored by BM25 over every term the memory knows (IDF from
   * the remembered requests, saturation and length as the ranker's), each over the query's own score (at most 1), and
   * the largest: `found` and `sims` hold them by candidate. Requests of the session `skip` score -1.
   */
  function similar(terms: readonly number[], skip: number | undefined): Similar {
    const { entries } = s;
    const live = entries.length - s.dead;
    if (scratch.slot.length < entries.length) scratch = scratchFor(entries.length * 2);
    // Locals, not the closure's variables: the loops below read them a thousand times and more.
    const { slot, found, score, sims } = scratch;
    if (live === 0) return { count: 0, nearest: 0, found, sims };
    laid = layOut(laid, s, live);
    // A query of no terms finds nothing: it only lays the postings out (what a write's warm asks), and takes no
    // slot among the queries asked.
    if (terms.length === 0) return { count: 0, nearest: 0, found, sims };
    const { ids } = laid;
    const { lengths } = s;
    const plan = planOf(terms, live, laid);
    const read = plan.terms;
    // Each term's first id read before any list is: the lists' first lines are fetched together, not each when its
    // loop begins (most lists are a line or two, and the keyword stage pushed them out of the cache). Stored where
    // non-candidates' adds go (never read), so the reads are not left out as unused.
    let first = 0;
    for (let j = 0; j < plan.count; j++) first |= ids[read[3 * j + 1] as number] as number;
    score[0] = first;
    // The rarer terms find the candidates; once there are enough, a common term only adds to those already found, as
    // a stopword always does.
    let count = 0;
    const { finders } = plan;
    for (let j = 0; j < plan.count; j++) {
      const w = plan.w[j] as number;
      const from = read[3 * j + 1] as number;
      const to = read[3 * j + 2] as number;
      if (j < finders && count < CANDIDATES)
        for (let i = from; i < to; i++) {
          const id = ids[i] as number;
          // Without a branch (about two in three ids are new, in no pattern a branch predicts): an id is written at
          // `count` whether new or not, and `count` moves past it only if it was new (fresh -1: was 0).
          const was = slot[id] as number;
          const fresh = (was - 1) >> 31;
          found[count] = id;
          const k = was | (fresh & (count + SPREAD));
          slot[id] = k;
          count -= fresh;
          score[k] = (score[k] as number) + w;
        }
      // A common term's long list mostly holds requests that are not candidates: the places below SPREAD take what
      // they would add, in turn (no branch: which requests are candidates follows no pattern a branch predicts), and a
      // list much longer than the candidates gives way to testing each candidate against its bitset (w times 1 is w
      // exactly).
      else if (to - from <= 2 * count || s.repeats > 0)
        for (let i = from; i < to; i++) {
          const k = slot[ids[i] as number] as number;
          // k, or for a non-candidate (k 0: k - 1 is negative) i's place below SPREAD.
          const at = k | (((k - 1) >> 31) & i & (SPREAD - 1));
          score[at] = (score[at] as number) + w;
        }
      else {
        const bits = bitsOf(read[3 * j] as number);
        for (let k = 0; k < count; k++) {
          const id = found[k] as number;
          score[k + SPREAD] = (score[k + SPREAD] as number) + w * (((bits[id >>> 5] as number) >>> (id & 31)) & 1);
        }
      }
    }
    const { most } = plan;
    if (factorsAt !== laid.at) {
      factors.fill(0);
      factorsAt = laid.at;
    }
    let nearest = Number.NEGATIVE_INFINITY;
    // By hand: a call to fill costs more than eight stores.
    for (let i = 0; i < SPREAD; i++) score[i] = 0;
    for (let k = 0; k < count; k++) {
      const id = found[k] as number;
      const length = lengths[id] as number;
      if (length >= factors.length) factors = grown(factors, 2 * length);
      let factor = factors[length] as number;
      if (factor === 0) {
        factor = lengthFactor(laid, length);
        factors[length] = factor;
      }
      let sim = Math.min(1, ((score[k + SPREAD] as number) * factor) / most);
      score[k + SPREAD] = 0;
      slot[id] = 0;
      if (skip !== undefined && s.sessions[id] === skip) sim = -1;
      sims[k] = sim;
      if (sim > nearest) nearest = sim;
    }
    return { count, nearest, found, sims };
  }

  return similar;
}
