// The tool sets' lengths (IDF-weighted, over their sessions), which the sets' vote divides by. A server that commits as
// it serves loads before nearly every search, and a commit changes few sets but moves the IDF of common terms and
// (most commits bring a new set) of every term: a length is kept across loads exact while nothing it is computed from
// changed, and as bounds once only the IDF did, so a search computes again only the lengths of the sets that may be
// its nearest (set-vote.ts `nearestSets`), and gets the answer every length computed afresh gives.
import type { MemoryEntries } from './memory-entries.ts';
import { buildPairs } from './set-pairs.ts';
import type { SetProfile, SetProfiles } from './set-profiles.ts';

/** A set's length over IDF-weighted term frequencies, as the profiles stand now (its terms in the order it holds them). */
export function setLength(p: SetProfiles, id: number): number {
  const set = p.byId[id] as SetProfile;
  const { cells, slot, term, count } = p.pairs;
  let sum = 0;
  for (const n of set.pairs.values()) {
    const held = cells[2 * (slot[n] as number) + 1] as number;
    // Taken out with a session while the sets are judged.
    if (held === 0) continue;
    sum += (Math.log(1 + p.live / (count[term[n] as number] as number)) * held) ** 2;
  }
  return Math.sqrt(sum) / (p.sizes[id] as number);
}

/**
 * A set's length as setLength computes it, from its terms' numbers and sessions as it held them when its length was
 * last computed and kept (`packed`: they stand while its length is kept, exact or as bounds), in the same order: one
 * read of a pair's term's count per pair, where the profiles take four that mostly miss the cache.
 */
function packedLength(p: SetProfiles, id: number, packed: Int32Array): number {
  const { count } = p.pairs;
  let sum = 0;
  for (let i = 0; i < packed.length; i += 2)
    sum += (Math.log(1 + p.live / (count[packed[i] as number] as number)) * (packed[i + 1] as number)) ** 2;
  return Math.sqrt(sum) / (p.sizes[id] as number);
}

/** Packs a set's terms' numbers and sessions (see packedLength) as the profiles hold them now. */
function pack(p: SetProfiles, id: number): void {
  const { cells, slot, term } = p.pairs;
  const set = p.byId[id] as SetProfile;
  const packed = new Int32Array(2 * set.pairs.size);
  let i = 0;
  for (const n of set.pairs.values()) {
    const held = cells[2 * (slot[n] as number) + 1] as number;
    // As setLength leaves it out.
    if (held === 0) continue;
    packed[i++] = term[n] as number;
    packed[i++] = held;
  }
  p.packed[id] = i === packed.length ? packed : packed.slice(0, i);
}

/** A set's length (setLength) computed again, kept as of load `at` (aside while the sets are judged). */
export function normOf(p: SetProfiles, id: number, at: number): number {
  const packed = p.kept[id] === 0 ? undefined : p.packed[id];
  const norm = packed ? packedLength(p, id, packed) : setLength(p, id);
  if (p.judging) {
    p.judgedNorms[id] = norm;
    p.judgedAt[id] = at;
    return norm;
  }
  if (!packed) pack(p, id);
  p.norms[id] = norm;
  p.normsAt[id] = at;
  p.kept[id] = 1;
  p.normsLive[id] = p.live;
  p.slackAt[id] = p.slack;
  const sum = (norm * (p.sizes[id] as number)) ** 2;
  p.sumLow[id] = sum * (1 - MARGIN);
  p.sumHigh[id] = sum * (1 + MARGIN);
  return norm;
}

/** The share a bound kept on a length is widened by at each step, past what rounding can move it. */
const MARGIN = 1e-12;

/** Whether a set's length kept (`norms`) is still exact: nothing it is computed from changed since. */
export const lengthStands = (p: SetProfiles, id: number): boolean =>
  p.kept[id] === 1 && p.normsLive[id] === p.live && p.slackAt[id] === p.slack;

/**
 * Bounds on a set's length kept only as bounds (SetProfiles `kept`), as the profiles stand now, into `out`: the lower
 * at 0, the upper at 1. A term's weight log(1 + live/count), over its weight with `was` sets in use, lies between 1
 * and live/was (the ratio moves monotonically with count, from live/was towards 1); so does the length. The moves of
 * common terms' sets since the bounds were set widen them by what they can have changed (COMMON).
 */
export function lengthBounds(p: SetProfiles, id: number, out: Float64Array): void {
  const { live } = p;
  const was = p.normsLive[id] as number;
  const size = p.sizes[id] as number;
  if (live !== widening.live || p.common !== widening.common)
    widening = { live, common: p.common, by: Math.log(1 + live / p.common) * (1 + MARGIN) };
  const widen = (p.slack - (p.slackAt[id] as number)) * widening.by * size * size;
  let low = p.sumLow[id] as number;
  let high = p.sumHigh[id] as number;
  if (was !== live) {
    low *= least(live, was) ** 2;
    high *= most(live, was) ** 2;
  }
  out[0] = Math.sqrt(Math.max(0, low - widen)) / size;
  out[1] = Math.sqrt(high + widen) / size;
}

/** What a set's sessions squared times the slack it has not seen widen its bounds by, as of the sets in use last read. */
let widening = { live: -1, common: 0, by: 0 };

const most = (live: number, was: number) => Math.max(1, live / was) * (1 + MARGIN);
const least = (live: number, was: number) => Math.min(1, live / was) * (1 - MARGIN);

/**
 * The bounds kept on the lengths of the sets holding a rarer term whose sets grew or shrank, moved with its weight: a
 * set's length times its sessions, squared, is the sum over its terms of (weight · sessions)², and the term's part of
 * it changed by its sessions squared times the change of its weight squared (with the sets in use now, to which the
 * bounds are first brought). A set whose bounds predate a move of the term as a common one is computed again (its
 * bounds hold the term's weight from before that move).
 */
function boundMoved(p: SetProfiles): void {
  const { live, kept, normsLive, sumLow, sumHigh, slackAt } = p;
  const { moved, movedFrom, count, begin, end, cells } = p.pairs;
  if (p.termSlackAt.length < count.length) {
    const at = new Float64Array(count.length);
    at.set(p.termSlackAt);
    p.termSlackAt = at;
  }
  const { termSlackAt } = p;
  // What brings bounds as of `from` sets in use to now, squared: most sets touched share a few.
  let from = live;
  let [lowBy, highBy] = [1, 1];
  for (let k = 0; k < moved.length; k++) {
    const t = moved[k] as number;
    const was = movedFrom[k] as number;
    const now = count[t] as number;
    // A term no set held before has no set whose length is kept; one none holds now, none to bound.
    if (was === now || was === 0 || now === 0) continue;
    const fewest = Math.min(was, now);
    if (fewest >= p.common) {
      p.slack += (2 * Math.abs(now - was)) / fewest;
      termSlackAt[t] = p.slack;
      continue;
    }
    const moves = termSlackAt[t] as number;
    const before = Math.log(1 + live / was) ** 2;
    const after = Math.log(1 + live / now) ** 2;
    const slack = MARGIN * Math.max(before, after);
    const [down, up] = [after - before - slack, after - before + slack];
    for (let i = begin[t] as number, stop = end[t] as number; i < stop; i++) {
      const id = cells[2 * i] as number;
      if (kept[id] === 0) continue;
      if ((slackAt[id] as number) < moves) {
        kept[id] = 0;
        continue;
      }
      let low = sumLow[id] as number;
      let high = sumHigh[id] as number;
      const at = normsLive[id] as number;
      if (at !== live) {
        if (at !== from) {
          from = at;
          lowBy = least(live, at) ** 2;
          highBy = most(live, at) ** 2;
        }
        low *= lowBy;
        high *= highBy;
        normsLive[id] = live;
      }
      const held = cells[2 * i + 1] as number;
      low += held * held * down;
      sumLow[id] = Math.max(low, 0);
      sumHigh[id] = high + held * held * up;
      kept[id] = 2;
    }
  }
}

/**
 * The pairs brought to the memory's last load, and the lengths that load changed no longer kept (set-pairs.ts
 * `reweighed`): every other set's length stands, computed from the same numbers in the same order (bounded only, once
 * the sets in use are more or fewer).
 */
export function bringPairs(p: SetProfiles, s: MemoryEntries): void {
  buildPairs(p.pairs, s);
  const { pairs, kept } = p;
  if (pairs.reweighAll) {
    // No length is kept past this: the slack starts again, so it never grows to where a step is lost in rounding.
    kept.fill(0);
    p.slack = 0;
    p.termSlackAt.fill(0);
  } else {
    boundMoved(p);
    for (const id of pairs.reweighed) kept[id] = 0;
  }
  for (const t of pairs.moved) pairs.movedAt[t] = 0;
  pairs.moved.length = 0;
  pairs.movedFrom.length = 0;
  pairs.reweighed.length = 0;
  pairs.reweighAll = false;
}
