// The test Worker's main module: it only exports the Durable Object classes whose storage the store
// tests use (through runInDurableObject), one SQLite-backed (as Agents SDK agents are) and one
// key-value backed.
import { DurableObject } from 'cloudflare:workers';

export class SqliteHost extends DurableObject {}
export class KeyValueHost extends DurableObject {}

export default {
  fetch(): Response {
    return new Response('tool-search-layer test worker');
  },
};
