/**
 * One case of seed-methods.bench.ts, run from a given checkout in a fresh process so that its
 * code, its helper threads and its peak RSS are that checkout's alone:
 *   node --import tsx seed-methods-child.ts <checkout root> <case>
 * (cwd = that checkout). Every module of the case is imported from <checkout root>/src, so the
 * same file times "before" (a worktree of an older rev) and "after" (this checkout). Prints one
 * JSON line: wall time, the protocol's stage times (host clock, as the CLI does), peak RSS,
 * iterations, ACC and a digest of the objective trace and the labels (before and after must agree).
 * SEED_CGL_N / SEED_IMVC_N change the synthetic cases' n (smaller, for profiling).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Threads from '../../src/backend/threads';
import type * as Protocol from '../../src/core/protocol';
import type * as Registry from '../../src/core/solvers/registry';
import type * as Synth from '../../src/core/synth';
import type * as Load from '../../src/io/load';
import type * as Params from '../../src/core/solvers/params';

/** The cases, shared with the parent (which prints their targets). */
export const CASES = {
  'cgl-hw': 'CGL on Handwritten, reference parameters, paper protocol (20 × 20-replicate k-means)',
  'cgmvc-hw': 'CGMVC-NC on Handwritten, reference parameters, paper protocol',
  'cgl-50k': 'CGL on synthetic n = 50,000 (V = 4, d = 20/30/40/50, c = 10), single protocol',
  'imvc-ngs': 'IMVC-CBG on NGs Per0.5, reference protocol (1 solve, 20 × 20-replicate k-means)',
  'imvc-bdgp': 'IMVC-CBG on BDGP Per0.5, reference protocol',
  'imvc-500k': 'IMVC-CBG on synthetic n = 500,000 × 5 views (d = 100 each), single protocol',
} as const;
export type CaseName = keyof typeof CASES;

/** FNV-1a over the bytes of a typed array, as 8 hex digits (a trace or label fingerprint). */
function digest(a: Float64Array | Int32Array): string {
  const b = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  let h = 0x811c9dc5;
  for (let i = 0; i < b.length; i++) h = Math.imul(h ^ b[i]!, 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

async function main(): Promise<void> {
  const root = process.argv[2]!;
  const name = process.argv[3] as CaseName;
  const src = (p: string): Promise<unknown> => import(pathToFileURL(join(root, 'src', p)).href);
  const threads = (await src('backend/threads.ts')) as typeof Threads;
  const protocol = (await src('core/protocol.ts')) as typeof Protocol;
  const registry = (await src('core/solvers/registry.ts')) as typeof Registry;
  const synth = (await src('core/synth.ts')) as typeof Synth;
  const load = (await src('io/load.ts')) as typeof Load;
  const paramsMod = (await src('core/solvers/params.ts')) as typeof Params;
  const datasets = join(root, '../shared/datasets');
  // Helper threads as the app's solver worker starts them, up before the clock starts.
  const pool = threads.startThreadPool({ helpers: threads.helperCountFromEnv() });
  if (pool) threads.awaitHelpers(pool);

  // One end-to-end run: read or generate the data, then the protocol.
  const once = async (): Promise<Record<string, unknown>> => {
    let generateMs = 0;
    const t0 = performance.now();
    type Run = Parameters<typeof protocol.evaluate>;
    let args: Run;
    if (name === 'cgl-hw' || name === 'cgmvc-hw') {
      const ds = await load.loadDataset(join(datasets, 'CGL-benchmark/Handwritten.mat'));
      // The reference's parameters (shared/reference/cgl-cgmvc-nc.json, Handwritten runs).
      const ref = JSON.parse(
        readFileSync(join(root, '../shared/reference/cgl-cgmvc-nc.json'), 'utf8'),
      ) as { runs: { file: string; method: string; params: Record<string, number> }[] };
      const method = name === 'cgl-hw' ? 'CGL' : 'CGMVC-NC';
      const run = ref.runs.find((r) => r.file.includes('Handwritten') && r.method === method)!;
      const solver = registry.getSolver(name === 'cgl-hw' ? 'cgl' : 'cgmvc-nc');
      args = [
        ds,
        solver,
        {
          lambda: run.params['lambda']!,
          rho: run.params['rho']!,
          ...(run.params['gamma'] !== undefined ? { gamma: run.params['gamma'] } : {}),
        },
        ds.labels!.classes.length,
        { protocol: 'paper', seed: 0 },
      ];
    } else if (name === 'cgl-50k') {
      const ds = synth.synthesize({
        n: Number(process.env['SEED_CGL_N'] ?? 50000),
        k: 10,
        dims: [20, 30, 40, 50],
        completeFraction: 1,
        seed: 1,
      });
      generateMs = performance.now() - t0;
      args = [ds, registry.getSolver('cgl'), {}, 10, { protocol: 'single', seed: 0 }];
    } else if (name === 'imvc-ngs' || name === 'imvc-bdgp') {
      const file = name === 'imvc-ngs' ? 'NGs/NGs_Per0.5.mat' : 'BDGP/BDGP_fea_Per0.5.mat';
      const ds = await load.loadDataset(join(datasets, file));
      const imvc = registry.getSolver('imvc-cbg');
      // The reference's shape (imvc-cbg.bench.ts): one solve, its embedding reused by 20 k-means
      // of 20 replicates (seeds 1..20, at most 1000 Lloyd iterations).
      args = [
        ds,
        { ...imvc, deterministic: true },
        paramsMod.validateParams(imvc.schema, {}),
        ds.labels!.classes.length,
        { protocol: 'paper', seed: 1, seeds: 20, replicates: 20, kmeansMaxIterations: 1000 },
      ];
    } else if (name === 'imvc-500k') {
      const ds = synth.synthesize({
        n: Number(process.env['SEED_IMVC_N'] ?? 500000),
        k: 10,
        dims: [100, 100, 100, 100, 100],
        completeFraction: 0.5,
        seed: 1,
      });
      generateMs = performance.now() - t0;
      const imvc = registry.getSolver('imvc-cbg');
      args = [
        ds,
        imvc,
        paramsMod.validateParams(imvc.schema, {}),
        10,
        { protocol: 'single', seed: 1 },
      ];
    } else {
      throw new Error(`unknown case ${name}; known: ${Object.keys(CASES).join(', ')}`);
    }
    const stages: Record<string, number> = {};
    let last = performance.now();
    if (generateMs === 0) stages['load'] = last - t0;
    const gen = protocol.evaluate(...args);
    for (;;) {
      const r = gen.next();
      const now = performance.now();
      const stage = r.done ? 'metrics' : r.value.step.stage;
      stages[stage] = (stages[stage] ?? 0) + (now - last);
      last = now;
      if (r.done) {
        const out = r.value;
        return {
          seconds: (now - t0 - generateMs) / 1000,
          generateSeconds: generateMs / 1000,
          stages: Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, v / 1000])),
          maxRssMB: process.resourceUsage().maxRSS / 1024,
          iterations: out.iterations,
          ACC: out.metrics['ACC']?.mean ?? NaN,
          trace: digest(Float64Array.from(out.objective)),
          labels: digest(Int32Array.from(out.seedLabels.flatMap((l) => Array.from(l)))),
        };
      }
    }
  };
  // The real files: a cold run, then the timed warm one (JIT warm, as Octave's interpreter is
  // after its first call; imvc-cbg.bench.ts likewise). The cold time is reported too.
  const cold = await once();
  const warm = name === 'imvc-ngs' || name === 'imvc-bdgp' ? await once() : null;
  console.log(JSON.stringify(warm ? { ...warm, coldSeconds: cold['seconds'] } : cold));
  // Helper threads would keep the process alive.
  process.exit(0);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
