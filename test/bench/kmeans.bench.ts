/**
 * k-means and the metrics, beside scikit-learn on the same data, one thread each.
 *
 * k-means: X uniform on [0, 1)^20 (no cluster structure, so Lloyd runs the full 20 iterations),
 * k = 10, one replicate, n = 10^3, 10^4, 10^5. Reported: ms per Lloyd iteration (median over the
 * iterations after the first, whose step also carries the k-means++ seeding; the fastest in
 * brackets, the better figure on a shared machine) and the seeding + first step. Anchor: KMeans(n_clusters=10, n_init=1, algorithm='lloyd', max_iter=20, tol=0) with
 * OMP/BLAS pinned to one thread; its per-iteration time is (fit − kmeans_plusplus) / n_iter_.
 *
 * Metrics at n = 100,000 (10 classes, 10 clusters, 30 % noise): `clusteringMetrics` (all nine)
 * beside sklearn's NMI + ARI; silhouette on a seeded 5,000-sample subset beside
 * silhouette_score(sample_size=5000).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { kmeansSteps } from '../../src/core/cluster/kmeans';
import type { Mat } from '../../src/core/linalg/types';
import { clusteringMetrics, silhouette } from '../../src/core/metrics';
import { createRng } from '../../src/core/random';
import { median, ONE_THREAD, pythonEnv, table, tempDir, timeMs, writeRaw } from './util';

const D = 20;
const K = 10;
const ITERATIONS = 20;
const RUNS = 3;

function uniform(n: number, seed: number): Mat {
  const r = createRng(seed);
  return { rows: n, cols: D, data: Float64Array.from({ length: n * D }, () => r.next()) };
}

/**
 * Median (and fastest) ms per Lloyd iteration (2..last) and median ms of seeding + first
 * iteration, over RUNS runs.
 */
function ours(X: Mat): { perIteration: number; fastest: number; first: number; sse: number } {
  const per: number[] = [];
  const first: number[] = [];
  let sse = 0;
  for (let run = 0; run < RUNS + 1; run++) {
    const steps = kmeansSteps(X, K, { maxIterations: ITERATIONS }, createRng(run));
    let t = performance.now();
    for (let i = 0; ; i++) {
      const s = steps.next();
      const now = performance.now();
      if (s.done) {
        sse = s.value.sse;
        break;
      }
      if (run > 0) (i === 0 ? first : per).push(now - t); // run 0 warms the JIT up
      t = now;
    }
  }
  return { perIteration: median(per), fastest: Math.min(...per), first: median(first), sse };
}

function sklearn(path: string, n: number): { perIteration: string; first: string } {
  const out = pythonEnv(
    `
import time, statistics, numpy as np
from sklearn.cluster import KMeans, kmeans_plusplus
X = np.fromfile(${JSON.stringify(path)}, dtype='<f8').reshape(${n}, ${D})
per, seed = [], []
for r in range(${RUNS + 1}):
    t = time.perf_counter(); kmeans_plusplus(X, ${K}, random_state=r); s = time.perf_counter() - t
    t = time.perf_counter()
    km = KMeans(${K}, n_init=1, algorithm='lloyd', max_iter=${ITERATIONS}, tol=0, random_state=r).fit(X)
    f = time.perf_counter() - t
    if r > 0:
        per.append((f - s) / km.n_iter_ * 1000); seed.append(s * 1000)
print(f'{statistics.median(per):.2f} {min(per):.2f} {statistics.median(seed):.2f}')
`,
    ONE_THREAD,
  );
  if (out === null) return { perIteration: 'n/a', first: 'n/a' };
  const [p, fastest, s] = out.split(' ');
  return { perIteration: `${p} (${fastest}) ms`, first: `${s} ms (seeding)` };
}

function kmeansTable(): void {
  const rows: (string | number)[][] = [
    [
      'n × d, k',
      'mvstudio ms/iter (fastest)',
      'sklearn ms/iter (fastest)',
      'mvstudio seed+1st',
      'sklearn seeding',
    ],
  ];
  for (const n of [1_000, 10_000, 100_000]) {
    const X = uniform(n, 1);
    const dir = tempDir('mvstudio-bench-kmeans-');
    const path = join(dir, 'x.f64');
    writeRaw(path, X.data);
    try {
      const o = ours(X);
      const s = sklearn(path, n);
      rows.push([
        `${n} × ${D}, ${K}`,
        `${o.perIteration.toFixed(2)} (${o.fastest.toFixed(2)}) ms`,
        s.perIteration,
        `${o.first.toFixed(2)} ms`,
        s.first,
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  console.log(table(rows));
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
  await metricsTable();
}
