import { createToolSearch, type Tool } from 'tool-search-layer';
import { describe, expect, it } from 'vitest';

// The names list of the search tool's description is kept per catalogue for every layer of the process (a Worker
// builds a layer per request): a layer whose options change the list must never get another layer's.
const tools: Tool[] = Array.from({ length: 60 }, (_, i) => ({
  name: `tool_${String(i).padStart(2, '0')}`,
  description: `Does task ${i}`,
  groups: [i % 2 ? 'odd' : 'even'],
}));

const descriptionOf = async (options: Parameters<typeof createToolSearch>[0], enabledGroups?: string[]) => {
  const layer = createToolSearch({ logger: { warn() {} }, maxDirectTools: 5, ...options });
  const { tools: sent } = await layer.prepare({
    sessionId: 's',
    tools: [...tools],
    ...(enabledGroups && { enabledGroups }),
  });
  return (sent.find((tool) => tool.name === 'search_tools') as Tool).description as string;
};

describe('the names list shared by the layers of a process', () => {
  it('is the same for layers with the same options, and follows every option that changes it', async () => {
    const plain = await descriptionOf({});
    expect(await descriptionOf({})).toBe(plain);
    expect(plain).toContain('tool_59');
    // A budget that cuts the list.
    const cut = await descriptionOf({ toolNamesBudget: 200 });
    expect(cut).not.toContain('tool_59');
    expect(cut).toMatch(/more tools not listed here|odd \(/);
    // An always-direct tool leaves the list.
    expect(await descriptionOf({ alwaysDirectTools: ['tool_59'] })).not.toContain('tool_59');
    // A group selection lists only its tools.
    const even = await descriptionOf({}, ['even']);
    expect(even).toContain('tool_58');
    expect(even).not.toContain('tool_59');
    // The texts it uses.
    expect(await descriptionOf({ texts: { namesIntro: 'Tools here:' } })).toContain('Tools here:');
    expect(
      await descriptionOf({ toolNamesBudget: 200, texts: { namesMoreGroups: 'and {count} others in {groups}' } }),
    ).toContain('others');
    // And the plain list again, unchanged by the others.
    expect(await descriptionOf({})).toBe(plain);
  });
});
