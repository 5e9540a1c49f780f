// Adapters rebuild their tools arrays every step: a new array of the same tool objects takes the catalogue made for
// them (src/core/catalogue.ts), so what is kept per catalogue stands; equal copies get their own.
import { describe, expect, it } from 'vitest';
import type { Tool } from '../../src/base/types.ts';
import { catalogueOf } from '../../src/core/catalogue.ts';
import { createMemoryStore, createToolSearch, type SearchResult } from '../../src/index.ts';

const tools: Tool[] = [
  { name: 'get_forecast', description: 'Weather forecast for a city', groups: ['weather'] },
  { name: 'send_email', description: 'Send an email message', groups: ['mail'] },
  { name: 'save_note', description: 'Store a short note', groups: ['notes'] },
];

describe('a catalogue per tool objects, not per array', () => {
  it('gives a new array of the same objects the same catalogue, and equal copies their own', () => {
    const first = catalogueOf(tools);
    // Compared as booleans: a failed match would print the catalogues, whose index is read only after a search loads.
    expect(catalogueOf([...tools]) === first).toBe(true);
    const copies = tools.map((tool) => ({ ...tool }));
    const own = catalogueOf(copies);
    expect(own === first).toBe(false);
    // Its tools are the copies, never the objects of another array.
    expect(own.tools[0] === copies[0]).toBe(true);
    expect(catalogueOf([...tools.slice(0, 2)]) === first).toBe(false);
  });

  it('ranks with learning the same through new arrays as through one', async () => {
    const layer = createToolSearch({
      logger: { warn() {} },
      learn: true,
      maxDirectTools: 1,
      store: createMemoryStore(),
    });
    for (let i = 0; i < 3; i++)
      await layer.prepare({
        sessionId: `s${i}`,
        tools: [...tools],
        messages: [
          { role: 'user', content: 'remember that Alice works at Acme' },
          {
            role: 'assistant',
            toolCalls: [{ id: 'a', name: 'search_tools', arguments: '{"query":"remember Alice"}' }],
          },
          { role: 'tool', toolCallId: 'a', content: '{"tools":[]}' },
          { role: 'assistant', toolCalls: [{ id: 'b', name: 'save_note', arguments: '{}' }] },
          { role: 'tool', toolCallId: 'b', content: 'ok' },
        ],
      });
    await layer.flush();
    const names = async (array: Tool[]) =>
      ((await layer.search({ sessionId: 't', tools: array }, { query: 'remember Bob' })) as SearchResult).tools.map(
        (tool) => tool.name,
      );
    const once = await names(tools);
    expect(once).toContain('save_note');
    for (let i = 0; i < 3; i++) expect(await names([...tools])).toEqual(once);
  });
});
