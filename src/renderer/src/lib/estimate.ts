/**
 * The estimate shown before a run starts: memory from the dataset's shape and the method's
 * known footprint (with the parameters that change it, e.g. CGL's dense path), time from
 * earlier runs of the same method: on the same dataset (per seed), else on another dataset
 * scaled by the data size n·Σd (a rough guess, said so); never invented.
 */
import type { DatasetSummary, MethodInfo, RunInfo } from '../../../shared/contract';

/** Methods that hold dense n × n matrices when their `path` parameter is 'dense'. */
const N_BY_N_DENSE_PATH = new Set(['cgl', 'cgmvc-nc']);
/** Above this, an n × n method gets a warning (bytes). */
export const NN_WARN_BYTES = 2 * 1024 ** 3;

export interface Estimate {
  /** Bytes of the views as doubles (dense upper bound for sparse views). */
  readonly dataBytes: number;
  /** Bytes the method adds on top of the data (its main arrays). */
  readonly methodBytes: number;
  readonly needsNxN: boolean;
  /** Set when the n × n part is above NN_WARN_BYTES. */
  readonly warning: string | null;
  /** Seconds, from the median of earlier comparable runs; null when there are none. */
  readonly seconds: number | null;
  readonly basis: string;
}

/** Parameter values as the form holds them (typed text, numbers, booleans). */
export type FormValues = Readonly<Record<string, unknown>>;

export function needsNxN(method: MethodInfo, values: FormValues = {}): boolean {
  if (N_BY_N_DENSE_PATH.has(method.name)) return values['path'] === 'dense';
  return /\bn\s*[×x]\s*n\b/i.test(method.description);
}

export function estimateRun(
  summary: DatasetSummary,
  method: MethodInfo,
  seeds: number,
  history: readonly RunInfo[],
  datasetId: string,
  values: FormValues = {},
  sizes: Readonly<Record<string, number>> = {},
): Estimate {
  const n = summary.n;
  const dataBytes = summary.views.reduce((a, v) => a + v.present * v.d * 8, 0);
  const totalD = summary.views.reduce((a, v) => a + v.d, 0);
  const nn = needsNxN(method, values);
  const V = summary.views.length;
  let methodBytes: number;
  if (nn) methodBytes = (V + 2) * n * n * 8;
  else if (method.name === 'kmeans-concat') methodBytes = n * totalD * 8;
  // CGL's factorised path: per view an n × c embedding and the ΔP_v factors (n·V·c each).
  else if (N_BY_N_DENSE_PATH.has(method.name)) methodBytes = V * (V + 4) * n * 64 * 8;
  else methodBytes = V * n * 64 * 8;
  const warning =
    nn && methodBytes > NN_WARN_BYTES
      ? `${method.title} keeps ${summary.views.length + 2} dense ${n.toLocaleString('en-US')} × ${n.toLocaleString('en-US')} matrices (about ${(methodBytes / 1024 ** 3).toFixed(1)} GB): it may run out of memory`
      : null;
  const done = history.filter(
    (r) => r.status === 'done' && r.method === method.name && r.seconds !== null,
  );
  const perSeed = (r: RunInfo): number => (r.seconds as number) / Math.max(r.seeds, 1);
  const medianOf = (xs: number[]): number | null =>
    xs.length ? xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]! : null;
  const same = done.filter((r) => r.datasetId === datasetId).map(perSeed);
  let median = medianOf(same);
  let basis =
    median === null
      ? 'no earlier run of this method'
      : `from ${same.length} earlier run${same.length > 1 ? 's' : ''} (${median.toFixed(2)} s per seed)`;
  if (median === null) {
    // Another dataset's runs, scaled by the data size n·Σd (sizes: dataset id → n·Σd).
    const here = n * totalD;
    const scaled = done
      .filter((r) => (sizes[r.datasetId] ?? 0) > 0)
      .map((r) => (perSeed(r) * here) / sizes[r.datasetId]!);
    median = medianOf(scaled);
    if (median !== null) {
      basis = `rough: scaled by data size from ${scaled.length} run${scaled.length > 1 ? 's' : ''} on other datasets`;
    }
  }
  return {
    dataBytes,
    methodBytes,
    needsNxN: nn,
    warning,
    seconds: median === null ? null : median * seeds,
    basis,
  };
}
