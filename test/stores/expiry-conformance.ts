// Expiry, for every store with a `ttlSeconds` option: a session not written for that long is gone, a session
// written since stays, reads do not extend a session, and the shared space never expires. A fake clock drives it.
import { createToolSearch, type DiscoveredStore } from 'tool-search-layer';
import { describe, expect, it } from 'vitest';
import { storeTools } from './catalogue.ts';

/** Opens stores over one backend's data that expire sessions `ttlSeconds` after their last write on `now`. */
export interface ExpiringHarness {
  open(ttlSeconds: number, now: () => number): DiscoveredStore | Promise<DiscoveredStore>;
  /** Waits until writes the store deferred have landed. */
  settle?(): Promise<void>;
}

const tools = storeTools;

const TTL = 3600;

/** Registers the expiry tests for one store; `make` gives a harness over fresh backend data per test. */
export function expiryConformance(label: string, make: () => ExpiringHarness | Promise<ExpiringHarness>): void {
  describe(`store expiry: ${label}`, () => {
    async function setup() {
      const harness = await make();
      let time = 1_700_000_000_000;
      const clock = {
        advance(seconds: number) {
          time += seconds * 1000;
        },
      };
      const open = () => harness.open(TTL, () => time);
      /** One request: a fresh store instance, a layer over it, and its deferred writes settled. */
      const round = async <T>(work: (layer: ReturnType<typeof createToolSearch>, store: DiscoveredStore) => T) => {
        const store = await open();
        const warnings: string[] = [];
        const layer = createToolSearch({
          store,
          logger: { warn: (m) => void warnings.push(m) },
          storeTimeoutMs: 10_000,
        });
        const result = await work(layer, store);
        await harness.settle?.();
        expect(warnings).toEqual([]);
        return result;
      };
      const discovered = (sessionId: string) =>
        round(async (layer) => (await layer.prepare({ sessionId, tools })).discovered);
      const find = (sessionId: string, query: string) =>
        round((layer) => layer.search({ sessionId, tools }, { query, limit: 1 }));
      return { clock, round, discovered, find };
    }

    it('forgets a session not written for ttlSeconds and keeps one written since', async () => {
      const { clock, round, discovered, find } = await setup();
      await find('old', 'email');
      await find('fresh', 'weather');
      clock.advance(TTL - 1);
      await find('fresh', 'forecast');
      clock.advance(1);
      expect(await discovered('old')).toEqual([]);
      expect(await round((_, store) => store.get('old'))).toBeUndefined();
      expect(await discovered('fresh')).toEqual(['get_weather', 'get_forecast']);
      // Written TTL - 1 s after the start, so it lives until 2 TTL - 1 s.
      clock.advance(TTL - 2);
      expect(await discovered('fresh')).toEqual(['get_weather', 'get_forecast']);
      clock.advance(1);
      expect(await discovered('fresh')).toEqual([]);
    });

    it('does not extend a session by reading it', async () => {
      const { clock, discovered, find } = await setup();
      await find('s', 'email');
      clock.advance(TTL - 1);
      expect(await discovered('s')).toEqual(['send_email']);
      clock.advance(1);
      expect(await discovered('s')).toEqual([]);
    });

    it('starts an expired session afresh on its next write', async () => {
      const { clock, discovered, find } = await setup();
      await find('s', 'email');
      clock.advance(TTL + 60);
      await find('s', 'currency');
      expect(await discovered('s')).toEqual(['convert_currency']);
      clock.advance(TTL - 1);
      expect(await discovered('s')).toEqual(['convert_currency']);
    });

    it('never expires the shared space', async () => {
      const { clock, round } = await setup();
      await round((_, store) => store.shared?.update('credits', () => ({ n: 1 })));
      clock.advance(TTL * 10);
      expect(await round((_, store) => store.shared?.get('credits'))).toEqual({ n: 1 });
    });

    it('deletes an expired session on request as any other', async () => {
      const { clock, round, discovered, find } = await setup();
      await find('s', 'email');
      clock.advance(TTL);
      await round((layer) => layer.clear('s'));
      expect(await discovered('s')).toEqual([]);
      await find('s', 'weather');
      expect(await discovered('s')).toEqual(['get_weather']);
    });
  });
}
