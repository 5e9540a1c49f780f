// The seed's plain search: any keyword as a substring of name or description, catalogue order.
import type { Peer } from './peer.ts';

/** The note's algorithm as it stood before ranking: the baseline every ranking must beat. */
export const substringPeer: Peer = {
  name: 'substring (seed)',
  settings:
    'query split on white space; a tool matches when its name or description contains any keyword, case-insensitive; catalogue order',
  createRanker(tools, { limit }) {
    const haystacks = tools.map((t) => ({ name: t.name, text: `${t.name}\n${t.description ?? ''}`.toLowerCase() }));
    return (query) => {
      const keywords = query.toLowerCase().split(/\s+/).filter(Boolean);
      const names: string[] = [];
      for (const h of haystacks) {
        if (keywords.some((k) => h.text.includes(k))) names.push(h.name);
        if (names.length >= limit) break;
      }
      return names;
    };
  },
};
