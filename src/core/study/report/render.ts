/**
 * A StudyTable as CSV (numbers at full precision, for further analysis), Markdown (bold `**x**`,
 * underline `<u>x</u>`) and LaTeX (booktabs, `\textbf`, `\underline`). Every output states the
 * metric and the selection rule in its caption and lists the table's notes.
 */
import { csvFormatRows } from 'd3-dsv';
import type { StudyTable, TableCell } from './table';
import { columnTitle, metricName, rankText } from './table';

/**
 * One header row and one row per method: `metric, selection, method`, then `<column> mean`,
 * `<column> std`, `<column> n` per column, then `avg rank`. Empty fields where there is no
 * value. Quoting follows RFC 4180 (d3-dsv).
 */
export function renderCsv(t: StudyTable): string {
  const header = ['metric', 'selection', 'method'];
  t.columns.forEach((_, c) => {
    const name = columnTitle(t, c);
    header.push(`${name} mean`, `${name} std`, `${name} n`);
  });
  header.push('avg rank');
  const body = t.rows.map((label, r) => {
    const fields = [t.metric, t.rule, label];
    for (const cell of t.cells[r]!) {
      fields.push(...(cell ? [String(cell.mean), String(cell.std), String(cell.n)] : ['', '', '']));
    }
    fields.push(t.avgRank[r] === null ? '' : String(t.avgRank[r]));
    return fields;
  });
  return csvFormatRows([header, ...body]) + '\n';
}

type Mark = TableCell['mark'];

const markdownCell = (text: string, mark: Mark): string =>
  mark === 'best' ? `**${text}**` : mark === 'second' ? `<u>${text}</u>` : text;

/** Markdown table text: pipes, backslashes, asterisks, underscores and angle brackets escaped. */
export const escapeMarkdown = (s: string): string =>
  s.replace(/[\\|*_<>`[\]]/g, (ch) => (ch === '<' ? '&lt;' : ch === '>' ? '&gt;' : `\\${ch}`));

/** A GitHub-flavoured Markdown table with the caption above and the notes below. */
export function renderMarkdown(t: StudyTable): string {
  const head = [
    'Method',
    ...t.columns.map((_, c) => escapeMarkdown(columnTitle(t, c))),
    'Avg. rank',
  ];
  const lines = [
    `**${metricName(t.metric)}** (${t.rule}): ${escapeMarkdown(t.caption)}`,
    '',
    `| ${head.join(' | ')} |`,
    `| ${['---', ...head.slice(1).map(() => '---:')].join(' | ')} |`,
  ];
  t.rows.forEach((label, r) => {
    const cells = t.cells[r]!.map((cell) => (cell ? markdownCell(cell.text, cell.mark) : '—'));
    const rank = markdownCell(rankText(t.avgRank[r] ?? null), t.avgRankMark[r] ?? null);
    lines.push(`| ${[escapeMarkdown(label), ...cells, rank].join(' | ')} |`);
  });
  if (t.notes.length) lines.push('', ...t.notes.map((n) => `- ${escapeMarkdown(n)}`));
  return lines.join('\n') + '\n';
}

const LATEX_SPECIAL: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '&': '\\&',
  '%': '\\%',
  $: '\\$',
  '#': '\\#',
  _: '\\_',
  '{': '\\{',
  '}': '\\}',
  '~': '\\textasciitilde{}',
  '^': '\\textasciicircum{}',
  '<': '\\textless{}',
  '>': '\\textgreater{}',
};

/** Text with LaTeX's special characters escaped (for labels, captions, notes). */
export const escapeLatex = (s: string): string =>
  s.replace(/[\\&%$#_{}~^<>]/g, (ch) => LATEX_SPECIAL[ch]!).replace(/±/g, '$\\pm$');

const latexCell = (text: string, mark: Mark): string => {
  const body = text.replace(' ± ', ' $\\pm$ ');
  return mark === 'best' ? `\\textbf{${body}}` : mark === 'second' ? `\\underline{${body}}` : body;
};

/**
 * A `table` environment with a booktabs `tabular` (needs `\usepackage{booktabs}`), the caption
 * and a `\label` from the metric and rule, and the notes in small type below the rules.
 */
export function renderLatex(t: StudyTable): string {
  const head = [
    'Method',
    ...t.columns.map((_, c) => escapeLatex(columnTitle(t, c))),
    'Avg.\\ rank',
  ];
  const lines = [
    '\\begin{table}[t]',
    '\\centering',
    `\\caption{${escapeLatex(t.caption)}}`,
    `\\label{tab:${t.metric}-${t.rule}}`,
    `\\begin{tabular}{l${'c'.repeat(t.columns.length)}c}`,
    '\\toprule',
    `${head.join(' & ')} \\\\`,
    '\\midrule',
  ];
  t.rows.forEach((label, r) => {
    const cells = t.cells[r]!.map((cell) => (cell ? latexCell(cell.text, cell.mark) : '--'));
    const rank = latexCell(
      rankText(t.avgRank[r] ?? null).replace('—', '--'),
      t.avgRankMark[r] ?? null,
    );
    lines.push(`${[escapeLatex(label), ...cells, rank].join(' & ')} \\\\`);
  });
  lines.push('\\bottomrule', '\\end{tabular}');
  if (t.notes.length) {
    lines.push('\\par\\smallskip\\footnotesize', ...t.notes.map((n) => `${escapeLatex(n)}\\par`));
  }
  lines.push('\\end{table}');
  return lines.join('\n') + '\n';
}
