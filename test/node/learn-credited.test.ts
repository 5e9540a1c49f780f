// The sessions a learner remembers having credited (src/learn/credited.ts) stay within their bounds, oldest first,
// in sessions and in units, whatever the sessions' lengths; the last one remembered always stays.
import { describe, expect, it } from 'vitest';
import { createCreditedSessions, creditedFor } from '../../src/learn/credited.ts';
import type { LearnUnit } from '../../src/learn/signal.ts';

const units = (n: number): LearnUnit[] =>
  Array.from({ length: n }, (_, i) => ({ query: `q${i}`, tools: ['t'], turn: i }));
const entry = (n: number) => ({ units: units(n), made: new Map() });

describe('the sessions a learner remembers having credited', () => {
  it('forgets the oldest past the sessions’ bound', () => {
    const sessions = createCreditedSessions(3, 1000);
    for (const key of ['a', 'b', 'c', 'd']) sessions.remember(key, entry(1));
    expect(['a', 'b', 'c', 'd'].map((key) => sessions.get(key) !== undefined)).toEqual([false, true, true, true]);
    // Remembered again, a session is the newest.
    sessions.remember('b', entry(1));
    sessions.remember('e', entry(1));
    expect(['b', 'c', 'd', 'e'].map((key) => sessions.get(key) !== undefined)).toEqual([true, false, true, true]);
  });

  it('forgets the oldest past the units’ bound, counting a session’s units once however often it is remembered', () => {
    const sessions = createCreditedSessions(100, 10);
    sessions.remember('a', entry(4));
    sessions.remember('b', entry(4));
    for (let i = 0; i < 5; i++) sessions.remember('b', entry(5));
    expect(sessions.get('a')).toBeDefined();
    sessions.remember('c', entry(2));
    expect(sessions.get('a')).toBeUndefined();
    expect([sessions.get('b')?.units.length, sessions.get('c')?.units.length]).toEqual([5, 2]);
    // One session past the bound by itself stays, alone.
    sessions.remember('d', entry(30));
    expect(['b', 'c', 'd'].map((key) => sessions.get(key) !== undefined)).toEqual([false, false, true]);
    sessions.clear();
    sessions.remember('e', entry(10));
    expect(sessions.get('e')).toBeDefined();
  });

  it('is shared by the learners of one storage identity, and a learner’s own without one', () => {
    const identity = {};
    expect(creditedFor(identity)).toBe(creditedFor(identity));
    expect(creditedFor({})).not.toBe(creditedFor(identity));
    expect(creditedFor(undefined)).not.toBe(creditedFor(undefined));
  });
});
