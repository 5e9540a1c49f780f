// An OpenAI-compatible embeddings endpoint (OpenAI, a local server, a gateway), configured by environment:
// EMBEDDINGS_URL (default https://api.openai.com/v1/embeddings), EMBEDDINGS_MODEL (default
// text-embedding-3-small), EMBEDDINGS_API_KEY. `npm run bench -- --only=quality --embedder ./bench/embedders/openai-compatible.ts`
const url = process.env.EMBEDDINGS_URL ?? 'https://api.openai.com/v1/embeddings';
export const model = process.env.EMBEDDINGS_MODEL ?? 'text-embedding-3-small';

export async function embed(texts: string[]): Promise<number[][]> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(process.env.EMBEDDINGS_API_KEY && { authorization: `Bearer ${process.env.EMBEDDINGS_API_KEY}` }),
    },
    body: JSON.stringify({ model, input: texts }),
  });
  if (!response.ok) throw new Error(`embeddings endpoint answered ${response.status}: ${await response.text()}`);
  const { data } = (await response.json()) as { data: { index: number; embedding: number[] }[] };
  return data.sort((a, b) => a.index - b.index).map((d) => d.embedding);
}
