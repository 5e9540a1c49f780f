// The scope's clock as the shared space keeps it: how many sessions have added to the scope, summed over the head
// `learn:<scope>` (where the whole clock was kept before; read, no longer written) and CLOCK_SLOTS slots
// `learn:<scope>:u:<j>`. A write adds its sessions to one slot picked at random, so no key is written by every
// commit: on KV, which takes one write a second per key, the clock keeps up with any number of isolates.

import { scopeKey } from './scope-key.ts';
import { headKey, readHead, TABLE_VERSION } from './table.ts';

/** Slots the clock is spread over. */
export const CLOCK_SLOTS = 8;

/** The key of a scope's clock slot `j`. */
export const clockSlotKey = (scope: string, j: number): string => `${scopeKey(scope)}:u:${j}`;

/** Every key the clock is summed over: the head first, then the slots. */
export const clockKeys = (scope: string): string[] => [
  headKey(scope),
  ...Array.from({ length: CLOCK_SLOTS }, (_, j) => clockSlotKey(scope, j)),
];

/** The clock: the sum of the stored counts (each read as a head; anything else counts 0). */
export const clockOf = (values: readonly unknown[]): number => values.reduce<number>((u, v) => u + readHead(v).u, 0);

/** A pure change adding `sessions` to a slot's count, safe to replay onto a fresher value. */
export const addToSlot =
  (sessions: number) =>
  (current: unknown): { v: typeof TABLE_VERSION; u: number } => ({
    v: TABLE_VERSION,
    u: readHead(current).u + sessions,
  });

/** A slot for one write, at random: writers spread over the slots. */
export const pickSlot = (): number => Math.floor(Math.random() * CLOCK_SLOTS);
