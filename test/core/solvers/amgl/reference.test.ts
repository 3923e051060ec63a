/**
 * AMGL against `shared/reference/baselines-graph.json` (GNU Octave 7.3 running the public
 * MATLAB code kylejingli/AMGL-IJCAI16, instrumented without changing its arithmetic): every run
 * with method 'AMGL' (3Sources, MSRC-v1, ORL, HW), with the code-default parameters (no flags).
 * Per run, from one solve under the paper protocol:
 * - per view the graph checks: W's sum, Frobenius norm and min degree, L's trace and Frobenius
 *   norm to 1e-9 relative; W's stored entries and non-zero diagonal entries exactly;
 * - the objective and α traces to 1e-9 relative with the same iteration count;
 * - the c + 1 smallest eigenvalues of M at the first and last iteration, and the final
 *   tr(FᵀL_vF) per view, to 1e-9 relative;
 * - ACC / NMI / Purity means within max(0.02, 2σ√(2/20)) of the fixture (Octave's k-means
 *   stream differs from ours, so only the distribution can agree; σ the fixture's std), on
 *   3Sources, MSRC-v1 and ORL;
 * - on every file, the same means within max(0.02, 2σ√(2/20)) of scikit-learn's k-means on an
 *   independent numpy embedding (test/fixtures/amgl/amgl_sklearn.py), and our best SSE over the
 *   20 calls at most scikit-learn's (the SSE does not depend on the embedding's rotation).
 * HW: the embedding checks above pass to ~1e-12, but Octave's k-means ends in a worse local
 * minimum in about half of its 20 calls (ACC 0.70–0.84 beside 0.846; std 0.053), where ours and
 * scikit-learn's land on one partition every call (ACC 0.846, NMI 0.890, Purity 0.871, the
 * same SSE). So on HW the means are compared with scikit-learn's, and with Octave's only
 * one-sided: not below its mean minus the band.
 * The solver is wrapped so that its output (embedding, diagnostics) is kept for the checks.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ProtocolResult } from '../../../../src/core/protocol';
import { amgl } from '../../../../src/core/solvers/amgl';
import type { Solver, SolverOutput } from '../../../../src/core/solvers/types';
import { REPO } from '../../../helpers/paths';
import {
  maxRelativeError,
  type MetricSummary,
  readReference,
  referenceSuite,
  type ReferenceRun,
} from '../../../helpers/reference';

interface GraphCheck {
  W_sum: number[];
  W_nnz: number[];
  W_fro: number[];
  W_min_degree: number[];
  W_diagonal_nonzeros: number[];
  L_trace: number[];
  L_fro: number[];
}
interface EigenCheck {
  first_iteration_smallest_c_plus_1: number[];
  final_smallest_c_plus_1: number[];
  final_trace_FtLvF: number[];
}
interface Diagnostics {
  alphaTrace: number[][];
  firstEigenvalues: number[];
  finalEigenvalues: number[];
  traces: number[][];
  graphs: {
    sum: number;
    nnz: number;
    fro: number;
    diagonalNonzeros: number;
    minDegree: number;
    laplacianTrace: number;
    laplacianFro: number;
  }[];
}

interface SklearnRun {
  file: string;
  metrics: Record<string, MetricSummary>;
  min_inertia: number;
}

const TOL = 1e-9;
const METRICS = ['ACC', 'NMI', 'Purity'] as const;
const band = (ref: MetricSummary): number => Math.max(0.02, 2 * ref.std * Math.sqrt(2 / 20));
const sklearn = (
  JSON.parse(readFileSync(join(REPO, 'test/fixtures/amgl/amgl_sklearn.json'), 'utf8')) as {
    runs: SklearnRun[];
  }
).runs;
const outputs = new Map<string, SolverOutput>();

/** amgl, keeping the output of each run's solve (deterministic: the protocol solves once). */
function capturing(run: ReferenceRun): Solver {
  return {
    ...amgl,
    *run(input, params, k, rng) {
      const out = yield* amgl.run(input, params, k, rng);
      outputs.set(run.file, out);
      return out;
    },
  };
}

/** Σ_i ‖E_i − mean of i's cluster‖² for E: (n, c) row-major. */
function sse(E: { rows: number; cols: number; data: Float64Array }, labels: Int32Array): number {
  const { rows: n, cols: c } = E;
  const k = Math.max(...labels) + 1;
  const sum = new Float64Array(k * c);
  const count = new Float64Array(k);
  for (let i = 0; i < n; i++) {
    count[labels[i]!]!++;
    for (let j = 0; j < c; j++) sum[labels[i]! * c + j]! += E.data[i * c + j]!;
  }
  let s = 0;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < c; j++) {
      const x = E.data[i * c + j]! - sum[labels[i]! * c + j]! / count[labels[i]!]!;
      s += x * x;
    }
  return s;
}

/** The means against scikit-learn's k-means on the numpy embedding, and the best SSE. */
function checkSklearn(result: ProtocolResult, run: ReferenceRun): void {
  const sk = sklearn.find((r) => r.file === run.file);
  expect(sk, `${run.file}: not in amgl_sklearn.json`).toBeDefined();
  const lines: string[] = [];
  for (const m of METRICS) {
    const ours = result.metrics[m]!.mean;
    const b = band(sk!.metrics[m]!);
    lines.push(
      `${m} ${ours.toFixed(4)} (sklearn ${sk!.metrics[m]!.mean.toFixed(4)} ±${b.toFixed(3)})`,
    );
    expect(
      Math.abs(ours - sk!.metrics[m]!.mean),
      `${run.file} ${m} vs sklearn`,
    ).toBeLessThanOrEqual(b);
  }
  const E = outputs.get(run.file)!.embedding;
  const best = Math.min(...result.seedLabels.map((l) => sse(E, l)));
  lines.push(`best SSE ${best.toPrecision(10)} (sklearn ${sk!.min_inertia.toPrecision(10)})`);
  expect(best, `${run.file}: best SSE`).toBeLessThanOrEqual(sk!.min_inertia * (1 + 1e-9));
  console.log(`${run.file}: ${lines.join('; ')}`);
}

function checkRun(run: ReferenceRun): void {
  const out = outputs.get(run.file);
  expect(out, `${run.file}: no solve captured`).toBeDefined();
  const d = out!.diagnostics as unknown as Diagnostics;
  const g = run.checks['view_graph_check'] as GraphCheck;
  const e = run.checks['eigen_check'] as EigenCheck;
  const pick = <K extends keyof Diagnostics['graphs'][number]>(key: K) =>
    d.graphs.map((x) => x[key]);
  expect(pick('nnz')).toEqual(g.W_nnz);
  expect(pick('diagonalNonzeros')).toEqual(g.W_diagonal_nonzeros);
  const rel: [string, number][] = [
    ['W sum', maxRelativeError(pick('sum'), g.W_sum)],
    ['W Frobenius', maxRelativeError(pick('fro'), g.W_fro)],
    ['W min degree', maxRelativeError(pick('minDegree'), g.W_min_degree)],
    ['L trace', maxRelativeError(pick('laplacianTrace'), g.L_trace)],
    ['L Frobenius', maxRelativeError(pick('laplacianFro'), g.L_fro)],
    [
      'first c+1 eigenvalues',
      maxRelativeError(d.firstEigenvalues, e.first_iteration_smallest_c_plus_1),
    ],
    ['final c+1 eigenvalues', maxRelativeError(d.finalEigenvalues, e.final_smallest_c_plus_1)],
    ['final tr(FᵀL_vF)', maxRelativeError(d.traces.at(-1)!, e.final_trace_FtLvF)],
  ];
  const alphaRef = run.raw['alpha_trace'] as number[][];
  expect(d.alphaTrace.length).toBe(alphaRef.length);
  rel.push(['α trace', Math.max(...d.alphaTrace.map((a, t) => maxRelativeError(a, alphaRef[t]!)))]);
  for (const [what, err] of rel) expect(err, `${run.file}: ${what}`).toBeLessThan(TOL);
  console.log(`${run.file}: ${rel.map(([w, x]) => `${w} ${x.toExponential(1)}`).join(', ')}`);
}

const reference = readReference('baselines-graph');
const isHw = (run: ReferenceRun): boolean => run.file.startsWith('HW/');
const common = {
  params: () => ({}),
  protocol: { protocol: 'paper', seed: 0 },
  objective: { relative: TOL },
  timeout: 120_000,
} as const;

referenceSuite(capturing, reference, {
  ...common,
  title: 'amgl against the reference (Octave running AMGL_Clustering.m)',
  select: (run) => run.method === 'AMGL' && !isHw(run),
  expectedRuns: 3,
  name: (run) =>
    `${run.file}: graphs, α / objective / eigenvalue traces to 1e-9, metrics within max(0.02, 2σ√(2/20))`,
  metrics: { names: METRICS, band },
  check: (result, run) => {
    checkRun(run);
    checkSklearn(result, run);
  },
});

referenceSuite(capturing, reference, {
  ...common,
  title: 'amgl against the reference on HW (k-means compared with scikit-learn’s)',
  select: (run) => run.method === 'AMGL' && isHw(run),
  expectedRuns: 1,
  name: (run) =>
    `${run.file}: graphs, α / objective / eigenvalue traces to 1e-9; metrics vs scikit-learn, ` +
    'not below Octave’s',
  check: (result, run) => {
    checkRun(run);
    checkSklearn(result, run);
    for (const m of METRICS) {
      const ref = run.metrics[m]!;
      expect(result.metrics[m]!.mean, `${run.file} ${m} vs Octave`).toBeGreaterThanOrEqual(
        ref.mean - band(ref),
      );
    }
  },
});
