// The scripted session: an agent conversation the page plays one round at a time. Each step is what happens
// between two model calls; after it the host prepares the next round. The visitor may pause after any step and
// go on by hand with the same host, then resume the script where it stopped.
import type { Host } from './host.ts';

/** One step of the script: what it does, in the words the page shows. */
export interface ScriptStep {
  readonly title: string;
  readonly run: (host: Host) => Promise<void>;
}

/** What the script needs to know about the catalogue: a request and the words the model searches with. */
export interface ScriptPlan {
  readonly request: string;
  readonly query: string;
}

/** The tool the model calls: the first one the last search returned. */
function lastFound(host: Host): string | undefined {
  for (let i = host.history.length - 1; i >= 0; i--) {
    const message = host.history[i];
    if (message?.role !== 'tool') continue;
    try {
      const result = JSON.parse(message.content ?? '');
      const name = result?.tools?.[0]?.name;
      if (typeof name === 'string') return name;
    } catch {
      // A tool result that is not JSON is not a search result.
    }
  }
  return undefined;
}

/** The five steps: ask, search, call a found tool, trim the context, clear the memory. */
export function scriptSteps(plan: ScriptPlan): readonly ScriptStep[] {
  return [
    { title: `The user asks: “${plan.request}”`, run: async (host) => host.ask(plan.request) },
    {
      title: `The model searches for “${plan.query}”`,
      run: async (host) => void (await host.search({ query: plan.query })),
    },
    {
      title: 'The model calls the first tool it found',
      run: async (host) => {
        const name = lastFound(host);
        if (name) await host.call(name);
      },
    },
    { title: 'The host trims the context to the request and the last call', run: async (host) => host.trim() },
    { title: "The layer's memory of the session is cleared", run: (host) => host.clearMemory() },
  ];
}

/** A player over the steps: step, play with a pause between rounds, pause; `onRound` runs after each round. */
export function createPlayer(host: Host, steps: () => readonly ScriptStep[], onRound: () => Promise<void>) {
  let next = 0;
  let playing = false;
  const runNext = async (): Promise<boolean> => {
    const step = steps()[next];
    if (!step) return false;
    next++;
    await step.run(host);
    await onRound();
    return true;
  };
  return {
    get next(): number {
      return next;
    },
    get playing(): boolean {
      return playing;
    },
    get done(): boolean {
      return next >= steps().length;
    },
    /** Starts over (a new session or catalogue). */
    rewind(to = 0): void {
      next = to;
      playing = false;
    },
    step: runNext,
    /** Plays the remaining steps, `delayMs` apart, until the end or a pause. */
    async play(delayMs: number, onTick: () => void): Promise<void> {
      playing = true;
      onTick();
      while (playing && (await runNext())) {
        onTick();
        if (!playing || next >= steps().length) break;
        await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
      playing = false;
      onTick();
    },
    pause(): void {
      playing = false;
    },
  };
}

/** A player over a host's script. */
export type Player = ReturnType<typeof createPlayer>;
