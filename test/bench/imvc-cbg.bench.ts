/**
 * IMVC-CBG end to end on NGs Per0.5 and BDGP Per0.5, beside the reference MATLAB code's own
 * timings (../shared/reference/imvc-cbg.json, `timings_s`: Octave 7.3 + OpenBLAS on this kind of
 * machine). Anchor: ≥ 10× faster than the reference's total = prep + solver + kmeans_total,
 * where the reference's protocol is: findindex (NaN → 0, normalise), ONE solve, then 20 runs of
 * kmeans(F, k, 'replicates', 20, 'maxiter', 1000).
 *
 * Rows, each the median of RUNS runs after one warm-up in this process (JIT warm, as Octave's
 * interpreter is after its first call):
 * - `reference protocol`: the same work as the reference's total: load the .mat file, prepare
 *   (NaN → 0, per-sample norms), one solve from the seeded start (seed 1) and the embedding,
 *   then 20 k-means of 20 replicates (seeds 1..20, max 1000 Lloyd iterations). The anchor row.
 * - `paper protocol (seeded)`: our default paper protocol, more work than the reference's: 20
 *   seeded starts, each solved and clustered by one 20-replicate k-means.
 * - `solver only`: prepare + one solve + embedding, beside the reference's `solver`.
 * The first (cold) run's time is printed too: a user's first run in a fresh process pays it.
 * The reference's `prep` is findindex only (its .mat file is loaded before the clock starts),
 * so a row without our file read is printed as well; the anchor row includes it.
 */
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { evaluate, type ProtocolStep } from '../../src/core/protocol';
import { createRng } from '../../src/core/random';
import { imvcCbg } from '../../src/core/solvers/imvc-cbg';
import { validateParams } from '../../src/core/solvers/params';
import type { Solver } from '../../src/core/solvers/types';
import { loadDataset } from '../../src/io/load';
import { DATASETS, SHARED } from '../helpers/paths';
import { median, table } from './util';

const FILES = ['NGs/NGs_Per0.5.mat', 'BDGP/BDGP_fea_Per0.5.mat'];
const RUNS = 5;

interface RefRun {
  file: string;
  timings_s: { prep: number; solver: number; kmeans_total: number };
}

/** Runs a protocol generator to the end, timing its stages (host clock, as the CLI does). */
function drive(gen: Generator<ProtocolStep, unknown, void>): Record<string, number> {
  const stages: Record<string, number> = {};
  let t = performance.now();
  for (;;) {
    const r = gen.next();
    const now = performance.now();
    const stage = r.done ? 'metrics' : r.value.step.stage;
    stages[stage] = (stages[stage] ?? 0) + (now - t);
    t = now;
    if (r.done) return stages;
  }
}

interface Timing {
  total: number;
  load: number;
  solve: number;
  kmeans: number;
}

async function pipeline(file: string, paper: boolean): Promise<Timing> {
  const t0 = performance.now();
  const ds = await loadDataset(join(DATASETS, file));
  const load = performance.now() - t0;
  const k = ds.labels!.classes.length;
  const params = validateParams(imvcCbg.schema, {});
  // The reference's shape: one solve, 20 k-means. `deterministic` makes the protocol solve once
  // (for the first seed) and reuse the embedding for every seed's k-means.
  const solver: Solver = paper ? imvcCbg : { ...imvcCbg, deterministic: true };
  const stages = drive(
    evaluate(ds, solver, params, k, {
      protocol: 'paper',
      seed: 1,
      seeds: 20,
      replicates: 20,
      kmeansMaxIterations: 1000,
    }),
  );
  const total = performance.now() - t0;
  const solve = (stages['prepare'] ?? 0) + (stages['solve'] ?? 0) + (stages['embed'] ?? 0);
  return { total, load, solve, kmeans: stages['kmeans'] ?? 0 };
}

async function solverOnly(file: string): Promise<number[]> {
  const ds = await loadDataset(join(DATASETS, file));
  const k = ds.labels!.classes.length;
  const params = validateParams(imvcCbg.schema, {});
  const times: number[] = [];
  for (let r = 0; r <= RUNS; r++) {
    const t = performance.now();
    const gen = imvcCbg.run(ds, params, k, createRng(r + 1));
    let s = gen.next();
    while (!s.done) s = gen.next();
    times.push(performance.now() - t);
  }
  return times;
}

const s = (ms: number): string => (ms / 1000).toFixed(3);

export async function run(): Promise<void> {
  const ref = JSON.parse(readFileSync(join(SHARED, 'reference/imvc-cbg.json'), 'utf8')) as {
    runs: RefRun[];
  };
  for (const file of FILES) {
    const r = ref.runs.find((x) => x.file === file)!.timings_s;
    const refTotal = r.prep + r.solver + r.kmeans_total;
    const like: Timing[] = [];
    const paper: Timing[] = [];
    for (let i = 0; i <= RUNS; i++) like.push(await pipeline(file, false));
    for (let i = 0; i <= Math.min(RUNS, 3); i++) paper.push(await pipeline(file, true));
    const solver = await solverOnly(file);
    const med = (xs: Timing[], key: keyof Timing): number => median(xs.slice(1).map((x) => x[key]));
    const likeTotal = med(like, 'total');
    const paperTotal = med(paper, 'total');
    const solverMed = median(solver.slice(1));
    console.log(`\n${file}  (reference: Octave, ${ref.runs.length} runs in imvc-cbg.json)`);
    console.log(
      table([
        ['', 'load+prep s', 'solve s', 'k-means s', 'total s', 'reference total s', 'speed-up'],
        [
          'reference protocol (1 solve, 20×20 k-means)',
          s(med(like, 'load')),
          s(med(like, 'solve')),
          s(med(like, 'kmeans')),
          s(likeTotal),
          refTotal.toFixed(3),
          `${(refTotal / (likeTotal / 1000)).toFixed(1)}× (target ≥ 10×)`,
        ],
        [
          'reference protocol without the file read',
          '',
          '',
          '',
          s(likeTotal - med(like, 'load')),
          refTotal.toFixed(3),
          `${(refTotal / ((likeTotal - med(like, 'load')) / 1000)).toFixed(1)}× (the reference's total excludes its load)`,
        ],
        [
          'paper protocol (20 seeded solves, 20×20 k-means)',
          s(med(paper, 'load')),
          s(med(paper, 'solve')),
          s(med(paper, 'kmeans')),
          s(paperTotal),
          refTotal.toFixed(3),
          `${(refTotal / (paperTotal / 1000)).toFixed(1)}×`,
        ],
        [
          'solver only (prepare + solve + embedding)',
          '',
          s(solverMed),
          '',
          '',
          `solver ${r.solver.toFixed(3)}`,
          `${(r.solver / (solverMed / 1000)).toFixed(1)}×`,
        ],
        [
          'first (cold) run, reference protocol',
          s(like[0]!.load),
          s(like[0]!.solve),
          s(like[0]!.kmeans),
          s(like[0]!.total),
          refTotal.toFixed(3),
          `${(refTotal / (like[0]!.total / 1000)).toFixed(1)}×`,
        ],
      ]),
    );
    console.log(
      `reference stages: prep ${r.prep.toFixed(3)} s, solver ${r.solver.toFixed(3)} s, ` +
        `kmeans_total ${r.kmeans_total.toFixed(3)} s`,
    );
  }
}
