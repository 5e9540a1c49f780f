// The two wink packages ship no types: what the BM25 peers use of them.
declare module 'wink-bm25-text-search' {
  type Task = (input: never) => unknown;
  interface Engine {
    defineConfig(config: { fldWeights: Record<string, number>; bm25Params?: Record<string, number> }): void;
    definePrepTasks(tasks: readonly Task[], field?: string): number;
    addDoc(doc: Record<string, string>, id: number): number;
    consolidate(): void;
    search(query: string, limit?: number): [number, number][];
  }
  export default function bm25(): Engine;
}

declare module 'wink-nlp-utils' {
  type Task = (input: never) => unknown;
  const nlp: {
    string: { lowerCase: Task; tokenize0: Task };
    tokens: { removeWords: Task; stem: Task };
  };
  export default nlp;
}
