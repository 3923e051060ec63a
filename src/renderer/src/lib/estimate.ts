/**
 * The estimate shown before a run starts. Memory comes from the host (`runs:estimate`: the
 * solver's declared footprint on the dataset's shape, with the warning and the refusal the host
 * decides) and is shown as given. Time comes from earlier runs of the same method: on the same
 * dataset (per seed), else on another dataset scaled by the data size n·Σd (a rough guess, said
 * so); never invented.
 */
import type { RunEstimate, RunInfo } from '../../../shared/contract';

export interface Estimate {
  /** The host's answer for the form's run; null until it came (or when it failed). */
  readonly memory: RunEstimate | null;
  /** Seconds, from the median of earlier comparable runs; null when there are none. */
  readonly seconds: number | null;
  readonly basis: string;
}

export interface TimeEstimate {
  readonly seconds: number | null;
  readonly basis: string;
}

/**
 * The time of `seeds` seeds of `method` on dataset `datasetId`, whose data size n·Σd is
 * `size`, from `history`; `sizes`: dataset id → n·Σd of the datasets earlier runs used.
 */
export function estimateTime(
  method: string,
  seeds: number,
  history: readonly RunInfo[],
  datasetId: string,
  size: number,
  sizes: Readonly<Record<string, number>> = {},
): TimeEstimate {
  const done = history.filter(
    (r) => r.status === 'done' && r.method === method && r.seconds !== null,
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
    const scaled = done
      .filter((r) => (sizes[r.datasetId] ?? 0) > 0)
      .map((r) => (perSeed(r) * size) / sizes[r.datasetId]!);
    median = medianOf(scaled);
    if (median !== null) {
      basis = `rough: scaled by data size from ${scaled.length} run${scaled.length > 1 ? 's' : ''} on other datasets`;
    }
  }
  return { seconds: median === null ? null : median * seeds, basis };
}
