/**
 * A run's estimate. The memory side, shared by every host (`runs:estimate`, the check of
 * `runs:start`, the CLI's `run` and `compare`): the solver's declared footprint
 * (`Solver.footprint`, core/solvers/types.ts) on the dataset's shape, never a guess from the
 * method's name. A quadratic footprint above NN_WARN_BYTES gets a warning; data plus footprint
 * above the solver worker's memory limit gets a refusal, which the hosts turn into an error
 * before any work starts, since the worker would be killed at that limit anyway.
 *
 * The time side (`runs:estimate`): the run's work from the solver's declared cost
 * (`Solver.cost`) repeated as the protocol repeats it (core/solvers/cost.ts), turned into
 * seconds with throughputs measured on this machine's finished runs (`Calibration`), and given
 * as a range as wide as the calibration is rough.
 */
import type { MultiViewDataset } from '../core/dataset';
import type { RunWork } from '../core/solvers/cost';
import type { Params, ProblemShape, Solver } from '../core/solvers/types';
import type { RunEstimate, TimeEstimate } from '../shared/contract';
import { MEMORY_LIMIT_VARIABLE, formatBytes } from './worker-host';

export type { RunEstimate, TimeEstimate };

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

/** One finished run: its work per part and the seconds the worker measured for each. */
export interface CostSample {
  readonly method: string;
  readonly datasetId: string;
  readonly work: RunWork;
  readonly solveSeconds: number;
  readonly kmeansSeconds: number;
  /** Everything else: loading the data, scoring the seeds, writing the bundle. */
  readonly restSeconds: number;
}

/**
 * Seconds per unit of work before any run has finished here: about 10⁹ flops a second, a
 * guess for one core of JavaScript, which the range below makes no secret of.
 */
export const PRIOR_SECONDS_PER_UNIT = 1e-9;
/** How many of the newest finished runs the calibration keeps. */
export const CALIBRATION_RUNS = 64;

/**
 * How far the truth may lie from the calibrated figure, as a factor either way, by where the
 * throughput came from: a method's constant and its real iteration count vary a little between
 * datasets, and by an order of magnitude between methods (the declared cost counts iterations
 * to the cap), which is all that is known before a method's first run here.
 */
const SPREAD = { dataset: 1.25, method: 1.5, shared: 1.5, machine: 10, prior: 10 } as const;

/**
 * A measured spread widened when few runs measured it (one run: squared), since a single run
 * may have paid the worker's warm-up.
 */
function spreadOf(rate: Rate): number {
  const f = SPREAD[rate.source];
  if (rate.source === 'machine' || rate.source === 'prior') return f;
  return f ** (rate.runs >= 3 ? 1 : rate.runs === 2 ? 1.5 : 2);
}

type Source = keyof typeof SPREAD;

interface Rate {
  /** Seconds per unit: the median, and the least and most the samples gave. */
  readonly mid: number;
  readonly min: number;
  readonly max: number;
  readonly source: Source;
  readonly runs: number;
}

function rateOf(ratios: readonly number[], source: Source): Rate {
  const xs = [...ratios].sort((a, b) => a - b);
  return {
    mid: xs[Math.floor(xs.length / 2)]!,
    min: xs[0]!,
    max: xs[xs.length - 1]!,
    source,
    runs: xs.length,
  };
}

const PRIOR: Rate = {
  mid: PRIOR_SECONDS_PER_UNIT,
  min: PRIOR_SECONDS_PER_UNIT,
  max: PRIOR_SECONDS_PER_UNIT,
  source: 'prior',
  runs: 0,
};

/**
 * This machine's throughputs, measured on finished runs: per method for the solve (its
 * constant is the method's own), machine-wide for k-means and the rest (the same code for
 * every method). Kept for the session of the host that ran them.
 */
export class Calibration {
  #samples: CostSample[] = [];

  /** Records a finished run (parts without work or time are skipped when reading). */
  add(sample: CostSample): void {
    this.#samples.push(sample);
    if (this.#samples.length > CALIBRATION_RUNS) this.#samples.shift();
  }

  get size(): number {
    return this.#samples.length;
  }

  /** The seconds `work` of `method` on dataset `datasetId` should take, as a range. */
  estimate(method: string, datasetId: string, work: RunWork): TimeEstimate {
    const ratios = (
      samples: readonly CostSample[],
      part: 'solve' | 'kmeans' | 'rest',
    ): number[] => {
      const seconds = {
        solve: 'solveSeconds',
        kmeans: 'kmeansSeconds',
        rest: 'restSeconds',
      } as const;
      return samples
        .filter((s) => s.work[part] > 0 && s[seconds[part]] > 0)
        .map((s) => s[seconds[part]] / s.work[part]);
    };
    const own = this.#samples.filter((s) => s.method === method);
    const here = own.filter((s) => s.datasetId === datasetId);
    const pick = (
      candidates: [CostSample[], Source][],
      part: 'solve' | 'kmeans' | 'rest',
    ): Rate => {
      for (const [samples, source] of candidates) {
        const r = ratios(samples, part);
        if (r.length > 0) return rateOf(r, source);
      }
      return PRIOR;
    };
    const all = this.#samples;
    const solve = pick(
      [
        [here, 'dataset'],
        [own, 'method'],
        [all, 'machine'],
      ],
      'solve',
    );
    const kmeans = pick([[all, 'shared']], 'kmeans');
    const rest = pick([[all, 'shared']], 'rest');
    let seconds = 0;
    let low = 0;
    let high = 0;
    for (const [rate, units] of [
      [solve, work.solve],
      [kmeans, work.kmeans],
      [rest, work.rest],
    ] as const) {
      const f = spreadOf(rate);
      seconds += rate.mid * units;
      low += (rate.min / f) * units;
      high += rate.max * f * units;
    }
    return { seconds, low, high, basis: basisOf(solve, work), calibratedRuns: own.length };
  }
}

function basisOf(solve: Rate, work: RunWork): string {
  const runs = (n: number): string => `${n} finished run${n === 1 ? '' : 's'}`;
  const what =
    `the method's declared work: ${work.solves} solve${work.solves === 1 ? '' : 's'}` +
    (work.starts > 0 ? `, ${work.starts} k-means start${work.starts === 1 ? '' : 's'}` : '');
  switch (solve.source) {
    case 'dataset':
      return `${what}; speed measured on ${runs(solve.runs)} of this method on this dataset`;
    case 'method':
      return `${what}; speed measured on ${runs(solve.runs)} of this method on other datasets`;
    case 'machine':
      return `${what}; speed measured on ${runs(solve.runs)} of other methods (this one has not run here yet: very rough)`;
    case 'shared':
    case 'prior':
      return `${what}; no run has finished here yet, so the speed is a guess (very rough)`;
  }
}
