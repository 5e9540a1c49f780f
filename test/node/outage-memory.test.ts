// Issue 14, defect 6: memory stays bounded through a long outage over many sessions (Node: it reads the heap).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createToolSearch, type DiscoveredStore, type Tool } from '../../src/index.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const down: DiscoveredStore = {
  name: 'down',
  get: () => Promise.reject(new Error('503')),
  update: () => Promise.reject(new Error('503')),
  delete: () => Promise.reject(new Error('503')),
  clear: () => Promise.reject(new Error('503')),
};

const tools: Tool[] = Array.from({ length: 20 }, (_, i) => ({ name: `tool_${i}`, description: `Does task ${i}` }));

describe('a long outage', () => {
  it('holds no more memory per session once past the 10,000 sessions kept in memory', { timeout: 60_000 }, async () => {
    const layer = createToolSearch({ store: down, logger: { warn: () => {} }, storeRetryMs: 3_600_000 });
    let next = 0;
    const sessions = async (count: number) => {
      for (let i = 0; i < count; i++) {
        await layer.search({ sessionId: `outage-session-${next++}`, tools }, { query: `task ${i % 20}`, limit: 1 });
      }
    };
    await sessions(12_000);
    const before = heap();
    await sessions(30_000);
    const perSession = (heap() - before) / 30_000;
    expect(perSession).toBeLessThan(40);
    // The sessions still in memory keep what they found.
    expect((await layer.inspect(`outage-session-${next - 1}`)).order).toHaveLength(1);
  });
});
