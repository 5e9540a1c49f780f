// The shared store conformance suite, run against the Cloudflare stores inside workerd.
import { storeConformance } from '../stores/conformance.ts';
import { expiryConformance } from '../stores/expiry-conformance.ts';
import { durableObjectHarness, expiringDurableObjectHarness, expiringKvHarness, kvHarness } from './harness.ts';

// KV as production shows it: at most one write per key per second (429 beyond), each request its own location.
storeConformance('cloudflare-kv', () => kvHarness({ visibilityMs: 0, rateLimit: true }));
storeConformance('durable-object (SQLite-backed, as Agents SDK agents)', () => durableObjectHarness('SQLITE_HOST'));
storeConformance('durable-object (key-value backed)', () => durableObjectHarness('KEY_VALUE_HOST'));
expiryConformance('cloudflare-kv (its expiration on a fake clock)', expiringKvHarness);
expiryConformance('durable-object (SQLite-backed)', () => expiringDurableObjectHarness('SQLITE_HOST'));
expiryConformance('durable-object (key-value backed)', () => expiringDurableObjectHarness('KEY_VALUE_HOST'));
