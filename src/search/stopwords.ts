// Common English and Chinese function words: they would match nearly every tool, so they neither count as keywords nor score.
const WORDS =
  'a an the of to for in on at by with from into onto about as and or but nor not no so if then than that this these those there here ' +
  'is am are was were be been being do does did done doing has have had having will would shall should can could may might must ' +
  'i me my mine we us our ours you your yours he him his she her hers it its they them their theirs ' +
  'what which who whom whose when where why how all any both each every some such own same other ' +
  'just also very too only again once up down out off over under please thanks thank let lets ' +
  'im ive id ill dont doesnt cant wont isnt arent want wants need needs ' +
  '的 了 和 是 在 我 我们 你 您 他 她 它 有 就 不 也 很 都 与 及 或 等 把 被 给 让 这 那 这个 那个 吗 呢 吧 啊 呀 着 过 一个 一下 请 帮 帮我 能 可以 要 想 需要 什么 怎么 如何 哪些 个 之 其 以 及其 并 并且 而 或者 还 又 中 上 下 对 从 向 为 为了 用';

let set: Set<string> | undefined;

/** Every stopword (English and Chinese). */
export function stopwords(): ReadonlySet<string> {
  set ??= new Set(WORDS.split(' '));
  return set;
}

/** Whether a lower-cased word is a stopword (English or Chinese). */
export const isStopword = (word: string): boolean => stopwords().has(word);
