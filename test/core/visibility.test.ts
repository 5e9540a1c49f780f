import { createToolSearch, type SearchResult, type Tool } from 'tool-search-layer';
import { describe, expect, it } from 'vitest';

// Visibility is kept per tools array and group selection (a mask built once): a layer answering one array under many
// selections, more than it keeps, must show each search exactly the tools of its own selection.
const GROUPS = ['g0', 'g1', 'g2', 'g3', 'g4', 'g5', 'g6', 'g7', 'g8', 'g9', 'g10', 'g11'];
const tools: Tool[] = [
  ...GROUPS.map((group, i) => ({
    name: `report_tool_${i}`,
    description: 'Sends the weekly report',
    groups: [group, `${group}-extra`],
    parameters: { type: 'object', properties: {} },
  })),
  { name: 'report_ungrouped', description: 'Sends the weekly report', parameters: { type: 'object', properties: {} } },
];

const expected = (enabled: readonly string[] | undefined): string[] =>
  tools
    .filter((t) => !enabled || !t.groups || t.groups.some((g) => enabled.includes(g)))
    .map((t) => t.name)
    .sort();

describe('visibility under many group selections', () => {
  it('shows each search its own selection, whichever selections came before', async () => {
    const layer = createToolSearch({ logger: { warn() {} }, maxSearchResults: 0 });
    const selections: (string[] | undefined)[] = [
      undefined,
      [],
      ...GROUPS.map((g) => [g]),
      ['g3', 'g9'],
      ['g9', 'g3', 'g3'],
      ['g1-extra'],
    ];
    // Twice over, so the second pass runs after the first selections were let go.
    for (const enabledGroups of [...selections, ...selections.reverse()]) {
      const result = (await layer.search(
        { sessionId: 's', tools, ...(enabledGroups && { enabledGroups }) },
        { query: 'weekly report', limit: 50 },
      )) as SearchResult;
      expect(result.tools.map((t) => t.name).sort(), JSON.stringify(enabledGroups)).toEqual(expected(enabledGroups));
      const call = await layer.checkCall(
        { sessionId: 's', tools, ...(enabledGroups && { enabledGroups }) },
        'report_tool_5',
      );
      expect(call.ok, JSON.stringify(enabledGroups)).toBe(expected(enabledGroups).includes('report_tool_5'));
    }
  });

  it('shares a mask between arrays of the same tools, and never with an array whose groups differ', async () => {
    const layer = createToolSearch({ logger: { warn() {} }, maxSearchResults: 0 });
    const names = async (array: Tool[], enabledGroups: string[]) =>
      (
        (await layer.search(
          { sessionId: 's', tools: array, enabledGroups },
          { query: 'weekly report', limit: 50 },
        )) as SearchResult
      ).tools
        .map((t) => t.name)
        .sort();
    expect(await names(tools, ['g1'])).toEqual(expected(['g1']));
    // A new array of the same objects, and one of equal copies, as adapters rebuild them every step.
    expect(await names([...tools], ['g1'])).toEqual(expected(['g1']));
    expect(
      await names(
        tools.map((t) => ({ ...t })),
        ['g1'],
      ),
    ).toEqual(expected(['g1']));
    // The same names with report_tool_2 moved into g1: its own findings, so its own mask.
    const moved = tools.map((t) => (t.name === 'report_tool_2' ? { ...t, groups: ['g1'] } : t));
    expect(await names(moved, ['g1'])).toEqual([...expected(['g1']), 'report_tool_2'].sort());
    // And one that drops report_tool_1 from g1 (same positions, other groups).
    const dropped = tools.map((t) => (t.name === 'report_tool_1' ? { ...t, groups: ['g2'] } : t));
    expect(await names(dropped, ['g1'])).toEqual(expected(['g1']).filter((n) => n !== 'report_tool_1'));
  });
});
