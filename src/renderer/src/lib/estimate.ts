/**
 * The estimate shown before a run starts: memory from the dataset's shape and the method's
 * known footprint, time from earlier runs of the same method on the same dataset (scaled by
 * the number of seeds), never invented.
 */
import type { DatasetSummary, MethodInfo, RunInfo } from '../../../shared/contract';

/** Methods whose model holds dense n × n matrices (consensus graphs). */
const N_BY_N = new Set(['cgl', 'cgmvc-nc']);
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

export function needsNxN(method: MethodInfo): boolean {
  return N_BY_N.has(method.name) || /\bn\s*[×x]\s*n\b/i.test(method.description);
}

export function estimateRun(
  summary: DatasetSummary,
  method: MethodInfo,
  seeds: number,
  history: readonly RunInfo[],
  datasetId: string,
): Estimate {
  const n = summary.n;
  const dataBytes = summary.views.reduce((a, v) => a + v.present * v.d * 8, 0);
  const totalD = summary.views.reduce((a, v) => a + v.d, 0);
  const nn = needsNxN(method);
  let methodBytes: number;
  if (nn) methodBytes = (summary.views.length + 2) * n * n * 8;
  else if (method.name === 'kmeans-concat') methodBytes = n * totalD * 8;
  else methodBytes = summary.views.length * n * 64 * 8;
  const warning =
    nn && methodBytes > NN_WARN_BYTES
      ? `${method.title} keeps ${summary.views.length + 2} dense ${n.toLocaleString('en-US')} × ${n.toLocaleString('en-US')} matrices (about ${(methodBytes / 1024 ** 3).toFixed(1)} GB): it may run out of memory`
      : null;
  const past = history
    .filter(
      (r) =>
        r.status === 'done' &&
        r.method === method.name &&
        r.datasetId === datasetId &&
        r.seconds !== null,
    )
    .map((r) => (r.seconds as number) / Math.max(r.seeds, 1))
    .sort((a, b) => a - b);
  const median = past.length ? past[Math.floor(past.length / 2)]! : null;
  return {
    dataBytes,
    methodBytes,
    needsNxN: nn,
    warning,
    seconds: median === null ? null : median * seeds,
    basis:
      median === null
        ? 'no earlier run of this method on this dataset'
        : `from ${past.length} earlier run${past.length > 1 ? 's' : ''} (${median.toFixed(2)} s per seed)`,
  };
}
