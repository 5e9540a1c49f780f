// The bindings of the Agents example's Worker (wrangler.agents.jsonc).
import type { Assistant } from './assistant.ts';
import type { ToolsServer } from './tools-server.ts';

export interface Env {
  ASSISTANT: DurableObjectNamespace<Assistant>;
  TOOLS: DurableObjectNamespace<ToolsServer>;
  AI: Ai;
}
