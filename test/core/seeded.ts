// A seeded random sequence for the tests that build many random loads or sessions: the same seed, the same run.

/** Numbers below `n`, from a linear congruential sequence started at `seed` (its high bits, which vary most). */
export function seededRandom(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) % n;
  };
}
