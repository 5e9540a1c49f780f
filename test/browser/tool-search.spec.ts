// One session through the public API in real Chromium: the layer replaces a large tool list,
// finds tools for an English and a Chinese query (Intl.Segmenter splits the Chinese), exposes
// what it found on the next round, and forgets it on clear.

import type { SearchResult } from 'tool-search-layer';
import { expect, test } from './fixtures.ts';

test('prepare, search in English and Chinese, prepare again, clear', async ({ page }) => {
  const run = await page.evaluate(async () => {
    const { createToolSearch, SEARCH_TOOL_NAME } = window.toolSearchLayer;
    const tool = (name: string, description: string) => ({
      name,
      description,
      parameters: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] },
    });
    const tools = [
      tool('get_weather', 'Get the current weather and forecast for a city. 查询城市的天气预报。'),
      tool('send_email', 'Send an email message to one recipient.'),
      tool('create_calendar_event', 'Create an event in the calendar at a given time.'),
      tool('list_files', 'List the files in a folder.'),
      tool('read_file', 'Read the contents of a file.'),
      tool('write_file', 'Write text to a file, replacing it.'),
      tool('search_web', 'Search the web and return result links.'),
      tool('translate_text', 'Translate text between languages. 翻译文本。'),
      tool('get_stock_price', 'Get the latest price of a stock ticker.'),
      tool('book_flight', 'Book a flight between two airports.'),
      tool('cancel_order', 'Cancel an order that has not shipped yet.'),
      tool('get_order_status', 'Look up where an order is. 查询订单状态。'),
      tool('create_invoice', 'Create an invoice for a customer.'),
      tool('resize_image', 'Resize an image to a width and height.'),
      tool('convert_currency', 'Convert an amount from one currency to another.'),
      tool('set_reminder', 'Set a reminder that fires at a time.'),
      tool('play_music', 'Play a song or playlist.'),
      tool('query_database', 'Run a read-only SQL query against the database.'),
      tool('summarize_document', 'Summarize a long document in a few sentences.'),
      tool('post_message', 'Post a message to a chat channel.'),
    ];
    const layer = createToolSearch();
    const sessionId = 'browser-session';
    const names = (list: readonly { name: string }[]) => list.map((t) => t.name);
    const pageOf = (result: object) =>
      'tools' in result ? (result as SearchResult) : { found: -1, tools: [], hint: '' };

    const first = await layer.prepare({ sessionId, tools });
    const english = pageOf(await layer.search({ sessionId, tools }, { query: 'send an email' }));
    const chinese = pageOf(await layer.search({ sessionId, tools }, { query: '查询天气' }));
    const second = await layer.prepare({ sessionId, tools });
    await layer.clear(sessionId);
    const afterClear = await layer.prepare({ sessionId, tools });
    return {
      searchToolName: SEARCH_TOOL_NAME,
      hasSegmenter: typeof Intl.Segmenter === 'function',
      first: { tools: names(first.tools), bypassed: first.bypassed, discovered: first.discovered },
      english: { found: english.found, tools: names(english.tools), hint: english.hint },
      chinese: { found: chinese.found, tools: names(chinese.tools) },
      second: { tools: names(second.tools), bypassed: second.bypassed, discovered: second.discovered },
      afterClear: { tools: names(afterClear.tools), discovered: afterClear.discovered },
    };
  });

  expect(run.searchToolName).toBe('search_tools');
  expect(run.hasSegmenter).toBe(true);

  expect(run.first.bypassed).toBe(false);
  expect(run.first.tools).toEqual(['search_tools']);
  expect(run.first.discovered).toEqual([]);

  expect(run.english.tools[0]).toBe('send_email');
  expect(run.english.found).toBeGreaterThanOrEqual(1);
  expect(run.english.hint).toEqual(expect.any(String));

  expect(run.chinese.tools[0]).toBe('get_weather');

  expect(run.second.bypassed).toBe(false);
  expect(run.second.tools[0]).toBe('search_tools');
  expect(run.second.tools).toEqual(expect.arrayContaining(['send_email', 'get_weather']));
  expect(run.second.discovered).toEqual(expect.arrayContaining(['send_email', 'get_weather']));

  expect(run.afterClear.tools).toEqual(['search_tools']);
  expect(run.afterClear.discovered).toEqual([]);
});
