// A session's record keeps what the session gave each scope apart: layers of two scopes over one store (a tenant's and
// a global one, say) each learn from the same session, and each replay gives nothing twice to either. The first scope
// a session gives to keeps its part in `learned`, stamped; each other scope's is in `learnedBy`. A record written
// before (its `learned` unstamped) is every scope's, as it was: none of them gives its pairs again.
import type { DiscoveredRecord } from '../core/discovered.ts';

/** Scopes besides the first one session gives to, at most: past them, a session gives nothing to another scope. */
export const MAX_OTHER_SCOPES = 8;

type Part = Readonly<Record<string, number>>;

/** The key of a scope's part in `learnedBy` (prefixed, so no scope's name is an object's own special key). */
const keyOf = (scope: string): string => `s:${scope}`;

const isPart = (value: unknown): value is Part => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether `learned` is the scope's: stamped for it, written before stamps (every scope's), or not yet given. */
function owns(record: DiscoveredRecord | undefined, scope: string): boolean {
  const stamp = record?.learnedScope;
  return stamp === undefined ? !isPart(record?.learnedBy) || record?.learned !== undefined : stamp === scope;
}

/**
 * The record as the scope's learning reads it: its `learned` the scope's part; 'full' when the record has no room for
 * another scope's part.
 */
export function scopedRecord(
  record: DiscoveredRecord | undefined,
  scope: string,
): DiscoveredRecord | undefined | 'full' {
  if (!record || owns(record, scope)) return record;
  const by = isPart(record.learnedBy) ? record.learnedBy : {};
  const part = Object.hasOwn(by, keyOf(scope)) ? by[keyOf(scope)] : undefined;
  if (part === undefined && Object.keys(by).length >= MAX_OTHER_SCOPES) return 'full';
  return { ...record, learned: isPart(part) ? part : undefined };
}

/** The stored record with the scope's part as `changed` (scopedRecord's view of `record`, brought up to date) holds it. */
export function withScopedPart(
  record: DiscoveredRecord | undefined,
  scope: string,
  changed: DiscoveredRecord | undefined,
): DiscoveredRecord | undefined {
  if (!changed) return record;
  if (owns(record, scope)) {
    // A record written before stamps stays every scope's; a new one is the scope's that gave first.
    const legacy = record?.learned !== undefined && record.learnedScope === undefined;
    return legacy ? changed : { ...changed, learnedScope: scope };
  }
  const base = record as DiscoveredRecord;
  const by = isPart(base.learnedBy) ? base.learnedBy : {};
  return { ...base, learnedBy: { ...by, [keyOf(scope)]: changed.learned ?? {} } };
}
