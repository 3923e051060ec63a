/**
 * Dense kernels and decompositions (src/core/linalg), median wall time after a warm-up, beside
 * numpy on one thread (OPENBLAS_NUM_THREADS=1: numpy.matmul, numpy.linalg.eigh, numpy.linalg.svd
 * with full_matrices=False) and, where it finishes in seconds, ml-matrix (the library the
 * kernels replace). Anchors: GEMM ≥ 3.5 GFLOP/s at 1000² and 2000² (toolchain.md measured
 * 4 GFLOP/s for a register-blocked kernel in plain TypeScript, 0.5 for ml-matrix). The products
 * run on gemm.ts's WebAssembly SIMD micro-kernel (4×4 tiles of f64x2 sums over packed panels);
 * one row repeats 1000² on the plain TypeScript fallback (4×3 tiles) for comparison. GEMM rows
 * show the median and the best run: the machine's two cores are shared, and the best run is
 * the one least disturbed by other work; the target is judged on both.
 * Where relaxed SIMD is on (`MVSTUDIO_RELAXED_SIMD=1 npm run bench -- linalg`, see run.ts), a
 * second GEMM table times the fused 'fma' kernel and the 'wasm' kernel interleaved with numpy on
 * OpenBLAS's own choice of kernel (OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset) and on its
 * Haswell kernel, round by round (medians of 5), and prints the ratios; the target is fma ≥ 50 %
 * of numpy at 2000².
 */
import { spawnSync } from 'node:child_process';
import { EigenvalueDecomposition, Matrix, SingularValueDecomposition } from 'ml-matrix';
import { csrTimesBlock, setCsrBackend } from '../../src/core/linalg/csr-kernel';
import { gemmBackend, setGemmBackend } from '../../src/core/linalg/gemm';
import type { Csr } from '../../src/core/linalg/types';
import { prng } from '../helpers/prng';
import { matmul, matmulTA, matmulTB, symEig, syrk, thinSvd } from '../../src/core/linalg/kernels';
import type { Mat } from '../../src/core/linalg/types';
import { randMat as rand, randSym } from '../helpers/mat';
import { median, ONE_THREAD, pythonEnv, table, timeMs } from './util';

const GEMM_TARGET = 3.5;
const GEMM_SIZES = [250, 500, 1000, 2000];
const EIG_SIZES = [100, 300, 1000];
const SVD_SHAPES: [number, number][] = [
  [20_000, 50],
  [2000, 200],
  [200, 200],
];

const toMl = (A: Mat): Matrix =>
  new Matrix(
    Array.from({ length: A.rows }, (_, i) =>
      Array.from(A.data.subarray(i * A.cols, (i + 1) * A.cols)),
    ),
  );

/** Median and best wall time (ms) of `runs` calls after one warm-up. */
function medianAndBest(f: () => unknown, runs: number): { median: number; best: number } {
  f();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    f();
    times.push(performance.now() - t);
  }
  return { median: median(times), best: Math.min(...times) };
}

/** Fewer repetitions for long runs: the bench shares two cores with other work. */
const runsFor = (expectedMs: number): number => (expectedMs > 1500 ? 3 : expectedMs > 200 ? 5 : 9);

/** numpy's median times (ms) for the same shapes, keyed like the rows below; null without numpy. */
function numpyMs(): Record<string, number> | null {
  const code = `
import json, time, statistics
import numpy as np
rng = np.random.default_rng(0)
def med(f, runs):
    f()
    ts = []
    for _ in range(runs):
        t = time.perf_counter(); f(); ts.append(time.perf_counter() - t)
    return statistics.median(ts) * 1000
out = {}
for n in ${JSON.stringify(GEMM_SIZES)}:
    A = rng.standard_normal((n, n)); B = rng.standard_normal((n, n))
    out[f'gemm{n}'] = med(lambda: A @ B, 5)
A = rng.standard_normal((1000, 1000)); B = rng.standard_normal((1000, 1000))
out['gemmTA1000'] = med(lambda: A.T @ B, 5)
out['gemmTB1000'] = med(lambda: A @ B.T, 5)
out['syrk1000'] = med(lambda: A.T @ A, 5)
for n in ${JSON.stringify(EIG_SIZES)}:
    G = rng.standard_normal((n, n)); S = (G + G.T) / 2
    out[f'eig{n}'] = med(lambda: np.linalg.eigh(S), 5)
for m, n in ${JSON.stringify(SVD_SHAPES)}:
    A = rng.standard_normal((m, n))
    out[f'svd{m}x{n}'] = med(lambda: np.linalg.svd(A, full_matrices=False), 5)
print(json.dumps(out))
`;
  const out = pythonEnv(code, ONE_THREAD);
  return out === null ? null : (JSON.parse(out) as Record<string, number>);
}

const fmtMs = (ms: number): string =>
  ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`;

async function gemmRows(np: Record<string, number> | null): Promise<(string | number)[][]> {
  const rows: (string | number)[][] = [
    [
      `GEMM (GFLOP/s), ${gemmBackend()} kernel`,
      'mvstudio median',
      'best',
      'numpy (1 thread)',
      `target >= ${GEMM_TARGET}`,
    ],
  ];
  const rate = (flops: number, ms: number): string => (flops / ms / 1e6).toFixed(2);
  const npRate = (key: string, flops: number): string => {
    const ms = np?.[key];
    return ms === undefined ? 'n/a' : rate(flops, ms);
  };
  const verdict = (flops: number, ms: number): string =>
    flops / ms / 1e6 >= GEMM_TARGET ? 'met' : 'MISSED';
  const measure = (label: string, key: string, n: number, f: () => unknown, target: boolean) => {
    const flops = 2 * n ** 3;
    const t = medianAndBest(f, runsFor(flops / 4e6));
    const judged = target
      ? `median ${verdict(flops, t.median)}, best ${verdict(flops, t.best)}`
      : '';
    rows.push([label, rate(flops, t.median), rate(flops, t.best), npRate(key, flops), judged]);
  };
  for (const n of GEMM_SIZES) {
    const [A, B, C] = [rand(n, n, 1), rand(n, n, 2), rand(n, n, 3)];
    measure(`C = A·B, ${n}²`, `gemm${n}`, n, () => matmul(A, B, C), n >= 1000);
  }
  const [A, B, C] = [rand(1000, 1000, 4), rand(1000, 1000, 5), rand(1000, 1000, 6)];
  measure('C = Aᵀ·B, 1000²', 'gemmTA1000', 1000, () => matmulTA(A, B, C), false);
  measure('C = A·Bᵀ, 1000²', 'gemmTB1000', 1000, () => matmulTB(A, B, C), false);
  const backend = gemmBackend();
  setGemmBackend('ts');
  measure('C = A·B, 1000², TypeScript kernel', 'gemm1000', 1000, () => matmul(A, B, C), false);
  setGemmBackend(backend);
  const sy = await timeMs(() => syrk(A, C), 5);
  const npSy = np?.syrk1000;
  rows.push(['C = Aᵀ·A (syrk), 1000², time', fmtMs(sy), '', npSy ? fmtMs(npSy) : 'n/a', '']);
  return rows;
}

/**
 * numpy's A @ B times (ms), one run per size after a warm-up, on one thread; `coretype` null
 * unsets OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE (OpenBLAS picks its kernel), else sets it. Also
 * the kernel OpenBLAS reports (threadpoolctl). null without numpy.
 */
function numpyGemmOnce(coretype: string | null): { ms: number[]; kernel: string } | null {
  const code = `
import json, time
import numpy as np
from threadpoolctl import threadpool_info
rng = np.random.default_rng(0)
ms = []
for n in ${JSON.stringify(GEMM_SIZES)}:
    A = rng.standard_normal((n, n)); B = rng.standard_normal((n, n)); A @ B
    t = time.perf_counter(); A @ B; ms.append((time.perf_counter() - t) * 1000)
kernel = ','.join(str(i.get('architecture')) for i in threadpool_info() if i.get('user_api') == 'blas')
print(json.dumps({'ms': ms, 'kernel': kernel}))
`;
  const env: Record<string, string | undefined> = { ...process.env, ...ONE_THREAD };
  delete env.OPENBLAS_CORETYPE;
  delete env.OPENBLAS_L2_SIZE;
  if (coretype) env.OPENBLAS_CORETYPE = coretype;
  const r = spawnSync('/usr/bin/python3', ['-c', code], { encoding: 'utf8', env });
  return r.status === 0 ? (JSON.parse(r.stdout) as { ms: number[]; kernel: string }) : null;
}

/**
 * The fused kernel against the unfused one and numpy, C = A·B at GEMM_SIZES: 5 rounds, each
 * timing one product per size on 'fma' and 'wasm' (in turns), then numpy (its own kernel, then
 * Haswell), after a warm-up; medians in GFLOP/s and the ratios. Only where 'fma' is available.
 */
export function fmaRows(): (string | number)[][] | null {
  const was = gemmBackend();
  if (setGemmBackend('fma') !== 'fma') {
    setGemmBackend(was);
    return null;
  }
  const ROUNDS = 5;
  const mats = GEMM_SIZES.map((n) => [rand(n, n, 1), rand(n, n, 2), rand(n, n, 3)] as const);
  const ours = {
    fma: GEMM_SIZES.map((): number[] => []),
    wasm: GEMM_SIZES.map((): number[] => []),
  };
  const np = {
    own: GEMM_SIZES.map((): number[] => []),
    haswell: GEMM_SIZES.map((): number[] => []),
  };
  const kernels = { own: 'n/a', haswell: 'n/a' };
  for (const b of ['fma', 'wasm'] as const) {
    setGemmBackend(b);
    for (const [A, B, C] of mats) matmul(A, B, C);
  }
  for (let r = 0; r < ROUNDS; r++) {
    // Which kernel goes first alternates, so that neither always follows numpy's process.
    for (const b of r % 2 ? (['wasm', 'fma'] as const) : (['fma', 'wasm'] as const)) {
      setGemmBackend(b);
      mats.forEach(([A, B, C], i) => {
        const t = performance.now();
        matmul(A, B, C);
        ours[b][i]!.push(performance.now() - t);
      });
    }
    for (const [key, coretype] of [
      ['own', null],
      ['haswell', 'Haswell'],
    ] as const) {
      const once = numpyGemmOnce(coretype);
      if (!once) continue;
      kernels[key] = once.kernel;
      once.ms.forEach((ms, i) => np[key][i]!.push(ms));
    }
  }
  setGemmBackend(was);
  const gf = (n: number, ms: number[]): number => (2 * n ** 3) / median(ms) / 1e6;
  const rows: (string | number)[][] = [
    [
      'C = A·B (GFLOP/s, medians of 5, interleaved)',
      'fma',
      'wasm',
      `numpy ${kernels.own}`,
      `numpy ${kernels.haswell}`,
      'fma/wasm',
      `fma/numpy ${kernels.own}`,
      `fma/numpy ${kernels.haswell}`,
    ],
  ];
  GEMM_SIZES.forEach((n, i) => {
    const [f, w] = [gf(n, ours.fma[i]!), gf(n, ours.wasm[i]!)];
    const [o, h] = [np.own[i]!, np.haswell[i]!].map((t) => (t.length ? gf(n, t) : NaN)) as [
      number,
      number,
    ];
    const pct = (x: number): string => (Number.isNaN(x) ? 'n/a' : `${(100 * x).toFixed(0)} %`);
    rows.push([
      `${n}²${n === 2000 ? ' (target fma ≥ 50 % of numpy)' : ''}`,
      f.toFixed(2),
      w.toFixed(2),
      Number.isNaN(o) ? 'n/a' : o.toFixed(2),
      Number.isNaN(h) ? 'n/a' : h.toFixed(2),
      pct(f / w),
      pct(f / o),
      pct(f / h),
    ]);
  });
  return rows;
}

async function eigRows(np: Record<string, number> | null): Promise<(string | number)[][]> {
  const rows: (string | number)[][] = [
    ['symmetric eigen, all vectors', 'mvstudio', 'numpy (1 thread)', 'ml-matrix'],
  ];
  for (const n of EIG_SIZES) {
    const S = randSym(n, n);
    const ms = await timeMs(() => symEig(S), runsFor((n / 100) ** 3 * 4));
    let ml = 'not run (> 10 s)';
    if (n <= 300) {
      const M = toMl(S);
      ml = fmtMs(await timeMs(() => new EigenvalueDecomposition(M, { assumeSymmetric: true }), 3));
    }
    rows.push([`n = ${n}`, fmtMs(ms), np ? fmtMs(np[`eig${n}`]!) : 'n/a', ml]);
  }
  return rows;
}

async function svdRows(np: Record<string, number> | null): Promise<(string | number)[][]> {
  const rows: (string | number)[][] = [['thin SVD', 'mvstudio', 'numpy (1 thread)', 'ml-matrix']];
  for (const [m, n] of SVD_SHAPES) {
    const A = rand(m, n, m + n);
    const ms = await timeMs(() => thinSvd(A), 5);
    const M = toMl(A);
    const ml = await timeMs(() => new SingularValueDecomposition(M, { autoTranspose: true }), 1);
    rows.push([`${m}×${n}`, fmtMs(ms), np ? fmtMs(np[`svd${m}x${n}`]!) : 'n/a', fmtMs(ml)]);
  }
  return rows;
}

/**
 * A graph like CGL's view graphs (n = 2000, ~20 entries per row, neighbours mostly near in
 * index as in a file sorted by class): S·X for blocks of b columns on both CSR kernels.
 */
function csrRows(): string[][] {
  const n = 2000;
  const r = prng(11);
  const indptr = new Int32Array(n + 1);
  const indices: number[] = [];
  for (let i = 0; i < n; i++) {
    const cols = new Set<number>();
    while (cols.size < 20)
      cols.add(Math.min(n - 1, Math.max(0, i + Math.round((r() - 0.5) * 400))));
    indices.push(...[...cols].sort((a, b) => a - b));
    indptr[i + 1] = indices.length;
  }
  const S: Csr = {
    rows: n,
    cols: n,
    indptr,
    indices: Int32Array.from(indices),
    data: Float64Array.from(indices, () => r()),
  };
  const rows: string[][] = [['S·X, n = 2000, nnz = 40,000', 'wasm ms', 'TypeScript ms', 'ratio']];
  for (const b of [10, 16]) {
    const x = Float64Array.from({ length: n * b }, () => r());
    const y = new Float64Array(n * b);
    const ms = (backend: 'wasm' | 'ts'): number => {
      setCsrBackend(backend);
      const t = medianAndBest(() => {
        for (let k = 0; k < 20; k++) csrTimesBlock(S, x, y, b);
      }, 9);
      return t.median / 20;
    };
    const [w, t] = [ms('wasm'), ms('ts')];
    setCsrBackend('wasm');
    rows.push([`b = ${b}`, w.toFixed(3), t.toFixed(3), `${(t / w).toFixed(1)}×`]);
  }
  return rows;
}

export async function run(): Promise<void> {
  const np = numpyMs();
  if (!np)
    console.log(
      '(numpy not available: /usr/bin/python3 with python3-numpy is needed for the anchors)',
    );
  console.log(table(await gemmRows(np)));
  console.log();
  const fma = fmaRows();
  console.log(
    fma
      ? table(fma)
      : '(fma kernel not measured: relaxed SIMD is off; MVSTUDIO_RELAXED_SIMD=1 turns it on)',
  );
  console.log();
  console.log(table(await eigRows(np)));
  console.log();
  console.log(table(await svdRows(np)));
  console.log();
  console.log(table(csrRows()));
}
