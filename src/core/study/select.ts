/**
 * Parameter selection over a study's grid, honestly labelled (issue 22): for each method entry
 * and dataset, the grid points summarised over their seeds and two choices side by side, never
 * mixed:
 * - **oracle**: the point with the best mean of the oracle metric (ACC by default) against the
 *   ground truth, what the papers report;
 * - **label-free**: the point with the best mean silhouette when every seed scored one (datasets
 *   without labels), else the best mean cross-seed stability (StudyRow.stability: mean pairwise
 *   ARI of the seeds' labels), else none, with the reason. The lowest objective is not used: a
 *   grid over a penalty weight or the number of anchors changes the objective's scale, so its
 *   values are not comparable across points.
 *
 * A point with a failed seed takes no part in either choice (its mean would be over fewer
 * seeds). Ties go to the first point in cell order.
 *
 * Pure.
 */
import type { ParamValue } from '../solvers/types';
import { meanStd } from './report/stats';
import type { LabelFreeRule } from './spec';
import type { SelectionRule, StudyMetric, StudyRow } from './types';

/** Mean and sample standard deviation (N − 1; 0 with one value). */
export interface MeanStd {
  readonly mean: number;
  readonly std: number;
}

/** One grid point of one entry on one dataset, over its seeds. */
export interface GridPointSummary {
  readonly cell: string;
  readonly grid: Readonly<Record<string, ParamValue>>;
  readonly params: Readonly<Record<string, ParamValue>>;
  readonly seeds: number;
  readonly failed: number;
  readonly metrics: Readonly<Partial<Record<StudyMetric, MeanStd>>>;
  readonly stability: MeanStd | null;
  readonly objective: MeanStd | null;
}

export interface Choice {
  readonly rule: SelectionRule;
  /** What was maximised: a metric, or 'stability'. */
  readonly criterion: StudyMetric | 'stability';
  readonly cell: string;
  readonly grid: Readonly<Record<string, ParamValue>>;
  /** The criterion's mean at the chosen point. */
  readonly value: number;
}

export interface Selection {
  readonly label: string;
  readonly method: string;
  readonly dataset: string;
  readonly points: readonly GridPointSummary[];
  readonly oracle: Choice | null;
  readonly labelFree: Choice | null;
  /** Why a choice is missing ('' when both are made). */
  readonly note: string;
}

/** meanStd of report/stats as a record. */
function summary(xs: readonly number[]): MeanStd {
  const [mean, std] = meanStd(xs);
  return { mean, std };
}

/** Summary of one cell's rows (all of one cell). */
export function summarizeCell(rows: readonly StudyRow[]): GridPointSummary {
  const first = rows[0]!;
  const done = rows.filter((r) => r.status === 'done');
  const metrics: Partial<Record<StudyMetric, MeanStd>> = {};
  const names = new Set(done.flatMap((r) => Object.keys(r.metrics) as StudyMetric[]));
  for (const m of names) {
    const xs = done.map((r) => r.metrics[m]).filter((x): x is number => x !== undefined);
    if (xs.length === done.length) metrics[m] = summary(xs);
  }
  const all = <T>(xs: (T | null | undefined)[]): xs is T[] =>
    xs.length > 0 && xs.every((x) => x !== null && x !== undefined);
  const stab = done.map((r) => r.stability);
  const obj = done.map((r) => r.objective);
  return {
    cell: first.cell,
    grid: first.grid,
    params: first.params,
    seeds: rows.length,
    failed: rows.length - done.length,
    metrics,
    stability: all(stab) ? summary(stab) : null,
    objective: all(obj) ? summary(obj) : null,
  };
}

/** The best point by `score` (first on ties), or null when no point has a score. */
function best(
  points: readonly GridPointSummary[],
  score: (p: GridPointSummary) => number | undefined,
): GridPointSummary | null {
  let chosen: GridPointSummary | null = null;
  let top = -Infinity;
  for (const p of points) {
    const s = score(p);
    if (p.failed > 0 || s === undefined || !(s > top)) continue;
    chosen = p;
    top = s;
  }
  return chosen;
}

function choice(
  rule: SelectionRule,
  criterion: StudyMetric | 'stability',
  p: GridPointSummary,
  value: number,
): Choice {
  return { rule, criterion, cell: p.cell, grid: p.grid, value };
}

/** The label-free choice among `points` by `rule`, or the reason there is none. */
function labelFreeChoice(
  points: readonly GridPointSummary[],
  rule: LabelFreeRule,
): Choice | string {
  const complete = points.filter((p) => p.failed === 0);
  if (complete.length === 0) return 'every grid point has a failed seed';
  const silhouette = complete.every((p) => p.metrics.silhouette !== undefined);
  if (rule === 'silhouette' || (rule === 'auto' && silhouette)) {
    const p = best(points, (q) => q.metrics.silhouette?.mean);
    if (p) return choice('label-free', 'silhouette', p, p.metrics.silhouette!.mean);
    return 'no silhouette was scored (it is scored on datasets without labels)';
  }
  const p = best(points, (q) => q.stability?.mean);
  if (p) return choice('label-free', 'stability', p, p.stability!.mean);
  return 'no stability was scored (it needs at least 2 seeds)';
}

/**
 * The selections of `rows`, one per (entry label, dataset) in the rows' order, each with its
 * points in cell order. `oracle` is the metric the oracle maximises; `labelFree` the rule.
 */
export function selectGrid(
  rows: readonly StudyRow[],
  oracle: StudyMetric = 'acc',
  labelFree: LabelFreeRule = 'auto',
): Selection[] {
  const groups = new Map<string, Map<string, StudyRow[]>>();
  for (const r of rows) {
    const key = JSON.stringify([r.label, r.dataset]);
    const cells = groups.get(key) ?? new Map<string, StudyRow[]>();
    groups.set(key, cells);
    const list = cells.get(r.cell) ?? [];
    cells.set(r.cell, list);
    list.push(r);
  }
  const out: Selection[] = [];
  for (const cells of groups.values()) {
    const ids = [...cells.keys()].sort();
    const points = ids.map((id) => summarizeCell(cells.get(id)!));
    const first = cells.get(ids[0]!)![0]!;
    const o = best(points, (p) => p.metrics[oracle]?.mean);
    const lf = labelFreeChoice(points, labelFree);
    const notes: string[] = [];
    if (!o) notes.push(`no oracle choice: no complete grid point scored ${oracle} (labels needed)`);
    if (typeof lf === 'string') notes.push(`no label-free choice: ${lf}`);
    out.push({
      label: first.label,
      method: first.method,
      dataset: first.dataset,
      points,
      oracle: o ? choice('oracle', oracle, o, o.metrics[oracle]!.mean) : null,
      labelFree: typeof lf === 'string' ? null : lf,
      note: notes.join('; '),
    });
  }
  return out;
}
