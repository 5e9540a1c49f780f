// Every library the benchmark ranks, ours first; the order is the order of the tables.
import { aiSdkPeer } from './ai-sdk.ts';
import { flexSearchPeer } from './flexsearch.ts';
import { miniSearchPeer } from './minisearch.ts';
import { oramaPeer } from './orama.ts';
import { oursLoadedPeer, oursPeer } from './ours.ts';
import type { Peer } from './peer.ts';
import { substringPeer } from './substring.ts';
import { winkBm25Peer } from './wink-bm25.ts';
import { winkBm25TunedPeer } from './wink-bm25-tuned.ts';

export type { Peer, Ranker, RankerOptions } from './peer.ts';

export const peers: readonly Peer[] = [
  oursPeer,
  winkBm25TunedPeer,
  aiSdkPeer,
  miniSearchPeer,
  flexSearchPeer,
  oramaPeer,
  winkBm25Peer,
  substringPeer,
];

/** The speed table's libraries: the same, plus this library loading a serialised index instead of building one. */
export const speedPeers: readonly Peer[] = [oursPeer, oursLoadedPeer, ...peers.slice(1)];
