/**
 * `npm run bench -- baselines-incomplete`: the incomplete-view baselines of seed 000 against the
 * Octave runs of `shared/reference/baselines-incomplete.json`, and at scale.
 *
 * - reference: every case of `test/bench/baselines-incomplete/<method>.ts` (built there from the
 *   JSON, with what the recorded time covers and the issue's target), solved under the protocol
 *   ('single', seed 0) twice in a fresh child process: the second solve is the figure (the app's
 *   worker is long-lived), the first ('cold') is printed beside it. Median of BASELINES_RUNS
 *   (default 3) child processes, each preceded by the machine-speed probe (GFLOP/s of a
 *   256 × 256 GEMM in a child of its own). A method not registered in this tree is listed as
 *   "not registered".
 * - input: the shared input step (`core/views/incomplete-input.ts`: presence, NaN → 0, unit
 *   columns, mean fill) on every BDGP and NGs file, against the reference's `findindex` (3–4
 *   minutes per BDGP file).
 * - scale: the methods whose case file says `scale = true`, on synthetic data (`core/synth`,
 *   n = 50,000, 5 views, half the samples complete): time and peak RSS of a child process that
 *   ran that case alone. Target ≤ 120 s and ≤ 4 GB. A case still running after
 *   BASELINES_SCALE_LIMIT seconds (default 1200, ten times the target) is stopped and listed as
 *   not finished.
 *
 * BASELINES_CASES=NGs,daimc limits the cases: a token naming a method picks methods (in the
 * scale section too), 'input' and 'scale' pick those sections, any other token picks files by
 * substring.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { awaitHelpers, helperCountFromEnv, startThreadPool } from '../../src/backend/threads';
import { listSolvers } from '../../src/core/solvers/registry';
import { synthesize } from '../../src/core/synth';
import { loadDataset } from '../../src/io/load';
import { DATASETS } from '../helpers/paths';
import type { IncompleteBenchCase } from './baselines-incomplete/types';
import { probe, scaleLimitSeconds, solveTimed, spawnChild, type ChildResult } from './solve-timing';
import { median, table } from './util';

const CASE_DIR = join(fileURLToPath(new URL('.', import.meta.url)), 'baselines-incomplete');
const SCALE_N = 50_000;
const SCALE_DIMS = [20, 30, 40, 50, 60];

type Job =
  | { kind: 'reference'; module: string; index: number }
  | { kind: 'scale'; method: string }
  | { kind: 'probe' };

interface CaseModule {
  cases: IncompleteBenchCase[];
  scale?: boolean;
  /** The method the scale case runs; default the first case's. */
  scaleMethod?: string;
}

async function caseModules(): Promise<Map<string, CaseModule>> {
  const out = new Map<string, CaseModule>();
  const files = readdirSync(CASE_DIR)
    .filter((f) => f.endsWith('.ts') && f !== 'types.ts' && !f.endsWith('.test.ts'))
    .sort();
  for (const f of files) {
    const mod = (await import(pathToFileURL(join(CASE_DIR, f)).href)) as CaseModule;
    out.set(f.slice(0, -3), mod);
  }
  return out;
}

async function child(job: Job): Promise<ChildResult> {
  if (job.kind === 'probe')
    return { solveSeconds: 0, maxRssMB: 0, iterations: 0, ACC: null, gflops: probe() };
  const pool = startThreadPool({ helpers: helperCountFromEnv() });
  if (pool) awaitHelpers(pool);
  if (job.kind === 'reference') {
    const c = (await caseModules()).get(job.module)!.cases[job.index]!;
    const ds = await loadDataset(join(DATASETS, c.file));
    const k = ds.labels!.classes.length;
    const cold = solveTimed(ds, c.method, c.params, k);
    const warm = solveTimed(ds, c.method, c.params, k);
    return { ...warm, coldSeconds: cold.solveSeconds };
  }
  const ds = synthesize({ n: SCALE_N, k: 10, dims: SCALE_DIMS, completeFraction: 0.5, seed: 1 });
  return solveTimed(ds, job.method, {}, 10);
}

function spawnJob(job: Job, limitSeconds?: number): ChildResult | string {
  return spawnChild(import.meta.url, 'BASELINES_INCOMPLETE_CHILD', job, limitSeconds);
}

function tokens(): string[] | null {
  const raw = process.env.BASELINES_CASES;
  return raw
    ? raw
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t !== '')
    : null;
}

/** Every method the case modules name: their cases' and their scale cases'. */
function methodNames(modules: Map<string, CaseModule>): Set<string> {
  return new Set(
    [...modules.values()].flatMap((m) => [
      ...m.cases.map((c) => c.method),
      ...(m.scaleMethod ? [m.scaleMethod] : []),
    ]),
  );
}

function referenceSection(modules: Map<string, CaseModule>, repeat: number): void {
  const picked = tokens();
  const methods = methodNames(modules);
  const methodTokens = picked?.filter((t) => methods.has(t)) ?? [];
  const fileTokens = picked?.filter((t) => !methods.has(t) && t !== 'scale' && t !== 'input') ?? [];
  if (picked && methodTokens.length === 0 && fileTokens.length === 0) return;
  const have = new Set(listSolvers().map((s) => s.name));
  const header = [
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
  ];
  const rows: (string | number)[][] = [header];
  for (const [module, mod] of modules) {
    for (const [index, c] of mod.cases.entries()) {
      if (methodTokens.length && !methodTokens.includes(c.method)) continue;
      if (fileTokens.length && !fileTokens.some((t) => c.file.includes(t))) continue;
      const targetText = c.target === 1 ? '> 1×' : `≥ ${c.target}×`;
      if (!have.has(c.method)) {
        rows.push([c.name, c.method, 'not registered', '–', c.referenceSeconds.toFixed(2)]);
        continue;
      }
      const times: number[] = [];
      const colds: number[] = [];
      const speeds: number[] = [];
      let last: ChildResult | string = 'not run';
      for (let i = 0; i < repeat; i++) {
        const p = spawnJob({ kind: 'probe' });
        if (typeof p !== 'string' && p.gflops !== undefined) speeds.push(p.gflops);
        last = spawnJob({ kind: 'reference', module, index });
        if (typeof last === 'string') break;
        times.push(last.solveSeconds);
        colds.push(last.coldSeconds ?? NaN);
      }
      if (typeof last === 'string') {
        rows.push([c.name, c.method, last]);
        console.log(`${c.name} ${c.method}: ${last}`);
        continue;
      }
      const ours = median(times);
      const speedup = c.referenceSeconds / ours;
      const ok = c.target === 1 ? speedup > 1 : speedup >= c.target;
      rows.push([
        c.name,
        c.method,
        `${ours.toFixed(3)}${repeat > 1 ? ` (${Math.min(...times).toFixed(3)}–${Math.max(...times).toFixed(3)})` : ''}`,
        median(colds).toFixed(3),
        c.referenceSeconds.toFixed(2),
        c.definition,
        `${speedup.toFixed(1)}×`,
        `${targetText} ${ok ? 'MET' : 'NOT MET'}`,
        last.iterations,
        last.maxRssMB.toFixed(0),
        speeds.length ? median(speeds).toFixed(1) : '?',
      ]);
      console.log(table([header, rows.at(-1)!]));
    }
  }
  console.log('\n' + table(rows.map((r) => header.map((_, i) => r[i] ?? ''))));
  console.log(
    `\nours: the solver's own stages (input layer, kernels or graphs, iterations, embedding; ` +
      `no k-means), protocol 'single', seed 0, the second solve in a child process ('cold' is ` +
      `the first, with the wasm compile and JIT warm-up), median of ${repeat} child processes. ` +
      `fixture: GNU Octave on a loaded 2-vCPU machine (the JSON's environment). Machine: GFLOP/s ` +
      `of a 256 × 256 GEMM measured just before each repeat.`,
  );
}

async function inputSection(): Promise<void> {
  const { incompleteInput } = await import('../../src/core/views/incomplete-input');
  const rows: (string | number)[][] = [['file', 'n', 'views', 'ours ms (median of 5)']];
  for (const dir of ['NGs', 'BDGP']) {
    for (const f of readdirSync(join(DATASETS, dir))
      .filter((x) => x.endsWith('.mat'))
      .sort()) {
      const ds = await loadDataset(join(DATASETS, dir, f));
      const times: number[] = [];
      for (let i = 0; i < 6; i++) {
        const t = performance.now();
        incompleteInput(ds);
        times.push(performance.now() - t);
      }
      rows.push([`${dir}/${f}`, ds.n, ds.views.length, median(times.slice(1)).toFixed(2)]);
    }
  }
  console.log(table(rows));
  console.log(
    "\nreference: the code's findindex took 3–4 minutes per BDGP file; target: well under a second.",
  );
}

function scaleSection(modules: Map<string, CaseModule>): void {
  const limit = scaleLimitSeconds(1200);
  const methods = methodNames(modules);
  const methodTokens = tokens()?.filter((t) => methods.has(t)) ?? [];
  const have = new Set(listSolvers().map((s) => s.name));
  const rows: (string | number)[][] = [
    ['case', 'method', 'solve s', 'peak RSS MB', 'iterations', 'ACC', 'target'],
  ];
  const label = `synthetic n = ${SCALE_N.toLocaleString('en-US')}, 5 views, half complete`;
  for (const mod of modules.values()) {
    if (!mod.scale) continue;
    const method = mod.scaleMethod ?? mod.cases[0]?.method;
    if (method === undefined) continue;
    if (methodTokens.length && !methodTokens.includes(method)) continue;
    if (!have.has(method)) {
      rows.push([label, method, 'not registered', '–', '–', '–', '–']);
      continue;
    }
    const r = spawnJob({ kind: 'scale', method }, limit);
    if (typeof r === 'string') rows.push([label, method, r, '–', '–', '–', 'NOT MET']);
    else {
      const ok = r.solveSeconds <= 120 && r.maxRssMB <= 4096;
      rows.push([
        label,
        method,
        r.solveSeconds.toFixed(1),
        r.maxRssMB.toFixed(0),
        r.iterations,
        r.ACC === null ? '–' : r.ACC.toFixed(3),
        `≤ 120 s, ≤ 4 GB ${ok ? 'MET' : 'NOT MET'}`,
      ]);
    }
    console.log(table([rows[0]!, rows.at(-1)!]));
  }
  console.log('\n' + table(rows));
}

export async function run(): Promise<void> {
  const repeat = Number(process.env.BASELINES_RUNS ?? 3);
  if (!Number.isInteger(repeat) || repeat < 1) {
    throw new Error(`BASELINES_RUNS must be a whole number ≥ 1, got ${process.env.BASELINES_RUNS}`);
  }
  const modules = await caseModules();
  const picked = tokens();
  if (picked === null || picked.includes('input')) await inputSection();
  referenceSection(modules, repeat);
  if (picked === null || picked.includes('scale')) scaleSection(modules);
}

const childJob = process.env.BASELINES_INCOMPLETE_CHILD;
if (childJob) {
  const res = await child(JSON.parse(childJob) as Job);
  console.log(JSON.stringify(res));
  process.exit(0);
}
