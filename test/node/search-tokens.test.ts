// Tokeniser cases users meet (brands, camel-case, stemming collisions) and host-supplied keywords, through the
// layer's own search and through the tokeniser itself.
import { describe, expect, it } from 'vitest';
import { createToolSearch, type Tool } from '../../src/index.ts';
import { queryTermsAndStopwords } from '../../src/search/rank.ts';

const queryStopwords = (query: string) => queryTermsAndStopwords(query).stops;

import { tokenize } from '../../src/search/tokenize.ts';

async function found(tools: readonly Tool[], query: string): Promise<string[]> {
  const layer = createToolSearch({ maxSearchResults: 0 });
  const result = await layer.search({ sessionId: 's', tools }, { query });
  return 'tools' in result ? result.tools.map((t) => t.name) : [];
}

describe('camel-case words keep their joined form', () => {
  it('eBay: "ebay" matches, not just "bay"', async () => {
    expect(tokenize('eBay')).toEqual(expect.arrayContaining(tokenize('ebay')));
    const tools = [{ name: 'eBayListings', description: 'Search the listings of an online marketplace' }];
    // "ebay's" is no substring of the name, so only the token finds it.
    expect(await found(tools, "ebay's deals")).toEqual(['eBayListings']);
  });

  it('iPhone: "iphone" matches, alone and inside a longer name', async () => {
    expect(tokenize('iPhone')).toEqual(expect.arrayContaining(tokenize('iphone')));
    expect(tokenize('iPhoneBackup')).toEqual(expect.arrayContaining(tokenize('iphone')));
    const tools = [{ name: 'iPhoneBackup', description: 'Back up a device' }];
    expect(await found(tools, 'iphones')).toEqual(['iPhoneBackup']);
  });

  it('YouTube: the stopword "you" does not shrink it to "tube"', async () => {
    expect(tokenize('YouTube')).toEqual(expect.arrayContaining(tokenize('youtube')));
    const tools = [
      { name: 'TubeMap', description: 'Lines of the London underground' },
      { name: 'YouTubeUpload', description: 'Upload a video' },
    ];
    expect(await found(tools, 'youtubers')).toEqual(['YouTubeUpload']);
  });

  it('keeps the parts of a camel-case name searchable', () => {
    expect(tokenize('getUserToken')).toEqual(expect.arrayContaining(['get', 'user', 'token']));
  });
});

describe('stemming collisions', () => {
  const tools = [
    { name: 'createFile', description: 'Create a new file' },
    { name: 'getNews', description: 'Top stories from the press' },
  ];

  it('"news" does not stem to "new"', async () => {
    expect(tokenize('news')).not.toEqual(tokenize('new'));
    expect(tokenize('general')).not.toEqual(tokenize('generate'));
    expect(tokenize('generic')).not.toEqual(tokenize('generate'));
    expect(await found(tools, 'news')).toEqual(['getNews']);
    // "getNews" still holds "new" as a substring (the floor), but no longer as a term that outranks the file tool.
    expect((await found(tools, 'new'))[0]).toBe('createFile');
  });
});

describe('short brand-like tokens', () => {
  it('H&M is one term, not two dropped letters', async () => {
    expect(tokenize('H&M')).toEqual(['h&m']);
    expect(tokenize('AT&T and C++ or C#')).toEqual(['at&t', 'c++', 'c#']);
    const tools = [
      { name: 'storeManager', description: 'Manage a shop' },
      { name: 'groceryList', description: 'What to buy in the shop' },
      { name: 'fashionStore', description: 'Browse the H&M catalogue' },
    ];
    expect((await found(tools, 'H&M shop'))[0]).toBe('fashionStore');
  });
});

describe('host-supplied keywords', () => {
  const tools: Tool[] = [
    { name: 'newsletterSend', description: 'Send the newsletter to subscribers' },
    { name: 'createFile', description: 'Create a new file' },
    { name: 'webSearch', description: 'Search the web', keywords: ['news', 'headlines'] },
  ];

  it('are searched like the description', async () => {
    expect((await found(tools, 'news about Mars'))[0]).toBe('webSearch');
    expect(await found(tools, 'headlines')).toEqual(['webSearch']);
  });

  it('accept a single string', async () => {
    const one = [tools[0] as Tool, { name: 'webSearch', description: 'Search the web', keywords: 'news headlines' }];
    expect(await found(one, 'headlines')).toEqual(['webSearch']);
  });

  it('are not part of what the model is sent', async () => {
    const layer = createToolSearch({ maxSearchResults: 0 });
    const result = await layer.search({ sessionId: 's', tools }, { query: 'news' });
    if (!('tools' in result)) throw new Error('expected tools');
    expect(result.tools[0]).toEqual({ name: 'webSearch', description: 'Search the web' });
    expect(JSON.stringify(result)).not.toContain('headlines');
  });

  it('skip entries that are not strings, and change the index when they change', async () => {
    const odd = [
      { name: 'webSearch', description: 'Search the web', keywords: [42, null, 'sports'] },
    ] as unknown as Tool[];
    expect(await found(odd, 'sports')).toEqual(['webSearch']);
    const layer = createToolSearch({ maxSearchResults: 0 });
    const before = await layer.search(
      { sessionId: 's', tools: [{ name: 'a', description: 'x', keywords: ['alpha'] }] },
      { query: 'beta' },
    );
    const after = await layer.search(
      { sessionId: 's', tools: [{ name: 'a', description: 'x', keywords: ['beta'] }] },
      { query: 'beta' },
    );
    expect('tools' in before && before.tools.length).toBe(0);
    expect('tools' in after && after.tools.map((t) => t.name)).toEqual(['a']);
  });
});

describe('the stopwords the tokenizer drops, for the learner', () => {
  it('lists each once, lower-cased, in order, in Latin and Chinese text, and nothing the terms hold', () => {
    expect(queryStopwords("What's the weather for my trip, and for MY team?")).toEqual([
      'what',
      'the',
      'for',
      'my',
      'and',
    ]);
    expect(queryStopwords('请帮我查一下北京的天气')).toEqual(expect.arrayContaining(['的']));
    const text = 'book a flight for me to Oslo';
    for (const word of queryStopwords(text)) expect(tokenize(text)).not.toContain(word);
    expect(queryStopwords('weather forecast')).toEqual([]);
  });
});
