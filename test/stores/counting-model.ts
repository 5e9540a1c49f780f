// A deterministic bag-of-words embedding model that records what it is asked: the tool vectors' tests count on it
// in every runtime (a browser Worker too, so no test framework here).
import type { Embed } from 'tool-search-layer';

/** A deterministic bag-of-words model, 16 dimensions, that records every text it is asked for, by kind. */
export function countingModel() {
  const asked = { tool: [] as string[], query: [] as string[] };
  const vectorOf = (text: string) => {
    const v = new Array<number>(16).fill(0);
    for (const word of text.toLowerCase().split(/\W+/).filter(Boolean)) {
      let h = 0;
      for (const c of word) h = (h * 31 + c.charCodeAt(0)) >>> 0;
      v[h % 16] = (v[h % 16] as number) + 1;
    }
    return v;
  };
  const embed: Embed = async (texts, kind) => {
    asked[kind].push(...texts);
    return texts.map(vectorOf);
  };
  return { asked, embed };
}
