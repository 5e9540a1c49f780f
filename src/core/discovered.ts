// The discovered set: which tools a session has found or used, and in what order the model sees them.

import { bridgedName, CALL_TOOL_NAME } from '../base/names.ts';
import { namesInResult } from '../base/parsed-results.ts';
import type { Message } from '../base/types.ts';
import { NOT_CALLED } from './not-called.ts';

/** A session's discovered set as stores keep it; `v` is the format version. */
export interface DiscoveredRecord {
  readonly v: typeof RECORD_VERSION;
  /** Exposure order: first discovery first. A new discovery appends, so the tools block keeps its prefix. */
  readonly order: readonly string[];
  /** The same names by recency, least recent first; eviction takes from the front. */
  readonly recent: readonly string[];
  /** Where the history had been read up to: the event count and the last event's key. */
  readonly mark?: { readonly n: number; readonly last: string } | undefined;
  /** What this session gave the learned ranking (the `learn` option), so a replayed history gives nothing twice. */
  readonly learned?: Readonly<Record<string, number>> | undefined;
  /** The scope `learned` is for; none in a record written before a session could give to several scopes (all share it). */
  readonly learnedScope?: string | undefined;
  /** What this session gave each other scope, by `s:` and the scope (src/learn/scoped-record.ts). */
  readonly learnedBy?: Readonly<Record<string, Readonly<Record<string, number>>>> | undefined;
}

/** One discovery read from the history: a tool name and the id of the call that produced it. */
export interface HistoryEvent {
  readonly name: string;
  readonly call: string;
  /** 'call': a use through the bridge's call_tool. */
  readonly via?: 'call' | undefined;
}

/** A history read: its discovery events, and the tools its search results carried whole (not marked `shown`). */
export interface HistoryRead {
  readonly events: HistoryEvent[];
  /** The names of the events whose result carried the tool whole, in order; the array is the caller's to extend. */
  readonly full: string[];
}

const keyOf = (event: HistoryEvent): string => `${event.call}\n${event.name}`;

/**
 * The events a record has not applied yet. The history is re-sent every round, so replaying it must not
 * touch old events again: that would make them look newer than tools a search recorded in between.
 */
function unread(mark: DiscoveredRecord['mark'], events: readonly HistoryEvent[]): readonly HistoryEvent[] {
  if (!mark) return events;
  const at = events[mark.n - 1];
  if (at && keyOf(at) === mark.last) return events.slice(mark.n);
  // The history was trimmed: find the last event read; if it is gone too, read everything again.
  for (let i = events.length - 1; i >= 0; i--)
    if (keyOf(events[i] as HistoryEvent) === mark.last) return events.slice(i + 1);
  return events;
}

/** Applies the history events a record has not seen yet, and remembers how far it read. */
export function applyHistory(
  current: DiscoveredRecord | undefined,
  events: readonly HistoryEvent[],
  keep: number,
): DiscoveredRecord | undefined {
  const last = events[events.length - 1];
  const mark = last ? { n: events.length, last: keyOf(last) } : current?.mark;
  const touched = applyTouches(
    current,
    unread(current?.mark, events).map((event) => event.name),
    keep,
  );
  if (mark?.n === current?.mark?.n && mark?.last === current?.mark?.last) return touched;
  return { ...(touched ?? { v: RECORD_VERSION, order: [], recent: [] }), mark };
}

/**
 * Applies touches (in order) to a record and trims it to `keep` (0 = no limit).
 * Returns `current` itself when nothing changed, so callers can skip the write.
 */
export function applyTouches(
  current: DiscoveredRecord | undefined,
  touches: readonly string[],
  keep: number,
): DiscoveredRecord | undefined {
  const order = current?.order ?? [];
  const recent = current?.recent ?? [];
  // Names touched move to the end, ordered by their last touch; the others keep their order in front.
  const lastTouch = new Map<string, number>();
  for (const [i, name] of touches.entries()) lastTouch.set(name, i);
  const moved = [...lastTouch.keys()].sort((a, b) => (lastTouch.get(a) as number) - (lastTouch.get(b) as number));
  // No touch, or a replayed history touching again what is already the most recent, in that order: nothing moves,
  // and a large set (maxDiscoveredKeep 0) is not copied every round. Any other touch or trim changes the lists.
  const tail = recent.length - moved.length;
  if ((keep === 0 || recent.length <= keep) && moved.every((name, i) => recent[tail + i] === name)) return current;
  let nextRecent = recent.filter((name) => !lastTouch.has(name)).concat(moved);
  const known = new Set(order);
  let nextOrder = order.concat([...lastTouch.keys()].filter((name) => !known.has(name)));
  if (keep > 0 && nextRecent.length > keep) {
    const evicted = new Set(nextRecent.slice(0, nextRecent.length - keep));
    nextRecent = nextRecent.slice(nextRecent.length - keep);
    nextOrder = nextOrder.filter((name) => !evicted.has(name));
  }
  return { ...current, v: RECORD_VERSION, order: nextOrder, recent: nextRecent };
}

/**
 * With no limit (`keep` 0), a set is bounded by the catalogue instead: once it holds more names than the round's
 * catalogue has tools, the names in no tool of this round are dropped (they can only be from older catalogues).
 */
export function boundedByCatalogue(
  record: DiscoveredRecord | undefined,
  keep: number,
  catalogueSize: number,
  known: (name: string) => boolean,
): DiscoveredRecord | undefined {
  if (keep > 0 || !record || record.order.length <= catalogueSize) return record;
  return { ...record, order: record.order.filter(known), recent: record.recent.filter(known) };
}

/** The format version this release writes and reads. */
export const RECORD_VERSION = 1;

/** What a stored value reads as: a record, nothing, or a record of a version this release cannot read. */
export type Decoded =
  | { readonly record: DiscoveredRecord | undefined; readonly version?: undefined }
  | { readonly record: undefined; readonly version: string };

/**
 * Reads a value a store returned. Anything that is not a record of this version reads as an empty set;
 * a versioned value of another version says which, so the layer can warn instead of failing the round.
 */
export function decodeRecord(value: unknown): Decoded {
  if (isDiscoveredRecord(value)) return { record: value };
  if (typeof value === 'object' && value !== null && 'v' in value) {
    const version = (value as { v: unknown }).v;
    if (version !== RECORD_VERSION) return { record: undefined, version: JSON.stringify(version) ?? String(version) };
  }
  return { record: undefined };
}

function isDiscoveredRecord(value: unknown): value is DiscoveredRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Partial<DiscoveredRecord>;
  return (
    record.v === RECORD_VERSION &&
    Array.isArray(record.order) &&
    Array.isArray(record.recent) &&
    record.order.length === record.recent.length &&
    record.order.every((name) => typeof name === 'string') &&
    record.recent.every((name) => typeof name === 'string') &&
    (record.mark === undefined ||
      (typeof record.mark === 'object' &&
        record.mark !== null &&
        Number.isInteger(record.mark.n) &&
        typeof record.mark.last === 'string'))
  );
}

/**
 * Merges what a session discovered while its store was away (`newer`) into what the store holds (`older`):
 * the union, with `newer`'s tools the more recent and appended to the exposure order, trimmed to `keep`.
 */
export function mergeRecords(
  older: DiscoveredRecord | undefined,
  newer: DiscoveredRecord,
  keep: number,
): DiscoveredRecord {
  if (!older) return newer;
  const inOlder = new Set(older.order);
  const inNewer = new Set(newer.recent);
  let order = older.order.concat(newer.order.filter((name) => !inOlder.has(name)));
  let recent = older.recent.filter((name) => !inNewer.has(name)).concat(newer.recent);
  if (keep > 0 && recent.length > keep) {
    const evicted = new Set(recent.slice(0, recent.length - keep));
    recent = recent.slice(recent.length - keep);
    order = order.filter((name) => !evicted.has(name));
  }
  return { ...older, ...newer, v: RECORD_VERSION, order, recent, mark: newer.mark ?? older.mark };
}

export { NOT_CALLED } from './not-called.ts';

/**
 * Reads the discovery events of a history, in order: the tools a paired `search_tools` result returned,
 * and the tools called with a paired result. A result pairs with the latest unanswered call of its id.
 * Only names in `known` count; anything malformed is skipped. The same pass gathers the tools the results carried whole.
 */
export function readEvents(
  messages: readonly Message[] | undefined,
  searchToolName: string,
  known: (name: string) => boolean,
): HistoryRead {
  const events: HistoryEvent[] = [];
  const full: string[] = [];
  if (!Array.isArray(messages)) return { events, full };
  const calls = new Map<string, string>();
  const bridged = new Set<string>();
  for (const message of messages as readonly unknown[]) {
    if (typeof message !== 'object' || message === null) continue;
    const { role, toolCalls, toolCallId, content } = message as Message;
    if (role === 'assistant' && Array.isArray(toolCalls)) {
      for (const call of toolCalls as readonly unknown[]) {
        const { id, name, arguments: args } = (call ?? {}) as { id?: unknown; name?: unknown; arguments?: unknown };
        // A bridged call is a use of the tool it names (SPEC 11).
        const used = name === CALL_TOOL_NAME ? bridgedName(args) : name;
        if (typeof id === 'string' && id !== '' && typeof used === 'string') {
          calls.set(id, used);
          if (name === CALL_TOOL_NAME) bridged.add(id);
          else bridged.delete(id);
        }
      }
    } else if (role === 'tool' && typeof toolCallId === 'string') {
      const name = calls.get(toolCallId);
      if (name === undefined) continue;
      calls.delete(toolCallId);
      // A corrective answer to a call of a tool the model had not been shown: the tool was not used.
      if (typeof content === 'string' && content.startsWith(NOT_CALLED)) continue;
      const via = bridged.has(toolCallId) ? 'call' : undefined;
      if (name !== searchToolName) {
        if (known(name)) events.push({ name, call: toolCallId, via });
        continue;
      }
      // This runs for every tool of every result, every round: no object is spread and no array made per tool.
      const { names, full: whole } = namesInResult(content);
      // `whole` is drawn from `names` in order: of the same length, it is every name.
      const all = whole.length === names.length;
      for (const tool of names) {
        if (!known(tool)) continue;
        events.push({ name: tool, call: toolCallId, via });
        if (all || whole.includes(tool)) full.push(tool);
      }
    }
  }
  return { events, full };
}
