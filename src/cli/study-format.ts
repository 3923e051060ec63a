/**
 * Text output of `study` and `sweep`: the progress line, the choice lines and the sweep's heatmap
 * table with both choices marked. `study report` is study-report.ts.
 */
import type { Choice, GridPointSummary, Selection } from '../core/study/select';
import type { StudyMetric } from '../core/study/types';
import type { ParamValue } from '../core/solvers/types';
import { heatmapMarkdown } from '../core/study/report';

const NAMES: Readonly<Record<StudyMetric | 'stability', string>> = {
  acc: 'ACC',
  nmi: 'NMI',
  purity: 'Purity',
  ari: 'ARI',
  f: 'F',
  silhouette: 'Silhouette',
  stability: 'stability (mean pairwise ARI across seeds)',
};

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
 * The sweep's grid as a heatmap table (core/study/report's heatmapMarkdown): rows the values of
 * the first grid parameter, columns the combinations of the others (or the metric alone), each
 * cell the mean of `metric` over the seeds in percent (silhouette as is); `O` marks the oracle
 * choice and `L` the label-free one. A point with a failed seed shows '—' (it takes no part in
 * either choice). The choice lines follow.
 */
export function renderHeatmap(s: Selection, metric: StudyMetric, k: number): string {
  const [rowName, ...colNames] = Object.keys(s.points[0]?.grid ?? {});
  const text = (p: GridPointSummary, ns: readonly string[]): string =>
    ns.length === 1 ? String(p.grid[ns[0]!]) : ns.map((n) => `${n}=${String(p.grid[n])}`).join(' ');
  const rowOf = (p: GridPointSummary): string => (rowName ? text(p, [rowName]) : '(no grid)');
  const colOf = (p: GridPointSummary): string =>
    colNames.length ? text(p, colNames) : NAMES[metric];
  const yValues = [...new Set(s.points.map(rowOf))];
  const xValues = [...new Set(s.points.map(colOf))];
  const scale = metric === 'silhouette' ? 1 : 100;
  const at = (cell: string | undefined): { x: number; y: number } | null => {
    const p = s.points.find((q) => q.cell === cell);
    return p ? { x: xValues.indexOf(colOf(p)), y: yValues.indexOf(rowOf(p)) } : null;
  };
  const marks = [
    { at: at(s.oracle?.cell), tag: 'O' },
    { at: at(s.labelFree?.cell), tag: 'L' },
  ].flatMap((m) => (m.at ? [{ ...m.at, tag: m.tag }] : []));
  const values = yValues.map((y) =>
    xValues.map((x) => {
      const p = s.points.find((q) => rowOf(q) === y && colOf(q) === x);
      const m = p && p.failed === 0 ? p.metrics[metric] : undefined;
      return m ? m.mean * scale : null;
    }),
  );
  const unit = scale === 100 ? ' (%)' : '';
  return (
    [
      heatmapMarkdown({
        title: `${s.label} on ${s.dataset} (k = ${k}): ${NAMES[metric]}${unit}, mean over seeds`,
        xLabel: colNames.length ? colNames.join(', ') : 'metric',
        yLabel: rowName ?? 'grid',
        xValues,
        yValues,
        values,
        marks,
      }),
      choiceLine(s.oracle, 'O oracle'),
      choiceLine(s.labelFree, 'L label-free'),
      ...(s.note ? [s.note] : []),
    ].join('\n') + '\n'
  );
}
