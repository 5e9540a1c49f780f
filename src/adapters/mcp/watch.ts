// Re-listing on `notifications/tools/list_changed` with a client of either MCP SDK major, importing neither.
import type { McpClient } from './types.ts';

const TOOLS_CHANGED = 'notifications/tools/list_changed';

type Handler = (...args: unknown[]) => unknown;

// v1 (`@modelcontextprotocol/sdk`) takes a Zod schema here and reads only `shape.method` and `safeParse` (`parse`
// before 1.17): this object is such a schema for the one notification, so neither Zod nor the SDK is imported.
const v1Schema = {
  shape: { method: { value: TOOLS_CHANGED } },
  safeParse: (data: unknown) => ({ success: true, data }),
  parse: (data: unknown) => data,
};

/** Installs `onChange` as the client's tools/list_changed handler, after any handler already there; returns the undo. */
export function watchToolsChanged(client: McpClient, onChange: () => Promise<void>): () => void {
  const install = client.setNotificationHandler as ((method: unknown, handler: Handler) => void) | undefined;
  if (typeof install !== 'function') return () => {};
  // Both majors keep one handler per method in this map: the one there (the client's own `listChanged` option
  // installs one) is chained and put back on close. v2 hands its handlers a second argument, passed on as it is.
  const handlers = (client as { _notificationHandlers?: Map<string, Handler> })._notificationHandlers;
  const before = handlers?.get(TOOLS_CHANGED);
  const mine = async () => onChange();
  try {
    install.call(client, TOOLS_CHANGED, mine); // v2: a spec method by name
  } catch {
    install.call(client, v1Schema, mine); // v1 throws for a name without a schema
  }
  const installed = handlers?.get(TOOLS_CHANGED);
  if (!handlers || !installed) return () => {};
  const chained: Handler = async (...args) => {
    await Promise.all([installed(...args), before?.(...args)]);
  };
  handlers.set(TOOLS_CHANGED, chained);
  return () => {
    // Someone who replaced the handler since keeps theirs.
    if (handlers.get(TOOLS_CHANGED) !== chained) return;
    if (before) handlers.set(TOOLS_CHANGED, before);
    else handlers.delete(TOOLS_CHANGED);
  };
}
