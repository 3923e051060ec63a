/**
 * k-means and the metrics, beside scikit-learn on the same data.
 *
 * k-means (threads: this process's helpers, installed by run.ts, and scikit-learn's OpenMP with
 * as many threads; OpenBLAS's kernel overrides unset, so it picks its best one), medians of RUNS,
 * each of ours and scikit-learn's runs interleaved:
 * - one Lloyd iteration, X uniform on [0, 1)^20 (no cluster structure, so Lloyd runs the full
 *   ITERATIONS), k = 10, one replicate, n = 10³ … 10⁶: ours the median step time after the
 *   first (whose step carries the k-means++ seeding); scikit-learn's KMeans(n_clusters=10,
 *   n_init=1, algorithm='lloyd', tol=0) as (fit with max_iter = ITERATIONS + 1 − fit with
 *   max_iter = 1) / ITERATIONS, the same random_state; beside ours with every scan on the
 *   calling thread (no rows split with the helpers: setGemmScan's split threshold infinite);
 * - a whole 20-replicate call at n = 10⁵ (ours: maxIterations 100, stop when no row moves;
 *   scikit-learn: n_init=20, max_iter=100, tol=0, the same stopping rule);
 * - the HW paper protocol: `mvstudio compare HW.mat --methods kmeans-concat --seeds 20` (20
 *   seeds × k-means best of 20 on the 2000 × 649 concatenation, normalize 'none'), wall time of
 *   the command, beside scipy.io.loadmat + 20 × KMeans(n_clusters=10, n_init=20,
 *   algorithm='lloyd') on the same concatenation (np.hstack of the views, transposed to n × d),
 *   with each one's ACC mean (the best matching of clusters to classes, Hungarian).
 *
 * Metrics at n = 100,000 (10 classes, 10 clusters, 30 % noise): `clusteringMetrics` (all nine)
 * beside sklearn's NMI + ARI; silhouette on a seeded 5,000-sample subset beside
 * silhouette_score(sample_size=5000), one thread each.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { kmeans, kmeansSteps, setGemmScan } from '../../src/core/cluster/kmeans';
import type { Mat } from '../../src/core/linalg/types';
import { clusteringMetrics, silhouette } from '../../src/core/metrics';
import { threadPool } from '../../src/core/parallel';
import { createRng } from '../../src/core/random';
import { median, ONE_THREAD, pythonEnv, table, tempDir, timeMs, writeRaw } from './util';

const D = 20;
const K = 10;
const ITERATIONS = 20;
/** Runs per figure (KMEANS_BENCH_RUNS overrides, e.g. 1 for a quick look). */
const RUNS = Number(process.env.KMEANS_BENCH_RUNS ?? 5);
/** Row counts of the per-iteration table (KMEANS_BENCH_SIZES, comma-separated, overrides). */
const SIZES = (process.env.KMEANS_BENCH_SIZES ?? '1000,10000,100000,1000000')
  .split(',')
  .map(Number);
/** Which parts run (KMEANS_BENCH_PARTS: any of iteration, replicates, hw, metrics). */
const PARTS = new Set(
  (process.env.KMEANS_BENCH_PARTS ?? 'iteration,replicates,hw,metrics').split(','),
);
const ROOT = join(import.meta.dirname, '../..');
const HW = join(ROOT, '../shared/datasets/HW/HW.mat');

function uniform(n: number, seed: number): Mat {
  const r = createRng(seed);
  return { rows: n, cols: D, data: Float64Array.from({ length: n * D }, () => r.next()) };
}

/** This process's threads: the solver's and its helpers'. */
const threads = (): number => 1 + (threadPool()?.helpers ?? 0);

/** scikit-learn's environment: `threads` OpenMP threads, OpenBLAS choosing its own kernel. */
function anchorEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.OPENBLAS_CORETYPE;
  delete env.OPENBLAS_L2_SIZE;
  return { ...env, OMP_NUM_THREADS: String(threads()), OPENBLAS_NUM_THREADS: '1' };
}

/** Runs a python snippet in the anchor's environment; its stdout, or null. */
function anchor(code: string): string | null {
  const r = spawnSync('/usr/bin/python3', ['-c', code], { encoding: 'utf8', env: anchorEnv() });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** The median step time of one run after the first step (ms). */
function oursPerIteration(X: Mat, run: number): number {
  const steps = kmeansSteps(X, K, { maxIterations: ITERATIONS + 1 }, createRng(run));
  const per: number[] = [];
  let t = performance.now();
  for (let i = 0; ; i++) {
    const s = steps.next();
    const now = performance.now();
    if (s.done) break;
    if (i > 0) per.push(now - t);
    t = now;
  }
  return median(per);
}

/** scikit-learn's ms per Lloyd iteration on the raw file, one run. */
function sklearnPerIteration(path: string, n: number, run: number): number | null {
  const out = anchor(`
import time, numpy as np
from sklearn.cluster import KMeans
X = np.fromfile(${JSON.stringify(path)}, dtype='<f8').reshape(${n}, ${D})
def fit(m):
    t = time.perf_counter(); KMeans(${K}, n_init=1, algorithm='lloyd', max_iter=m, tol=0, random_state=${run}).fit(X); return time.perf_counter() - t
fit(2)
print((fit(${ITERATIONS + 1}) - fit(1)) / ${ITERATIONS} * 1000)
`);
  return out === null ? null : Number(out);
}

/** The sklearn threads line: what threadpoolctl reports in the anchor's environment. */
function anchorThreads(): string {
  return (
    anchor(`
from threadpoolctl import threadpool_info
import sklearn.cluster
print(', '.join(f"{i['internal_api']} {i['num_threads']} thread(s){' ' + i['architecture'] if i.get('architecture') else ''}" for i in threadpool_info()))
`) ?? 'n/a'
  );
}

const ms = (x: number | null): string => (x === null ? 'n/a' : `${x.toFixed(2)} ms`);
const ratio = (a: number, b: number | null): string => (b ? (a / b).toFixed(2) : 'n/a');

function perIterationTable(): void {
  const rows: (string | number)[][] = [
    [
      'one Lloyd iteration, n × 20, k = 10',
      'mvstudio',
      'sklearn',
      'ratio',
      'scans on one thread',
      'ratio',
    ],
  ];
  for (const n of SIZES) {
    const X = uniform(n, 1);
    const dir = tempDir('mvstudio-bench-kmeans-');
    const path = join(dir, 'x.f64');
    writeRaw(path, X.data);
    try {
      oursPerIteration(X, 0); // warms the JIT up
      const o: number[] = [];
      const s: number[] = [];
      // Before/after: every scan on this thread (no rows split with the helpers), interleaved.
      const before: number[] = [];
      for (let run = 1; run <= RUNS; run++) {
        o.push(oursPerIteration(X, run));
        setGemmScan('auto', Infinity);
        before.push(oursPerIteration(X, run));
        setGemmScan('auto');
        const a = sklearnPerIteration(path, n, run);
        if (a !== null) s.push(a);
      }
      const so = s.length ? median(s) : null;
      const bo = median(before);
      rows.push([`n = ${n}`, ms(median(o)), ms(so), ratio(median(o), so), ms(bo), ratio(bo, so)]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  console.log(table(rows));
}

function replicatesRow(): (string | number)[] {
  const n = 100_000;
  const X = uniform(n, 2);
  const dir = tempDir('mvstudio-bench-kmeans-');
  const path = join(dir, 'x.f64');
  writeRaw(path, X.data);
  try {
    const o: number[] = [];
    const s: number[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const t = performance.now();
      kmeans(X, K, { replicates: 20 }, createRng(run));
      o.push((performance.now() - t) / 1000);
      const out = anchor(`
import time, numpy as np
from sklearn.cluster import KMeans
X = np.fromfile(${JSON.stringify(path)}, dtype='<f8').reshape(${n}, ${D})
t = time.perf_counter(); KMeans(${K}, n_init=20, algorithm='lloyd', max_iter=100, tol=0, random_state=${run}).fit(X)
print(time.perf_counter() - t)
`);
      if (out !== null) s.push(Number(out));
    }
    const so = s.length ? median(s) : null;
    return [
      '20-replicate call, n = 100,000 × 20, k = 10',
      `${median(o).toFixed(2)} s`,
      so === null ? 'n/a' : `${so.toFixed(2)} s`,
      ratio(median(o), so),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One run of the CLI's HW protocol: wall seconds and the ACC mean it prints. */
function cliHw(): { seconds: number; acc: string } | null {
  // In a temporary directory: the command writes its run folders under the working directory.
  const cwd = tempDir('mvstudio-bench-hw-');
  const t = performance.now();
  const r = spawnSync(
    process.execPath,
    [join(ROOT, 'bin/mvstudio.mjs'), 'compare', HW, '--methods', 'kmeans-concat', '--seeds', '20'],
    { encoding: 'utf8', cwd },
  );
  const seconds = (performance.now() - t) / 1000;
  rmSync(cwd, { recursive: true, force: true });
  if (r.status !== 0) return null;
  const acc = /ACC\D*?(\d\.\d+)\s*±\s*(\d\.\d+)/.exec(r.stdout);
  return { seconds, acc: acc ? `${acc[1]} ± ${acc[2]}` : '?' };
}

/** One run of scikit-learn's HW protocol: seconds (load included) and ACC mean ± std. */
function sklearnHw(): { seconds: number; acc: string } | null {
  const out = anchor(`
import time, numpy as np, scipy.io
from scipy.optimize import linear_sum_assignment
from sklearn.cluster import KMeans
t = time.perf_counter()
m = scipy.io.loadmat(${JSON.stringify(HW)})
E = np.hstack([np.asarray(v, dtype=float).T for v in m['data'][0]])
y = np.asarray(m['truelabel'][0][0]).ravel().astype(int)
accs = []
for s in range(20):
    p = KMeans(n_clusters=10, n_init=20, algorithm='lloyd', random_state=s).fit(E).labels_
    M = np.zeros((10, 10)); np.add.at(M, (p, y - y.min()), 1)
    r, c = linear_sum_assignment(-M); accs.append(M[r, c].sum() / len(y))
print(time.perf_counter() - t, np.mean(accs), np.std(accs, ddof=1))
`);
  if (out === null) return null;
  const [sec, mean, std] = out.split(' ').map(Number) as [number, number, number];
  return { seconds: sec, acc: `${mean.toFixed(4)} ± ${std.toFixed(4)}` };
}

function hwRow(): (string | number)[] {
  if (!existsSync(HW)) return ['HW protocol (kmeans-concat, 20 seeds)', 'no HW.mat', '', ''];
  const o: number[] = [];
  const s: number[] = [];
  let accO = '?';
  let accS = '?';
  for (let run = 0; run < RUNS; run++) {
    const a = cliHw();
    if (a) {
      o.push(a.seconds);
      accO = a.acc;
    }
    const b = sklearnHw();
    if (b) {
      s.push(b.seconds);
      accS = b.acc;
    }
  }
  const om = o.length ? median(o) : null;
  const sm = s.length ? median(s) : null;
  return [
    'HW protocol, kmeans-concat 20 seeds × best of 20',
    om === null ? 'failed' : `${om.toFixed(1)} s, ACC ${accO}`,
    sm === null ? 'n/a' : `${sm.toFixed(1)} s, ACC ${accS}`,
    om === null ? 'n/a' : ratio(om, sm),
  ];
}

function kmeansTable(): void {
  console.log(`threads: mvstudio ${threads()}; sklearn ${anchorThreads()}`);
  if (PARTS.has('iteration')) perIterationTable();
  console.log();
  const calls = [
    ...(PARTS.has('replicates') ? [replicatesRow()] : []),
    ...(PARTS.has('hw') ? [hwRow()] : []),
  ];
  if (calls.length) console.log(table([['whole calls', 'mvstudio', 'sklearn', 'ratio'], ...calls]));
}

/**
 * sklearn's NMI + ARI time (ms), silhouette_score(sample_size=5000) time (ms), NMI, ARI and
 * that silhouette, on the same arrays (passed as raw files); null without python3-sklearn.
 */
function sklearnMetrics(truth: Int32Array, pred: Int32Array, X: Mat): string[] | null {
  const dir = tempDir('mvstudio-bench-metrics-');
  const files = ['t.i32', 'p.i32', 'x.f64'].map((f) => join(dir, f));
  writeRaw(files[0]!, truth);
  writeRaw(files[1]!, pred);
  writeRaw(files[2]!, X.data);
  try {
    const out = pythonEnv(
      `
import time, statistics, numpy as np
from sklearn.metrics import normalized_mutual_info_score as nmi, adjusted_rand_score as ari, silhouette_score
t = np.fromfile(${JSON.stringify(files[0])}, dtype='<i4'); p = np.fromfile(${JSON.stringify(files[1])}, dtype='<i4')
X = np.fromfile(${JSON.stringify(files[2])}, dtype='<f8').reshape(${X.rows}, ${X.cols})
def clock(f, runs):
    f(); ts = []
    for _ in range(runs):
        s = time.perf_counter(); f(); ts.append(time.perf_counter() - s)
    return statistics.median(ts) * 1000
a = clock(lambda: (nmi(t, p), ari(t, p)), 7)
b = clock(lambda: silhouette_score(X, p, sample_size=5000, random_state=0), 3)
print(f'{a:.1f} {b:.0f} {nmi(t, p):.15f} {ari(t, p):.15f} {silhouette_score(X, p, sample_size=5000, random_state=0):.4f}')
`,
      ONE_THREAD,
    );
    return out === null ? null : out.split(' ');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function metricsTable(): Promise<void> {
  const n = 100_000;
  const r = createRng(2);
  const truth = Int32Array.from({ length: n }, () => r.int(K));
  const pred = truth.map((t) => (r.next() < 0.3 ? r.int(K) : (t + 3) % K));
  const X: Mat = { rows: n, cols: D, data: new Float64Array(n * D) };
  for (let i = 0; i < n; i++) {
    for (let p = 0; p < D; p++) X.data[i * D + p] = (p === truth[i]! ? 3 : 0) + r.normal();
  }
  const ms = await timeMs(() => clusteringMetrics(truth, pred));
  const silMs = await timeMs(() => silhouette(X, pred, createRng(3)), 3);
  const m = clusteringMetrics(truth, pred);
  const sil = silhouette(X, pred, createRng(3));

  const py = sklearnMetrics(truth, pred, X);
  console.log(
    table([
      ['metrics, n = 100,000', 'mvstudio', 'sklearn'],
      ['all nine metrics / NMI + ARI', `${ms.toFixed(1)} ms`, py ? `${py[0]} ms` : 'n/a'],
      ['NMI', m.NMI.toFixed(15), py?.[2] ?? 'n/a'],
      ['ARI', m.ARI.toFixed(15), py?.[3] ?? 'n/a'],
      [
        `silhouette (sample of ${sil.sampleSize})`,
        `${silMs.toFixed(0)} ms, ${sil.score.toFixed(4)}`,
        py ? `${py[1]} ms, ${py[4]}` : 'n/a',
      ],
    ]),
  );
}

export async function run(): Promise<void> {
  kmeansTable();
  console.log();
  if (PARTS.has('metrics')) await metricsTable();
}
