/**
 * What the baseline benchmarks measure in their child processes: the machine-speed probe and a
 * solve under the protocol with the solver's own stages timed; and how they start such a child.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { matmul } from '../../src/core/linalg/kernels';
import { evaluate } from '../../src/core/protocol';
import { getSolver } from '../../src/core/solvers/registry';
import type { MultiViewDataset } from '../../src/core/dataset';
import type { ParamValue } from '../../src/core/solvers/types';
import { REPO } from '../helpers/paths';

export interface ChildResult {
  solveSeconds: number;
  /** Reference cases: the first solve of the process (wasm compile, JIT, helpers' first work). */
  coldSeconds?: number;
  maxRssMB: number;
  iterations: number;
  ACC: number | null;
  gflops?: number;
}

/** Machine speed: GFLOP/s of a 256 × 256 GEMM, repeated for one second. */
export function probe(): number {
  const n = 256;
  const A = {
    rows: n,
    cols: n,
    data: new Float64Array(n * n).map((_, i) => ((i * 7919) % 997) / 997),
  };
  const C = { rows: n, cols: n, data: new Float64Array(n * n) };
  for (let i = 0; i < 5; i++) matmul(A, A, C);
  const t0 = performance.now();
  let reps = 0;
  while (performance.now() - t0 < 1000) {
    matmul(A, A, C);
    reps++;
  }
  return (2 * n ** 3 * reps) / ((performance.now() - t0) * 1e6);
}

/**
 * Solves `method` on `ds` under the protocol ('single', seed 0); the solver's own stages (all
 * but k-means and the metrics) are timed.
 */
export function solveTimed(
  ds: MultiViewDataset,
  method: string,
  params: Readonly<Record<string, ParamValue>>,
  k: number,
): ChildResult {
  const gen = evaluate(ds, getSolver(method), params, k, { protocol: 'single', seed: 0 });
  let solveMs = 0;
  let last = performance.now();
  let r = gen.next();
  while (!r.done) {
    const now = performance.now();
    if (r.value.step.stage !== 'kmeans' && r.value.step.stage !== 'metrics') solveMs += now - last;
    last = now;
    r = gen.next();
  }
  return {
    solveSeconds: solveMs / 1000,
    maxRssMB: process.resourceUsage().maxRSS / 1024,
    iterations: r.value.iterations,
    ACC: r.value.metrics['ACC']?.mean ?? null,
  };
}

/**
 * Runs the bench module `moduleUrl` (its `import.meta.url`) in a fresh child process (V8's
 * default options, as the solver worker), handing it `job` as JSON in the environment variable `envVar`; the
 * child prints its ChildResult as the last line of stdout. Returns it, or a one-line failure. With
 * `limitSeconds`, a child still running then is stopped and the failure says so.
 */
export function spawnChild(
  moduleUrl: string,
  envVar: string,
  job: unknown,
  limitSeconds?: number,
): ChildResult | string {
  const args = ['--import', 'tsx', fileURLToPath(moduleUrl)];
  const r = spawnSync(process.execPath, args, {
    cwd: REPO,
    env: { ...process.env, [envVar]: JSON.stringify(job) },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    ...(limitSeconds === undefined ? {} : { timeout: limitSeconds * 1000, killSignal: 'SIGKILL' }),
  });
  if (limitSeconds !== undefined && r.signal === 'SIGKILL')
    return `not finished in ${limitSeconds} s (stopped)`;
  if (r.status !== 0)
    return `failed (${r.status}): ${r.stderr.trim().split('\n').slice(-3).join(' ')}`;
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as ChildResult;
}

/**
 * BASELINES_SCALE_LIMIT, the seconds after which a scale case's child is stopped, or
 * `defaultSeconds` (ten times the case's target) when unset.
 */
export function scaleLimitSeconds(defaultSeconds: number): number {
  const raw = process.env.BASELINES_SCALE_LIMIT ?? String(defaultSeconds);
  const limit = Number(raw);
  if (!Number.isFinite(limit) || limit <= 0) {
    throw new Error(`BASELINES_SCALE_LIMIT must be a positive number of seconds, got ${raw}`);
  }
  return limit;
}
