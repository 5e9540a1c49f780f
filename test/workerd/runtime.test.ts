// Guards the core-workerd project itself: if the plugin or config ever fell back to Node,
// the core suite would still pass there and prove nothing about the edge runtime.
import { env } from 'cloudflare:test';
import { expect, it } from 'vitest';

it('runs inside workerd, not Node', () => {
  expect(navigator.userAgent).toBe('Cloudflare-Workers');
  expect(typeof (globalThis as { WebSocketPair?: unknown }).WebSocketPair).toBe('function');
  expect(env).toBeTypeOf('object');
});

it('has Intl.Segmenter, which the search uses to split Chinese and Japanese', () => {
  const words = [...new Intl.Segmenter('zh', { granularity: 'word' }).segment('搜索工具')];
  expect(words.length).toBeGreaterThan(0);
});
