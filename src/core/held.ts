// The tools whose whole definitions a session's model has in front of it: the search results in the history the host
// passed to the last `prepare` (those sent in full), the tools that round's tools block carries, and what searches
// returned in full since. A search marks the tools of its page found here `shown` instead of sending them again
// (markShown in shown.ts).

/** Most sessions remembered; past it the oldest is forgotten, and its next search sends every definition in full. */
const MAX_SESSIONS = 1000;

/** One session's held definitions, by tool name. */
export interface Held {
  readonly names: Set<string>;
  /** Whether searches add what they send in full: only when the host passed a history, which will carry it. */
  readonly grows: boolean;
}

/** Per session, the definitions its model holds, as of its last `prepare`. */
export interface HeldMemory {
  /** `names` is kept as given until a `get` reads it: the caller must not change it after. */
  set(sessionId: string, names: string[], grows: boolean): void;
  get(sessionId: string): Held | undefined;
  /** Forgets one session, or every session when omitted. */
  forget(sessionId?: string): void;
}

/**
 * A bounded memory of held definitions; it lives with the layer, so a layer made per request starts empty. Every
 * prepare sets it and only a search reads it, so a session's names become a Set at the first search after a prepare
 * (the same Set for every later one), not at every prepare: a long history names thousands of tools, and most rounds
 * search nothing.
 */
export function createHeldMemory(): HeldMemory {
  const sessions = new Map<string, { names: string[] | Set<string>; readonly grows: boolean }>();
  return {
    set(sessionId, names, grows) {
      sessions.delete(sessionId);
      if (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value as string);
      sessions.set(sessionId, { names, grows });
    },
    get(sessionId) {
      const entry = sessions.get(sessionId);
      if (entry && Array.isArray(entry.names)) entry.names = new Set(entry.names);
      return entry as Held | undefined;
    },
    forget(sessionId) {
      if (sessionId === undefined) sessions.clear();
      else sessions.delete(sessionId);
    },
  };
}
