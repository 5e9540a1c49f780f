// The Worker's bindings (wrangler.jsonc).
import type { Assistant } from './assistant.ts';
import type { ToolAgent } from './index.ts';
import type { ToolsServer } from './tools-server.ts';

export interface Env {
  DISCOVERED: KVNamespace;
  AGENT: DurableObjectNamespace<ToolAgent>;
  ASSISTANT: DurableObjectNamespace<Assistant>;
  TOOLS: DurableObjectNamespace<ToolsServer>;
  AI: Ai;
}
