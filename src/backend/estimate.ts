/**
 * The memory side of a run's estimate, shared by every host (`runs:estimate`, the check of
 * `runs:start`, the CLI's `run` and `compare`): the solver's declared footprint
 * (`Solver.footprint`, core/solvers/types.ts) on the dataset's shape, never a guess from the
 * method's name. A quadratic footprint above NN_WARN_BYTES gets a warning; data plus footprint
 * above the solver worker's memory limit gets a refusal, which the hosts turn into an error
 * before any work starts, since the worker would be killed at that limit anyway.
 */
import type { MultiViewDataset } from '../core/dataset';
import type { Params, ProblemShape, Solver } from '../core/solvers/types';
import type { RunEstimate } from '../shared/contract';
import { MEMORY_LIMIT_VARIABLE, formatBytes } from './worker-host';

export type { RunEstimate };

/** Above this many bytes of n × n arrays, a run gets a warning. */
export const NN_WARN_BYTES = 2 * 1024 ** 3;

/** What a footprint needs of a dataset (a `DatasetSummary` is one): n, each view's d and n_v. */
export interface ShapeSource {
  readonly n: number;
  readonly views: readonly { readonly d: number; readonly present: number }[];
}

/** The shape source of a loaded dataset (the CLI holds the dataset, not its summary). */
export function shapeOf(ds: MultiViewDataset): ShapeSource {
  return { n: ds.n, views: ds.views.map((v) => ({ d: v.d, present: v.present.length })) };
}

/** The problem's shape for `Solver.footprint`: n, each view's d_v and n_v, and k. */
export function problemShape(summary: ShapeSource, k: number): ProblemShape {
  return {
    n: summary.n,
    dims: summary.views.map((v) => v.d),
    present: summary.views.map((v) => v.present),
    k,
  };
}

/**
 * The estimate of `solver` with validated `params` and k clusters on a dataset of this shape.
 * dataBytes: Σ_v n_v · d_v · 8 (the views as doubles); methodBytes: the footprint's bytes.
 * `limitBytes`: the solver worker's memory limit (null: none, no refusal).
 */
export function estimateMemory(
  summary: ShapeSource,
  solver: Solver,
  params: Params,
  k: number,
  limitBytes: number | null,
): RunEstimate {
  const dataBytes = summary.views.reduce((a, v) => a + v.present * v.d * 8, 0);
  const fp = solver.footprint(problemShape(summary, k), params);
  const n = summary.n.toLocaleString('en-US');
  const warning =
    fp.quadratic && fp.bytes > NN_WARN_BYTES
      ? `${solver.title} keeps ${fp.note} with n = ${n} (about ${formatBytes(fp.bytes)}): it may run out of memory`
      : null;
  const total = dataBytes + fp.bytes;
  const refusal =
    limitBytes !== null && total > limitBytes
      ? `${solver.title} would need about ${formatBytes(total)} on this dataset (the data ` +
        `${formatBytes(dataBytes)}, ${fp.note} ${formatBytes(fp.bytes)}), more than the ` +
        `solver's memory limit of ${formatBytes(limitBytes)} (${MEMORY_LIMIT_VARIABLE}): ` +
        `choose parameters that need less, or a machine with more memory`
      : null;
  return {
    dataBytes,
    methodBytes: fp.bytes,
    quadratic: fp.quadratic,
    note: fp.note,
    warning,
    refusal,
  };
}
