// One table model, rendered twice: aligned text for the terminal, Markdown for the README.

export interface Table {
  title: string;
  columns: readonly string[];
  rows: readonly (readonly string[])[];
  /** Lines printed under the table: settings, samples, caveats. */
  notes?: readonly string[];
}

/** A number, possibly with a unit after it ("1,553", "0.5 ms", "10.60 KB", "4.0× faster"). */
const isNumeric = (cell: string): boolean => /^[-+]?\d[\d.,]*(\s?\S.*)?$/.test(cell);

/** Monospace text: columns padded, numbers right-aligned. */
export function renderText(table: Table): string {
  const widths = table.columns.map((c, i) => Math.max(c.length, ...table.rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (isNumeric(cell) ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [
    table.title,
    line(table.columns),
    rule,
    ...table.rows.map(line),
    ...(table.notes ?? []).map((n) => `  ${n}`),
  ].join('\n');
}

const escapeCell = (cell: string): string => cell.replace(/\|/g, '\\|');

/** GitHub Markdown: a heading, the table (numbers right-aligned, judged by the first row), notes as a list. */
export function renderMarkdown(table: Table): string {
  const first = table.rows[0] ?? [];
  const align = table.columns.map((_, i) => (isNumeric(first[i] ?? '') ? '---:' : '---'));
  return [
    `### ${table.title}`,
    '',
    `| ${table.columns.map(escapeCell).join(' | ')} |`,
    `| ${align.join(' | ')} |`,
    ...table.rows.map((r) => `| ${r.map(escapeCell).join(' | ')} |`),
    ...(table.notes?.length ? ['', ...table.notes.map((n) => `- ${n}`)] : []),
  ].join('\n');
}
