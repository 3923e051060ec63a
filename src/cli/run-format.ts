/**
 * What `run`, `compare` and `show` print: the run summary (the `--json` object) and its
 * human-readable forms. `show` rebuilds the same summary from a bundle's run.json, so a
 * reopened run reads as it did when it ran.
 */
import type { MetricSummary, ProtocolKind } from '../core/protocol';
import type { Params } from '../core/solvers/types';
import type { RunTimings } from '../io/bundle';
import { table } from './format';

/**
 * The metrics in the order they are printed (specs/metrics.md, the Improved IMVC-CBG order,
 * then the two entropies); any other metric a run reports follows them.
 */
export const METRIC_ORDER = [
  'ACC',
  'NMI',
  'Purity',
  'Fscore',
  'Precision',
  'Recall',
  'ARI',
  'Entropy',
  'EntropyPred',
] as const;

/** The columns of the compare table (the entropies stay out to keep it one screen wide). */
const COMPARE_COLUMNS = METRIC_ORDER.slice(0, 7);

/** What `run --json` prints, and one element of `compare --json`. */
export interface RunSummary {
  readonly method: string;
  /** The dataset's first file. */
  readonly file: string;
  /** Every file of the dataset, in view order. */
  readonly files: readonly string[];
  /** Samples and views of the dataset. */
  readonly n: number;
  readonly V: number;
  readonly params: Params;
  readonly k: number;
  readonly protocol: ProtocolKind;
  readonly seeds: readonly number[];
  /** Every metric the app shows: with ground truth, the external metrics, entropies included. */
  readonly metrics?: Readonly<Record<string, MetricSummary>>;
  /** Without ground truth: the silhouette of the labels on the embedding. */
  readonly silhouette?: MetricSummary;
  readonly timings: RunTimings;
  readonly iterations: number;
  readonly converged: boolean;
  /** The protocol's and the method's notes (empty clusters, rules applied, ...). */
  readonly notes: readonly string[];
  /** The bundle's folder; null when it could not be written (the error is on stderr). */
  readonly bundle: string | null;
}

/** The metrics of a run split the way the summary holds them, in METRIC_ORDER. */
export function scoresOf(
  metrics: Readonly<Record<string, MetricSummary>>,
  labelled: boolean,
): { metrics?: Record<string, MetricSummary>; silhouette?: MetricSummary } {
  if (!labelled) return metrics['Silhouette'] ? { silhouette: metrics['Silhouette'] } : {};
  const known: readonly string[] = METRIC_ORDER;
  const names = [
    ...METRIC_ORDER.filter((m) => metrics[m] !== undefined),
    ...Object.keys(metrics).filter((m) => !known.includes(m)),
  ];
  const out: Record<string, MetricSummary> = {};
  for (const name of names) out[name] = metrics[name]!;
  return { metrics: out };
}

/** One metric: `mean ± std` over several seeds, the value alone for one seed. */
function fmt(m: MetricSummary | undefined, seeds: number): string {
  if (!m) return '-';
  return seeds === 1 ? m.mean.toFixed(4) : `${m.mean.toFixed(4)} ± ${m.std.toFixed(4)}`;
}

/** `0..19 (20)` or the one seed. */
function seedsText(seeds: readonly number[]): string {
  return seeds.length === 1 ? String(seeds[0]) : `${seeds[0]}..${seeds.at(-1)} (${seeds.length})`;
}

/** The human-readable form of one run; the `bundle` line only once the bundle is written. */
export function formatRun(s: RunSummary): string {
  const params = Object.entries(s.params).map(([k, v]) => `${k}=${String(v)}`);
  const t = s.timings;
  const scores = s.metrics ?? (s.silhouette ? { Silhouette: s.silhouette } : {});
  const single = s.seeds.length === 1;
  const files = s.files.length > 1 ? s.files : [s.file];
  const out = [
    `method      ${s.method}`,
    ...files.map((f, i) => `${i === 0 ? 'file        ' : '            '}${f}`),
    `data        n = ${s.n}, V = ${s.V}`,
    `params      ${params.join(' ') || '(none)'}`,
    `k           ${s.k}`,
    `protocol    ${s.protocol}`,
    `seeds       ${seedsText(s.seeds)}`,
    '',
    table([
      ['metric', single ? 'value' : 'mean ± std'],
      ...Object.entries(scores).map(([name, m]) => [name, fmt(m, s.seeds.length)]),
    ]),
    '',
    `iterations  ${s.iterations}${s.converged ? '' : ' (NOT converged)'}`,
    `time        ${t.total_s.toFixed(2)} s (load ${t.load_s.toFixed(2)}, solve ${t.solve_s.toFixed(2)}, k-means ${t.kmeans_s.toFixed(2)})`,
    ...s.notes.map((n, i) => `${i === 0 ? 'notes       ' : '            '}${n}`),
  ];
  if (s.bundle !== null) out.push(bundleLine(s.bundle));
  return out.join('\n') + '\n';
}

export const bundleLine = (dir: string): string => `bundle      ${dir}`;

/**
 * The table of `compare`: mean ± std per metric and total time, one row per method, then the
 * dataset's line and the bundles written so far.
 */
export function formatCompare(runs: readonly RunSummary[]): string {
  const names: readonly string[] = runs[0]?.metrics ? COMPARE_COLUMNS : ['Silhouette'];
  const cell = (s: RunSummary, name: string): string =>
    fmt(s.metrics ? s.metrics[name] : s.silhouette, s.seeds.length);
  const written = runs.filter((s) => s.bundle !== null);
  const first = runs[0];
  const dataset = first
    ? `\ndataset ${first.files.join(' ')}: n = ${first.n}, V = ${first.V}, k = ${first.k}, ` +
      `seeds ${seedsText(first.seeds)}\n`
    : '';
  return (
    table([
      ['method', ...names, 'time (s)'],
      ...runs.map((s) => [s.method, ...names.map((n) => cell(s, n)), s.timings.total_s.toFixed(2)]),
    ]) +
    '\n' +
    dataset +
    (written.length ? '\n' + written.map((s) => `${s.method}: ${s.bundle}`).join('\n') + '\n' : '')
  );
}
