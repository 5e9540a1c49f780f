// The one shape every ranked library takes in the benchmark, ours included.
import type { BenchTool } from '../data.ts';

/** Ranks a query against the catalogue it was built from: names, best first. */
export type Ranker = (query: string) => readonly string[] | Promise<readonly string[]>;

export interface RankerOptions {
  /** How many names a query returns at most (the libraries' own limit option where they have one). */
  limit: number;
  /** What the peer's `deploy` made from these tools ahead of time, when it has one. */
  deployed?: unknown;
}

/** A library under test: building the ranker is the index build the speed table times. */
export interface Peer {
  readonly name: string;
  /** One line on how it is configured, printed under the tables. */
  readonly settings: string;
  /** Work done once at deploy time, untimed (a serialised index); its result reaches createRanker as `deployed`. */
  deploy?(tools: readonly BenchTool[]): unknown;
  createRanker(tools: readonly BenchTool[], options: RankerOptions): Ranker | Promise<Ranker>;
}
