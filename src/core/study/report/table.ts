/**
 * The paper-style results table of a study (seed 000's Tables 3–4): rows are the methods' labels,
 * columns the datasets (or the missing rates of one dataset series), each cell the mean ± std of
 * one metric over the seeds, the best value of a column in bold and the second underlined, and
 * each method's average rank. Renderers (render.ts, html.ts) print this model; nothing here
 * formats for one medium.
 *
 * Ties are decided at the printed precision: two means that print the same are the same value,
 * so they share a mark and the average of their ranks.
 */
import type { SelectionRule, StudyMetric, StudyRow } from '../types';
import { averageRanks, meanStd } from './stats';

/** One cell: the statistic of one method on one column over the seeds that finished. */
export interface TableCell {
  /** Mean and sample standard deviation (n − 1; 0 for one seed) in the table's unit. */
  readonly mean: number;
  readonly std: number;
  /** Seeds that finished with the metric, and seeds that failed. */
  readonly n: number;
  readonly failed: number;
  /** The mean as printed; what marks and ranks compare. */
  readonly value: number;
  /** 'mean ± std' at the table's precision. */
  readonly text: string;
  readonly mark: 'best' | 'second' | null;
  /** Rank within the column (1 = best, ties averaged); null when the column is not ranked. */
  readonly rank: number | null;
}

export interface StudyTable {
  readonly metric: StudyMetric;
  readonly rule: SelectionRule;
  /** Whether columns are dataset labels or missing rates. */
  readonly columnKind: 'dataset' | 'missingRate';
  readonly columns: readonly string[];
  readonly rows: readonly string[];
  /** cells[row][column]; null where the method has no finished seed on that column. */
  readonly cells: readonly (readonly (TableCell | null)[])[];
  /** Average rank of each row over the ranked columns (those where every row has a cell). */
  readonly avgRank: readonly (number | null)[];
  /** Marks of the average-rank column (lowest best). */
  readonly avgRankMark: readonly ('best' | 'second' | null)[];
  /** Indices of the columns every row has a cell in: the ones ranked and tested. */
  readonly rankedColumns: readonly number[];
  /** Values in percent (×100). */
  readonly percent: boolean;
  readonly digits: number;
  /** One line naming the metric, the unit, the seeds and the selection rule. */
  readonly caption: string;
  /** Ties, incomplete columns and failures, one sentence each. */
  readonly notes: readonly string[];
}

export interface StudyTableOptions {
  readonly metric: StudyMetric;
  /** Which selection rule chose the rows' grid points (the caller has already applied it). */
  readonly rule: SelectionRule;
  /** Columns by dataset label (default) or by missing rate (rows of one dataset series). */
  readonly columns?: 'dataset' | 'missingRate';
  /** Print values ×100 (default true except for silhouette, which lies in [−1, 1]). */
  readonly percent?: boolean;
  /** Decimals printed (default 2). */
  readonly digits?: number;
  /** Row order (method labels); default the order of first appearance. */
  readonly order?: readonly string[];
}

const RULE_TEXT: Record<SelectionRule, string> = {
  oracle:
    'oracle selection (grid point with the best mean score against the labels, as the papers do)',
  'label-free': 'label-free selection (grid point chosen without the labels)',
};

const METRIC_NAME: Record<StudyMetric, string> = {
  acc: 'ACC',
  nmi: 'NMI',
  purity: 'Purity',
  ari: 'ARI',
  f: 'F-score',
  silhouette: 'Silhouette',
};

/** The metric's display name ('ACC', 'NMI', …). */
export const metricName = (m: StudyMetric): string => METRIC_NAME[m];

/** Marks of `values` (null = no value): the largest 'best', the next distinct 'second'. */
function marks(
  values: readonly (number | null)[],
  lowerIsBetter = false,
): ('best' | 'second' | null)[] {
  const sign = lowerIsBetter ? -1 : 1;
  const distinct = [...new Set(values.filter((v): v is number => v !== null))].sort(
    (a, b) => sign * (b - a),
  );
  return values.map((v) =>
    v === null ? null : v === distinct[0] ? 'best' : v === distinct[1] ? 'second' : null,
  );
}

function columnKey(row: StudyRow, kind: 'dataset' | 'missingRate'): string {
  if (kind === 'dataset') return row.dataset;
  if (row.missingRate === null) {
    throw new Error(
      `columns 'missingRate': row ${row.cell} (dataset ${row.dataset}) has no missing rate`,
    );
  }
  return String(row.missingRate);
}

/** Joins names as 'A', 'A and B', 'A, B and C'. */
export function joinNames(names: readonly string[]): string {
  return names.length < 2
    ? (names[0] ?? '')
    : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/**
 * The table of `rows` (already one grid point per method × dataset, as `rule` chose) for one
 * metric. Every row with status 'done' and the metric contributes its seed; failed rows are
 * counted and noted.
 */
export function studyTable(rows: readonly StudyRow[], options: StudyTableOptions): StudyTable {
  const { metric, rule } = options;
  const kind = options.columns ?? 'dataset';
  const percent = options.percent ?? metric !== 'silhouette';
  const digits = options.digits ?? 2;
  if (!Number.isInteger(digits) || digits < 0 || digits > 6) {
    throw new Error(`digits: expected an integer in 0…6, got ${digits}`);
  }
  if (!(metric in METRIC_NAME)) throw new Error(`metric: unknown metric '${String(metric)}'`);
  const labels: string[] = [...(options.order ?? [])];
  const columns: string[] = [];
  const datasetOf = new Map<string, Set<string>>();
  const values = new Map<string, number[]>();
  const failures = new Map<string, number>();
  const seeds = new Set<number>();
  for (const r of rows) {
    if (!labels.includes(r.label)) {
      if (options.order) continue;
      labels.push(r.label);
    }
    const col = columnKey(r, kind);
    if (!columns.includes(col)) columns.push(col);
    if (!datasetOf.has(col)) datasetOf.set(col, new Set());
    datasetOf.get(col)!.add(r.dataset.replace(/@.*$/, ''));
    const key = `${r.label}\u0000${col}`;
    const v = r.metrics[metric];
    if (r.status === 'failed') failures.set(key, (failures.get(key) ?? 0) + 1);
    else if (v !== undefined) {
      const list = values.get(key) ?? [];
      list.push(v);
      values.set(key, list);
      seeds.add(r.seed);
    }
  }
  if (kind === 'missingRate') {
    columns.sort((a, b) => Number(a) - Number(b));
    for (const [col, sets] of datasetOf) {
      if (sets.size > 1) {
        throw new Error(
          `columns 'missingRate': rows of several datasets (${[...sets].join(', ')}) share missing rate ${col}; table one dataset series at a time or use columns 'dataset'`,
        );
      }
    }
  }
  const scale = percent ? 100 : 1;
  const round = (x: number): number => Number(x.toFixed(digits));
  const grid: (Omit<TableCell, 'mark' | 'rank'> | null)[][] = labels.map((label) =>
    columns.map((col) => {
      const key = `${label}\u0000${col}`;
      const xs = values.get(key);
      if (!xs) return null;
      const [m, s] = meanStd(xs.map((x) => x * scale));
      const text = `${m.toFixed(digits)} ± ${s.toFixed(digits)}`;
      return {
        mean: m,
        std: s,
        n: xs.length,
        failed: failures.get(key) ?? 0,
        value: round(m),
        text,
      };
    }),
  );
  const notes: string[] = [];
  const rankedColumns = columns.map((_, c) => c).filter((c) => grid.every((row) => row[c]));
  const colMarks = columns.map((_, c) => marks(grid.map((row) => row[c]?.value ?? null)));
  const colRanks = columns.map((_, c) =>
    rankedColumns.includes(c) ? averageRanks(grid.map((row) => row[c]!.value)) : null,
  );
  const cells = grid.map((row, r) =>
    row.map((cell, c) =>
      cell ? { ...cell, mark: colMarks[c]![r]!, rank: colRanks[c]?.[r] ?? null } : null,
    ),
  );
  columns.forEach((col, c) => {
    for (const mark of ['best', 'second'] as const) {
      const tied = labels.filter((_, r) => cells[r]![c]?.mark === mark);
      if (tied.length > 1) notes.push(`${col}: ${joinNames(tied)} tie for the ${mark} value.`);
    }
  });
  const avgRank = labels.map((_, r) =>
    rankedColumns.length
      ? rankedColumns.reduce((s, c) => s + colRanks[c]![r]!, 0) / rankedColumns.length
      : null,
  );
  const avgRankMark = marks(
    avgRank.map((v) => (v === null ? null : round(v))),
    true,
  );
  for (const mark of ['best', 'second'] as const) {
    const tied = labels.filter((_, r) => avgRankMark[r] === mark);
    if (tied.length > 1) notes.push(`Avg. rank: ${joinNames(tied)} tie for the ${mark} value.`);
  }
  const missing = columns.filter((_, c) => !rankedColumns.includes(c));
  if (missing.length) {
    notes.push(
      `Average ranks use the ${rankedColumns.length} column(s) where every method has a result; left out: ${missing.join(', ')}.`,
    );
  }
  labels.forEach((label, r) => {
    columns.forEach((col, c) => {
      const failed = failures.get(`${label}\u0000${col}`) ?? 0;
      if (failed) {
        const done = cells[r]![c]?.n ?? 0;
        notes.push(`${label} on ${col}: ${failed} run(s) failed, ${done} finished.`);
      }
    });
  });
  const unit = percent ? ' (%)' : '';
  const caption = `${METRIC_NAME[metric]}${unit}, mean ± std over ${seeds.size} seed(s); ${RULE_TEXT[rule]}. Best in bold, second underlined; ties at the printed precision share a mark and the average rank.`;
  return {
    metric,
    rule,
    columnKind: kind,
    columns,
    rows: labels,
    cells,
    avgRank,
    avgRankMark,
    rankedColumns,
    percent,
    digits,
    caption,
    notes,
  };
}

/** The table's column header: the dataset label, or 'Missing rate r' for missing-rate columns. */
export const columnTitle = (t: StudyTable, c: number): string =>
  t.columnKind === 'missingRate' ? `Missing ${t.columns[c]!}` : t.columns[c]!;

/** The average rank as printed (two decimals), or '—'. */
export const rankText = (r: number | null): string => (r === null ? '—' : r.toFixed(2));
