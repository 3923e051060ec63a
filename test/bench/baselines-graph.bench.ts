/**
 * `npm run bench -- baselines-graph`: AMGL, MVGL and (kernel) MLRSSC against the Octave runs of
 * `shared/reference/baselines-graph.json` (the scale cases: baselines-graph-scale.bench.ts, which
 * runs them as children of this module).
 *
 * - reference: every recorded run, mapped to our method and parameters by
 *   `baselines-graph-map.ts` (which also says which of the fixture's times each is compared
 *   with), solved once under the protocol ('single', seed 0); the time of the solver's own
 *   stages (every stage but k-means and the metrics: graphs/kernels, the iterations, the
 *   embedding) beside the fixture's, the speed-up and the issue's target. Median of
 *   BASELINES_RUNS (default 3) fresh child processes, each preceded by the machine-speed probe
 *   (GFLOP/s of a 256 × 256 GEMM for one second, in a child of its own), printed beside it.
 *   A method not registered in this tree is listed as "not registered" and skipped.
 *
 * BASELINES_CASES=3Sources,MSRC,amgl,mvgl limits the cases: a token naming a method (ours or the
 * fixture's) picks methods, any other token picks files by substring.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { awaitHelpers, helperCountFromEnv, startThreadPool } from '../../src/backend/threads';
import { listSolvers } from '../../src/core/solvers/registry';
import type { MultiViewDataset } from '../../src/core/dataset';
import { synthesize } from '../../src/core/synth';
import { loadDataset } from '../../src/io/load';
import { DATASETS, SHARED } from '../helpers/paths';
import { mapRun, targetOf, type RecordedRun } from './baselines-graph-map';
import { probe, solveTimed as solve, spawnChild, type ChildResult } from './solve-timing';
import { median, table } from './util';

export type Case =
  | { kind: 'reference'; index: number }
  | { kind: 'scale'; method: string; n: number }
  | { kind: 'hw'; method: string }
  | { kind: 'probe' };

const runs = (
  JSON.parse(readFileSync(join(SHARED, 'reference/baselines-graph.json'), 'utf8')) as {
    runs: RecordedRun[];
  }
).runs;

const SCALE_DIMS = [20, 30, 40, 50];

/** The scale cases' data: synthetic, n samples, 4 complete views (d = 20 … 50), 10 classes, seed 1. */
export function scaleDataset(n: number): MultiViewDataset {
  return synthesize({ n, k: 10, dims: SCALE_DIMS, completeFraction: 1, seed: 1 });
}

async function child(c: Case): Promise<ChildResult> {
  if (c.kind === 'probe')
    return { solveSeconds: 0, maxRssMB: 0, iterations: 0, ACC: null, gflops: probe() };
  const pool = startThreadPool({ helpers: helperCountFromEnv() });
  if (pool) awaitHelpers(pool);
  if (c.kind === 'reference') {
    const run = runs[c.index]!;
    const m = mapRun(run);
    const ds = await loadDataset(join(DATASETS, run.file));
    // Twice in one process: the app's worker is long-lived, so the second solve is the figure;
    // the first (compiling the wasm kernels, warming the JIT) is printed beside it.
    const cold = solve(ds, m.method, m.params, ds.labels!.classes.length);
    const warm = solve(ds, m.method, m.params, ds.labels!.classes.length);
    return { ...warm, coldSeconds: cold.solveSeconds };
  }
  if (c.kind === 'hw') {
    const ds = await loadDataset(join(DATASETS, 'HW/HW.mat'));
    return solve(ds, c.method, {}, ds.labels!.classes.length);
  }
  const ds = scaleDataset(c.n);
  return solve(ds, c.method, {}, 10);
}

/** Runs case c in a child process of this module (stopped after limitSeconds when given). */
export function spawnCase(c: Case, limitSeconds?: number): ChildResult | string {
  return spawnChild(import.meta.url, 'BASELINES_CHILD', c, limitSeconds);
}

export const registered = (): Set<string> => new Set(listSolvers().map((s) => s.name));

function tokens(): string[] | null {
  const raw = process.env.BASELINES_CASES;
  return raw
    ? raw
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t !== '')
    : null;
}

function referenceSection(repeat: number): void {
  const picked = tokens();
  const isMethod = (t: string): boolean =>
    runs.some((r) => r.method.toLowerCase() === t.toLowerCase() || mapRun(r).method === t);
  const methodTokens = picked?.filter(isMethod) ?? [];
  const fileTokens = picked?.filter((t) => !isMethod(t)) ?? [];
  const have = registered();
  const rows: (string | number)[][] = [
    [
      'run',
      'method',
      'ours s (median)',
      'cold s',
      'fixture s',
      'definition',
      'speed-up',
      'target',
      'iters',
      'peak RSS MB',
      'machine GFLOP/s',
    ],
  ];
  for (const [index, run] of runs.entries()) {
    const m = mapRun(run);
    if (
      methodTokens.length &&
      !methodTokens.some((t) => t === m.method || t.toLowerCase() === run.method.toLowerCase())
    )
      continue;
    if (fileTokens.length && !fileTokens.some((t) => run.file.includes(t))) continue;
    const name = `${run.file.replace('CGL-benchmark/', '').replace('.mat', '')}${m.method === 'mvgl' && m.params['outerIterations'] === 300 ? ' (outer 300)' : ''}`;
    const target = targetOf(run);
    const targetText = target.strict ? '> 1×' : `≥ ${target.factor}×`;
    if (!have.has(m.method)) {
      rows.push([
        name,
        m.method,
        'not registered',
        '–',
        m.referenceSeconds.toFixed(2),
        m.timeDefinition,
        '–',
        targetText,
        '–',
        '–',
        '–',
      ]);
      continue;
    }
    const times: number[] = [];
    const colds: number[] = [];
    const speeds: number[] = [];
    let last: ChildResult | string = 'not run';
    for (let i = 0; i < repeat; i++) {
      const p = spawnCase({ kind: 'probe' });
      if (typeof p !== 'string' && p.gflops !== undefined) speeds.push(p.gflops);
      last = spawnCase({ kind: 'reference', index });
      if (typeof last === 'string') break;
      times.push(last.solveSeconds);
      colds.push(last.coldSeconds ?? NaN);
    }
    if (typeof last === 'string') {
      rows.push([name, m.method, last]);
      console.log(`${name} ${m.method}: ${last}`);
      continue;
    }
    const ours = median(times);
    const speedup = m.referenceSeconds / ours;
    const ok = target.strict ? speedup > target.factor : speedup >= target.factor;
    rows.push([
      name,
      m.method,
      `${ours.toFixed(3)}${repeat > 1 ? ` (${Math.min(...times).toFixed(3)}–${Math.max(...times).toFixed(3)})` : ''}`,
      median(colds).toFixed(3),
      m.referenceSeconds.toFixed(2),
      m.timeDefinition,
      `${speedup.toFixed(1)}×`,
      `${targetText} ${ok ? 'MET' : 'NOT MET'}`,
      last.iterations,
      last.maxRssMB.toFixed(0),
      speeds.length ? median(speeds).toFixed(1) : '?',
    ]);
    console.log(table([rows[0]!, rows.at(-1)!]));
  }
  console.log('\n' + table(rows));
  console.log(
    `\nours: the solver's own stages (graphs or kernels, iterations, embedding; no k-means), ` +
      `protocol 'single', seed 0, the second solve in a child process (the app's worker is ` +
      `long-lived; 'cold' is the first, with the wasm compile and JIT warm-up), median of ` +
      `${repeat} child processes. fixture: GNU Octave on a ` +
      `loaded 2-vCPU machine (load 5–7; the JSON says its times are inflated perhaps 2–3×). ` +
      `Machine: GFLOP/s of a 256 × 256 GEMM measured just before each repeat.`,
  );
}

export async function run(): Promise<void> {
  const repeat = Number(process.env.BASELINES_RUNS ?? 3);
  if (!Number.isInteger(repeat) || repeat < 1) {
    throw new Error(`BASELINES_RUNS must be a whole number ≥ 1, got ${process.env.BASELINES_RUNS}`);
  }
  referenceSection(repeat);
  await Promise.resolve();
}

const childCase = process.env.BASELINES_CHILD;
if (childCase) {
  const res = await child(JSON.parse(childCase) as Case);
  console.log(JSON.stringify(res));
  process.exit(0);
}
