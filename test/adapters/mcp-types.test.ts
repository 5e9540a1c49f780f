// Issue 29 item 4: the router's result narrows as an MCP loop expects (`type === 'text'` makes `text` a string),
// and what both SDK majors' clients return still fits it. These lines are checked by `tsc --strict` (npm test's
// typecheck); the run below checks the narrowing on a real answer.
import type { CallToolResult as CallToolResultV2 } from '@modelcontextprotocol/client';
import type { CallToolResult as CallToolResultV1 } from '@modelcontextprotocol/sdk/types.js';
import { createToolSearch } from 'tool-search-layer';
import { createMcpCatalogue, createMcpRouter, type McpCallToolResult, type McpContent } from 'tool-search-layer/mcp';
import { describe, expect, expectTypeOf, it } from 'vitest';

/** The text of a result, as a plain MCP loop reads it. */
function firstText(result: McpCallToolResult): string {
  const first = result.content[0];
  if (first?.type === 'text') {
    const text: string = first.text;
    return text;
  }
  if (first?.type === 'image') return first.mimeType;
  return '';
}

describe('McpContent', () => {
  it('is a union both SDK majors fit, narrowed by `type`', () => {
    expectTypeOf<CallToolResultV1>().toExtend<McpCallToolResult>();
    expectTypeOf<CallToolResultV2>().toExtend<McpCallToolResult>();
    expectTypeOf<Extract<McpContent, { type: 'text' }>['text']>().toEqualTypeOf<string>();
  });

  it('narrows on a corrective answer of the router', async () => {
    const catalogue = await createMcpCatalogue({});
    const router = createMcpRouter(createToolSearch({ logger: { warn() {} } }), catalogue);
    const result = await router.call({ sessionId: 's' }, 'search_tools', 'not json');
    expect(firstText(result)).toContain('error');
  });
});
