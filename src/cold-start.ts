// tool-search-layer/cold-start: an index made at deploy time, so a new Worker isolate skips the build.
// Its own entry, so that apps that never serialise an index do not ship the encoder and decoders.

export { loadIndex, serializeIndex } from './search/serialize.ts';
