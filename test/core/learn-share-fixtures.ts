// What the tests of a memory index shared by layers use, in Node and in workerd: requests the keywords alone do not
// answer, and a store's shared space served with its pages' tool names swapped behind their tags.
import type { DiscoveredStore, Message } from 'tool-search-layer';

export function turn(query: string, called: readonly string[]): Message[] {
  return [
    { role: 'user', content: query },
    { role: 'assistant', toolCalls: [{ id: 's', name: 'search_tools', arguments: JSON.stringify({ query }) }] },
    { role: 'tool', toolCallId: 's', content: '{"found":0,"tools":[]}' },
    { role: 'assistant', toolCalls: called.map((name, i) => ({ id: `c${i}`, name, arguments: '{}' })) },
    ...called.map((_, i): Message => ({ role: 'tool', toolCallId: `c${i}`, content: '{"ok":true}' })),
  ];
}

// Requests the keywords alone do not answer, each with the tools its sessions used.
export const taught: [string, string[]][] = [
  ['pack an umbrella for tomorrow in lisbon', ['get_forecast']],
  ['umbrella for lisbon tomorrow?', ['get_forecast']],
  ['jot the standup notes down', ['write_file']],
  ['jot my shopping notes down', ['write_file']],
  ['book the dentist next week', ['create_event', 'send_email']],
  ['book a haircut next week', ['create_event', 'send_email']],
];
export const asked = ['umbrella tomorrow lisbon', 'jot notes down', 'book something next week'];

/** The store as a store without a storage identity sees it: its layers build their own index. */
export const unshared = (store: DiscoveredStore): DiscoveredStore => {
  const { identity: _, ...space } = store.shared as NonNullable<DiscoveredStore['shared']>;
  return { ...store, shared: space };
};

/** The store with every memory page's tool names swapped (tags kept): an index built from it votes for other tools. */
export const swapped = (store: DiscoveredStore, identity: boolean): DiscoveredStore => {
  const space = store.shared as NonNullable<DiscoveredStore['shared']>;
  const swap = (name: string) => (name === 'get_forecast' ? 'calculator' : name === 'write_file' ? 'read_inbox' : name);
  return {
    ...store,
    shared: {
      ...(identity ? space : unshared(store).shared),
      async get(key) {
        const value = (await space.get(key)) as { t?: string[] } | undefined;
        return /:m\d:\d+$/.test(key) && value?.t ? { ...value, t: value.t.map(swap) } : value;
      },
    } as NonNullable<DiscoveredStore['shared']>,
  };
};
