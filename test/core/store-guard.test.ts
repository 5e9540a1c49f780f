// How the layer treats its store: timeouts, retry and merge after an outage, the stored format.
import { createMemoryStore, createToolSearch, type DiscoveredStore, RECORD_VERSION } from 'tool-search-layer';
import { describe, expect, it } from 'vitest';
import recordV1 from '../fixtures/record-v1.json' with { type: 'json' };
import { catalogue, recordingLogger } from './fixtures.ts';

/** A memory store that can be made to fail or hang, switched from the test. */
function switchable() {
  const inner = createMemoryStore();
  const state = { mode: 'up' as 'up' | 'fail' | 'hang' };
  const gate = <T>(run: () => Promise<T>): Promise<T> =>
    state.mode === 'up'
      ? run()
      : state.mode === 'fail'
        ? Promise.reject(new Error('429 Too Many Requests'))
        : new Promise<T>(() => {});
  const store: DiscoveredStore = {
    name: 'switchable',
    get: (id) => gate(() => inner.get(id)),
    update: (id, apply) => gate(() => inner.update(id, apply)),
    delete: (id) => gate(() => inner.delete(id)),
    clear: () => gate(() => inner.clear()),
  };
  return { store, inner, state };
}

const context = { sessionId: 's', tools: catalogue };

describe('the layer and its store', () => {
  it('reads the committed fixture of the version 1 format', async () => {
    expect(RECORD_VERSION).toBe(1);
    const store = createMemoryStore();
    await store.update('s', () => recordV1);
    const layer = createToolSearch({ store, logger: recordingLogger() });
    const round = await layer.prepare(context);
    expect(round.discovered).toEqual(['send_email', 'get_weather', 'calculator']);
    expect(round.warnings).toEqual([]);
  });

  it('goes on from memory when a store call hangs past storeTimeoutMs, with one warning', async () => {
    const { store, state } = switchable();
    const logger = recordingLogger();
    const layer = createToolSearch({ store, logger, storeTimeoutMs: 30 });
    state.mode = 'hang';
    await layer.search(context, { query: 'forecast', limit: 1 });
    const round = await layer.prepare(context);
    expect(round.discovered).toEqual(['get_forecast']);
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]).toMatch(/store "switchable" failed \(switchable\.update took longer than 30 ms\)/);
  });

  it('retries the store after storeRetryMs and merges what was found in memory meanwhile', async () => {
    const { store, inner, state } = switchable();
    const logger = recordingLogger();
    const layer = createToolSearch({ store, logger, storeRetryMs: 0 });
    await layer.search(context, { query: 'send email', limit: 1 }); // stored: send_email
    state.mode = 'fail';
    await layer.search(context, { query: 'forecast', limit: 1 }); // memory: send_email, get_forecast
    const during = await layer.prepare(context);
    expect(during.discovered).toEqual(['send_email', 'get_forecast']);
    expect(logger.lines).toHaveLength(1);
    // Meanwhile another instance wrote to the store directly.
    state.mode = 'up';
    await createToolSearch({ store, logger: recordingLogger() }).search(context, { query: 'calculator', limit: 1 });
    const after = await layer.prepare(context);
    expect(after.discovered).toEqual(['send_email', 'calculator', 'get_forecast']);
    expect(after.warnings).toEqual([]);
    expect(((await inner.get('s')) as { order: string[] }).order).toEqual(['send_email', 'calculator', 'get_forecast']);
  });

  it('keeps a failed session in memory until storeRetryMs has passed', async () => {
    const { store, inner, state } = switchable();
    const layer = createToolSearch({ store, logger: recordingLogger(), storeRetryMs: 60_000 });
    state.mode = 'fail';
    await layer.search(context, { query: 'send email', limit: 1 });
    state.mode = 'up';
    await layer.search(context, { query: 'forecast', limit: 1 });
    expect(await inner.get('s')).toBeUndefined();
    expect((await layer.prepare(context)).discovered).toEqual(['send_email', 'get_forecast']);
  });

  it('warns again for a new outage after the store came back', async () => {
    const { store, state } = switchable();
    const logger = recordingLogger();
    const layer = createToolSearch({ store, logger, storeRetryMs: 0 });
    state.mode = 'fail';
    await layer.prepare(context);
    await layer.prepare(context);
    state.mode = 'up';
    await layer.prepare(context);
    state.mode = 'fail';
    await layer.prepare(context);
    expect(logger.lines).toHaveLength(2);
  });

  it('validates the store options', () => {
    expect(() => createToolSearch({ storeTimeoutMs: -1 })).toThrow(/"storeTimeoutMs": must be 0 or more/);
    expect(() => createToolSearch({ storeRetryMs: 1.5 })).toThrow(/"storeRetryMs": must be an integer/);
  });
});
