/**
 * Text output of `study` and `sweep`: the progress line, a minimal Markdown results table (until
 * the paper-style report of core/study/report lands; `study report` calls `renderStudyMarkdown`
 * only, so the swap is one import) and the sweep's heatmap table with both choices marked.
 */
import type { Choice, GridPointSummary, Selection } from '../core/study/select';
import type { StudyMetric } from '../core/study/types';
import type { ParamValue } from '../core/solvers/types';
import { table } from './format';

const NAMES: Readonly<Record<StudyMetric | 'stability', string>> = {
  acc: 'ACC',
  nmi: 'NMI',
  purity: 'Purity',
  ari: 'ARI',
  f: 'F',
  silhouette: 'Silhouette',
  stability: 'stability (mean pairwise ARI across seeds)',
};

const pm = (m: { mean: number; std: number } | undefined | null): string =>
  m ? `${m.mean.toFixed(3)} ± ${m.std.toFixed(3)}` : '–';

/** '1m05s', '42s'. */
export function duration(seconds: number): string {
  const s = Math.round(seconds);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/** 'lambda=1 anchors=20' ('(no grid)' for an empty point). */
export function gridText(grid: Readonly<Record<string, ParamValue>>): string {
  const parts = Object.entries(grid).map(([k, v]) => `${k}=${String(v)}`);
  return parts.length ? parts.join(' ') : '(no grid)';
}

/** The line saying how a choice was made. */
export function choiceLine(c: Choice | null, what: string): string {
  if (!c) return `${what}: none`;
  const rule = c.rule === 'oracle' ? 'best mean, uses the labels' : 'best mean, no labels used';
  return `${what} (${rule}): ${gridText(c.grid)}  ${NAMES[c.criterion]} ${c.value.toFixed(3)}`;
}

/**
 * Ranks of `values`: 1 = highest, ties share the mean of their ranks, and a missing value (a
 * failed or absent cell) ranks after every value, tied with the other missing ones.
 */
export function ranks(values: readonly (number | null)[]): number[] {
  const present = values.filter((x): x is number => x !== null);
  const missing = values.length - present.length;
  return values.map((v) => {
    if (v === null) return present.length + (missing + 1) / 2;
    const above = present.filter((x) => x > v).length;
    const tied = present.filter((x) => x === v).length;
    return above + (tied + 1) / 2;
  });
}

/**
 * The results as a Markdown table: a row per method entry, a column per dataset, the metric's
 * mean ± std at the point `rule` chose (the only point without a grid), the best of each column
 * in bold, and each entry's average rank over the datasets (a missing value ranks last). The
 * selection rule is stated above the table.
 */
export function renderStudyMarkdown(
  selections: readonly Selection[],
  metric: StudyMetric,
  rule: 'oracle' | 'label-free',
  oracleMetric: StudyMetric,
): string {
  const labels = [...new Set(selections.map((s) => s.label))];
  const datasets = [...new Set(selections.map((s) => s.dataset))];
  const value = (l: string, d: string): { mean: number; std: number } | null => {
    const s = selections.find((x) => x.label === l && x.dataset === d);
    if (!s) return null;
    const chosen = rule === 'oracle' ? s.oracle : s.labelFree;
    const c = s.points.length === 1 ? s.points[0]! : s.points.find((p) => p.cell === chosen?.cell);
    return c?.failed === 0 ? (c.metrics[metric] ?? null) : null;
  };
  const grid = labels.map((l) => datasets.map((d) => value(l, d)));
  // rankOf[j][i]: the rank of entry i on dataset j.
  const rankOf = datasets.map((_, j) => ranks(grid.map((row) => row[j]?.mean ?? null)));
  const best = datasets.map((_, j) => Math.max(...grid.map((row) => row[j]?.mean ?? -Infinity)));
  const how =
    rule === 'oracle'
      ? `best mean ${NAMES[oracleMetric]} against the labels`
      : 'no labels used: best silhouette, else cross-seed stability';
  const lines = [
    `${NAMES[metric]}, mean ± std over seeds; parameters of a grid chosen by the ${rule} rule (${how}); in the average rank a missing value (–) ranks last.`,
    '',
    `| Method | ${datasets.join(' | ')} | Avg. rank |`,
    `|---|${datasets.map(() => '---:').join('|')}|---:|`,
  ];
  labels.forEach((l, i) => {
    const cells = grid[i]!.map((v, j) =>
      v !== null && v.mean === best[j] ? `**${pm(v)}**` : pm(v),
    );
    const avg = (rankOf.reduce((a, r) => a + r[i]!, 0) / datasets.length).toFixed(2);
    lines.push(`| ${l} | ${cells.join(' | ')} | ${avg} |`);
  });
  return lines.join('\n') + '\n';
}

/**
 * The sweep's heatmap as a text table: rows the values of the first grid parameter, columns the
 * combinations of the others, each cell `metric` mean ± std; `*` marks the oracle choice and `+`
 * the label-free one.
 */
export function renderHeatmap(s: Selection, metric: StudyMetric, k: number): string {
  const names = Object.keys(s.points[0]?.grid ?? {});
  const [rowName, ...colNames] = names;
  const key = (p: GridPointSummary, ns: readonly string[]): string =>
    ns.map((n) => `${n}=${String(p.grid[n])}`).join(' ');
  const rowKeys = [...new Set(s.points.map((p) => (rowName ? key(p, [rowName]) : '(no grid)')))];
  const colKeys = [
    ...new Set(s.points.map((p) => (colNames.length ? key(p, colNames) : metric.toUpperCase()))),
  ];
  const header = ['', ...colKeys.map((c) => c + '  ')]; // room for the marks
  const body = rowKeys.map((rk) => [
    rk,
    ...colKeys.map((ck) => {
      const p = s.points.find(
        (q) =>
          (rowName ? key(q, [rowName]) : '(no grid)') === rk &&
          (colNames.length ? key(q, colNames) : metric.toUpperCase()) === ck,
      );
      if (!p) return '';
      const marks =
        (p.cell === s.oracle?.cell ? '*' : ' ') + (p.cell === s.labelFree?.cell ? '+' : ' ');
      return (p.failed > 0 ? 'failed' : pm(p.metrics[metric])) + marks;
    }),
  ]);
  return (
    [
      `${s.label} on ${s.dataset} (k = ${k}): ${NAMES[metric]}, mean ± std over seeds`,
      '',
      table([header, ...body]),
      '',
      choiceLine(s.oracle, '* oracle'),
      choiceLine(s.labelFree, '+ label-free'),
      ...(s.note ? [s.note] : []),
    ].join('\n') + '\n'
  );
}
