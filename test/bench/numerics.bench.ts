/**
 * Dense numerics and k-means swept over sizes, each figure beside numpy / scipy / scikit-learn
 * timed in the same run on the same matrices (issue 19, point 4):
 *
 * - gemm: C = A·B, n×n, per GEMM backend, vs numpy `A @ B`;
 * - eig: all eigenpairs of a symmetric n×n, vs numpy.linalg.eigh (LAPACK dsyevd);
 * - eigk: the 10 highest pairs, vs scipy.linalg.eigh(subset_by_index) (dsyevr);
 * - svd: thin SVD of n×n, and svd-thin: of n×(n/10) and 20000×50, vs numpy.linalg.svd
 *   (full_matrices=False, dgesdd);
 * - chol / ldl / lu: factor and solve with n right-hand sides, vs scipy cho_factor+cho_solve,
 *   solve(assume_a='sym') (dsysv, Bunch–Kaufman) and lu_factor+lu_solve;
 * - kmeans-iter / kmeans-rep: rows × 20 uniform on [0,1)^20, k = 10: one Lloyd iteration
 *   (median of iterations 2…20 of one run), and a whole 20-replicate call, vs scikit-learn
 *   KMeans(algorithm='lloyd', tol=0).
 *
 * The machine is shared and drifts, so the anchor is one long-lived python process
 * (anchors/numerics_anchor.py) fed one call at a time: per size, ours and the anchor alternate
 * call by call (after one warm-up each), and the medians are compared. The anchor runs with the
 * OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE overrides unset (OpenBLAS chooses its kernel, printed)
 * and BLAS on one thread; scikit-learn's OpenMP threads match ours (1 for one iteration, the
 * solver's thread + helpers for the replicates). A log-log plot per kernel goes to
 * docs/perf/numerics-<kernel>.svg, with the least-squares growth exponents printed.
 *
 * Environment: NUMERICS_KERNELS (comma list, default all), NUMERICS_SIZES (dense n, default
 * 250,500,1000,2000,3000), NUMERICS_ROWS (k-means rows, default 1e3…1e6), NUMERICS_RUNS
 * (default 5), NUMERICS_MAX_SECONDS (ours is skipped at a size whose call is predicted, from
 * the previous size and the kernel's nominal exponent, to take longer; default 600),
 * NUMERICS_GEMM_BACKENDS (e.g. wasm,fma; default the one chosen at start-up). Relaxed SIMD on
 * Node 20: `MVSTUDIO_RELAXED_SIMD=1 npm run bench -- numerics` (run.ts sets V8's flag).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { matmulTA } from '../../src/core/linalg/kernels';
import type { Mat } from '../../src/core/linalg/types';
import { threadPool } from '../../src/core/parallel';
import { createRng } from '../../src/core/random';
import { randMat, randSym } from '../helpers/mat';
import {
  cholOp,
  eigOp,
  eigSelectOp,
  gemmBackend,
  gemmOp,
  kmeansIterations,
  kmeansReplicates,
  K_SELECT,
  ldlOp,
  luOp,
  svdOp,
  useGemmBackend,
  type Check,
} from './numerics-ops';
import { COLOURS, formatCount, growthExponent, logLogSvg } from './plot';
import { median, table, tempDir, writeRaw } from './util';

const here = dirname(fileURLToPath(import.meta.url));
const PERF_DIR = join(here, '../../docs/perf');

const list = (name: string, fallback: string): string[] =>
  (process.env[name] ?? fallback)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const numbers = (name: string, fallback: string): number[] =>
  list(name, fallback).map((s) => {
    const v = Number(s);
    if (!(v > 0) || !Number.isInteger(v)) throw new Error(`${name}: '${s}' is not a size`);
    return v;
  });

const SIZES = numbers('NUMERICS_SIZES', '250,500,1000,2000,3000');
const ROWS = numbers('NUMERICS_ROWS', '1000,10000,100000,1000000');
const RUNS = numbers('NUMERICS_RUNS', '5')[0]!;
const MAX_MS = numbers('NUMERICS_MAX_SECONDS', '600')[0]! * 1000;
/** A call this long (its warm-up) is measured 3 times instead of RUNS; past LONG_MS, once. */
const SLOW_MS = 8_000;
const LONG_MS = 30_000;

// ---------------------------------------------------------------------------------------------
// The anchor process.

/** The python anchor: one JSON request per line in, one JSON reply per line out. */
class Anchor {
  private readonly lines: AsyncIterator<string>;
  private stderr = '';

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    child.stderr.on('data', (d: Buffer) => (this.stderr += d.toString()));
    this.lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  }

  static start(): Anchor {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      OPENBLAS_NUM_THREADS: '1',
      OMP_NUM_THREADS: '1',
      MKL_NUM_THREADS: '1',
      // libgomp's spinning waits collapse (20× slower k-means on two threads) when the cores
      // are shared with other work; sleeping waits cost little on a quiet machine. An
      // OMP_WAIT_POLICY set by the caller wins.
      OMP_WAIT_POLICY: process.env.OMP_WAIT_POLICY ?? 'PASSIVE',
    };
    // The machine's overrides pin OpenBLAS to an older kernel; the anchor runs its best one.
    delete env.OPENBLAS_CORETYPE;
    delete env.OPENBLAS_L2_SIZE;
    const child = spawn('/usr/bin/python3', [join(here, 'anchors/numerics_anchor.py')], { env });
    child.on('error', () => undefined); // a missing python3 surfaces as a closed stdout
    return new Anchor(child);
  }

  /** The reply to `msg`; throws with python's stderr when the process died or refused. */
  async ask(msg: Record<string, unknown>): Promise<Record<string, unknown>> {
    this.child.stdin.write(`${JSON.stringify(msg)}\n`);
    const line = await this.lines.next();
    if (line.done) throw new Error(`the anchor process ended: ${this.stderr.trim().slice(-400)}`);
    const reply = JSON.parse(line.value) as Record<string, unknown>;
    if (typeof reply.error === 'string') throw new Error(`anchor: ${reply.error}`);
    return reply;
  }

  close(): void {
    this.child.stdin.end(`${JSON.stringify({ cmd: 'quit' })}\n`);
  }
}

/** One line on the anchor's versions and its BLAS / OpenMP pools. */
function anchorLine(info: Record<string, unknown>): string {
  const pools = (info.threadpools as Record<string, unknown>[]).map(
    (p) =>
      `${String(p.internal_api)}${p.version ? ` ${String(p.version)}` : ''}` +
      `${p.architecture ? ` kernel ${String(p.architecture)}` : ''}, ${String(p.num_threads)} thread(s)`,
  );
  return (
    `anchor: /usr/bin/python3 ${String(info.python)}, numpy ${String(info.numpy)}, scipy ${String(info.scipy)}, ` +
    `scikit-learn ${String(info.sklearn)}; ${pools.join('; ')} ` +
    '(OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset, OPENBLAS_NUM_THREADS=1, ' +
    `OMP_WAIT_POLICY=${process.env.OMP_WAIT_POLICY ?? 'PASSIVE'})`
  );
}

// ---------------------------------------------------------------------------------------------
// Kernels, cases and the interleaved measurement.

/** One of our contenders at one case: a timed call returning its wall time and check. */
type Ours = (() => { ms: number; check: Check }) | null;

interface Case {
  /** Row label, e.g. '1000²'. */
  readonly label: string;
  /** Abscissa of the plot and the exponent fit; null for a row outside the sweep. */
  readonly x: number | null;
  /** Matrices for both sides (slot name → matrix), made once per case. */
  readonly make: () => Record<string, Mat>;
}

interface Variant {
  /** Column name, e.g. 'mvstudio' or 'mvstudio (fma)'. */
  readonly name: string;
  /** Printed under the table: which function runs, or why it does not. */
  readonly note: string;
  /** Set-up before each of its calls (a GEMM backend), then the call on the case's slots. */
  readonly call: ((m: Record<string, Mat>) => Ours) | null;
}

interface Kernel {
  readonly key: string;
  readonly title: string;
  readonly anchorName: string;
  /** The python op and the slots it takes. */
  readonly op: string;
  readonly args: readonly string[];
  /** OpenMP threads of the anchor (k-means). */
  readonly threads: number;
  readonly cases: readonly Case[];
  readonly variants: readonly Variant[];
  /** Nominal growth in x, for predicting a size's time from the previous one. */
  readonly exponent: number;
  readonly xLabel: string;
  /** Flops of a case (GEMM's GFLOP/s column). */
  readonly flops?: (x: number) => number;
  /** Agreement of ours with the anchor, printed per row. */
  readonly agree: (ours: Check, anchor: unknown) => string;
}

const wall =
  (f: () => Check): Ours =>
  () => {
    const t = performance.now();
    const check = f();
    return { ms: performance.now() - t, check };
  };

/** max |a − b| / max |b| of two value lists; a mismatch of length is printed as such. */
function valuesAgree(ours: Check, anchor: unknown): string {
  const b = anchor as number[];
  if (!('values' in ours)) return '?';
  const a = ours.values;
  if (a.length !== b.length) return `${a.length} vs ${b.length} values`;
  let d = 0;
  let s = 0;
  for (let i = 0; i < a.length; i++) {
    d = Math.max(d, Math.abs(a[i]! - b[i]!));
    s = Math.max(s, Math.abs(b[i]!));
  }
  return `values ${(d / s).toExponential(1)}`;
}

function valueAgrees(ours: Check, anchor: unknown): string {
  if (!('value' in ours)) return '?';
  return `‖·‖ ${(Math.abs(ours.value - (anchor as number)) / Math.abs(anchor as number)).toExponential(1)}`;
}

/** k-means: the SSE ratio (the seeds differ, so the partitions may too). */
function sseAgrees(ours: Check, anchor: unknown): string {
  if (!('value' in ours)) return '?';
  const [sse, iterations] = anchor as [number, number];
  return `SSE ratio ${(ours.value / sse).toFixed(4)}, iterations ${ours.iterations ?? '?'} / ${iterations}`;
}

const square = (n: number): string => `${n}²`;

function denseCases(make: (n: number) => Record<string, Mat>): Case[] {
  return SIZES.map((n) => ({ label: square(n), x: n, make: () => make(n) }));
}

/** A symmetric positive definite n×n: GᵀG/n + I. */
function spd(n: number, seed: number): Mat {
  const G = randMat(n, n, seed);
  const A = matmulTA(G, G);
  for (let i = 0; i < n * n; i++) A.data[i]! /= n;
  for (let i = 0; i < n; i++) A.data[i * n + i]! += 1;
  return A;
}

function uniform(rows: number, seed: number): Mat {
  const r = createRng(seed);
  return { rows, cols: 20, data: Float64Array.from({ length: rows * 20 }, () => r.next()) };
}

/** A variant running `op.run` on the named slots, or "not on this branch". */
function single<A extends Mat[]>(
  op: { impl: string; run: ((...a: A) => Check) | null },
  slots: readonly string[],
): Variant[] {
  const args = (m: Record<string, Mat>): A => slots.map((s) => m[s]!) as A;
  return [
    {
      name: 'mvstudio',
      note: op.run ? `mvstudio runs ${op.impl}` : `mvstudio: ${op.impl} not on this branch`,
      call: op.run ? (m) => wall(() => op.run!(...args(m))) : null,
    },
  ];
}

function gemmVariants(): Variant[] {
  const start = gemmBackend();
  const asked = list('NUMERICS_GEMM_BACKENDS', start);
  const variants = asked.map((b): Variant => {
    const got = useGemmBackend(b);
    const name = asked.length > 1 ? `ours ${b}` : 'mvstudio';
    if (got === null)
      return { name, note: `${name}: GEMM backend '${b}' not on this branch`, call: null };
    return {
      name,
      note: `${name}: matmul, backend asked '${b}', running '${got}'`,
      call: (m) => {
        const C: Mat = {
          rows: m.A!.rows,
          cols: m.B!.cols,
          data: new Float64Array(m.A!.rows * m.B!.cols),
        };
        return () => {
          useGemmBackend(b);
          return wall(() => gemmOp.run!(m.A!, m.B!, C))!();
        };
      },
    };
  });
  useGemmBackend(start);
  return variants;
}

function kernels(helpers: number): Kernel[] {
  const dense = { threads: 1, exponent: 3, xLabel: 'n' } as const;
  const solve = (op: string, anchorName: string, title: string, make: (n: number) => Mat) => ({
    ...dense,
    key: op,
    title,
    anchorName,
    op,
    args: ['A', 'B'],
    cases: denseCases((n) => ({ A: make(n), B: randMat(n, n, n + 7) })),
    agree: valueAgrees,
  });
  return [
    {
      ...dense,
      key: 'gemm',
      title: 'GEMM C = A·B, n×n',
      anchorName: 'numpy A @ B',
      op: 'gemm',
      args: ['A', 'B'],
      cases: denseCases((n) => ({ A: randMat(n, n, 1), B: randMat(n, n, 2) })),
      variants: gemmVariants(),
      flops: (n) => 2 * n ** 3,
      agree: valueAgrees,
    },
    {
      ...dense,
      key: 'eig',
      title: 'symmetric eigendecomposition, all pairs, n×n',
      anchorName: 'numpy eigh',
      op: 'eig',
      args: ['A'],
      cases: denseCases((n) => ({ A: randSym(n, n) })),
      variants: single(eigOp, ['A']),
      agree: valuesAgree,
    },
    {
      ...dense,
      key: 'eigk',
      title: `symmetric eigenpairs, ${K_SELECT} highest, n×n`,
      anchorName: 'scipy eigh subset',
      op: 'eigk',
      args: ['A'],
      cases: denseCases((n) => ({ A: randSym(n, n) })),
      variants: single(eigSelectOp, ['A']),
      agree: valuesAgree,
    },
    {
      ...dense,
      key: 'svd',
      title: 'thin SVD, n×n',
      anchorName: 'numpy svd',
      op: 'svd',
      args: ['A'],
      cases: denseCases((n) => ({ A: randMat(n, n, n + 3) })),
      variants: single(svdOp, ['A']),
      agree: valuesAgree,
    },
    {
      ...dense,
      key: 'svd-thin',
      title: 'thin SVD, n×(n/10) and 20000×50',
      anchorName: 'numpy svd',
      op: 'svd',
      args: ['A'],
      exponent: 3,
      cases: [
        ...SIZES.map((n) => ({
          label: `${n} × ${Math.round(n / 10)}`,
          x: n,
          make: () => ({ A: randMat(n, Math.round(n / 10), n + 5) }),
        })),
        { label: '20000 × 50', x: null, make: () => ({ A: randMat(20_000, 50, 9) }) },
      ],
      variants: single(svdOp, ['A']),
      agree: valuesAgree,
    },
    {
      ...solve(
        'chol',
        'scipy cho_factor+cho_solve',
        'Cholesky factor + solve, n×n, n right-hand sides',
        (n) => spd(n, n),
      ),
      variants: single(cholOp, ['A', 'B']),
    },
    {
      ...solve(
        'ldl',
        'scipy solve sym (dsysv)',
        'LDLᵀ factor + solve, symmetric indefinite n×n, n right-hand sides',
        (n) => randSym(n, n + 1),
      ),
      variants: single(ldlOp, ['A', 'B']),
    },
    {
      ...solve(
        'lu',
        'scipy lu_factor+lu_solve',
        'LU factor + solve, n×n, n right-hand sides',
        (n) => randMat(n, n, n + 2),
      ),
      variants: single(luOp, ['A', 'B']),
    },
    {
      key: 'kmeans-iter',
      title: 'k-means, one Lloyd iteration, rows × 20, k = 10 (ms per iteration)',
      anchorName: 'sklearn KMeans',
      op: 'kmeans-iter',
      args: ['X'],
      threads: 1,
      exponent: 1,
      xLabel: 'rows',
      cases: ROWS.map((n) => ({
        label: `${formatCount(n)} × 20`,
        x: n,
        make: () => ({ X: uniform(n, 1) }),
      })),
      variants: [
        {
          name: 'mvstudio',
          note: 'mvstudio runs kmeansSteps (one thread), iterations 2…20 of one run; sklearn (fit − kmeans_plusplus) / n_iter_, one OpenMP thread',
          call: (m) => {
            let seed = 0;
            return () => {
              const r = kmeansIterations(m.X!, seed++);
              return { ms: r.perIteration, check: { value: r.sse, iterations: r.iterations } };
            };
          },
        },
      ],
      agree: sseAgrees,
    },
    {
      key: 'kmeans-rep',
      title: 'k-means, whole 20-replicate call, rows × 20, k = 10',
      anchorName: 'sklearn KMeans',
      op: 'kmeans-rep',
      args: ['X'],
      threads: 1 + helpers,
      exponent: 1,
      xLabel: 'rows',
      cases: ROWS.map((n) => ({
        label: `${formatCount(n)} × 20`,
        x: n,
        make: () => ({ X: uniform(n, 2) }),
      })),
      variants: [
        {
          name: 'mvstudio',
          note: `mvstudio runs kmeans (20 replicates, ≤ 100 iterations, ${1 + helpers} thread(s)); sklearn n_init=20, max_iter=100, tol=0, ${1 + helpers} OpenMP thread(s)`,
          call: (m) => {
            let seed = 0;
            return wall(() => {
              const r = kmeansReplicates(m.X!, seed++);
              return { value: r.sse, iterations: r.iterations };
            });
          },
        },
      ],
      agree: sseAgrees,
    },
  ];
}

const fmtMs = (ms: number): string =>
  ms >= 1000
    ? `${(ms / 1000).toFixed(2)} s`
    : ms >= 10
      ? `${ms.toFixed(1)} ms`
      : `${ms.toFixed(2)} ms`;

interface Row {
  readonly x: number | null;
  /** Median ms per variant (null: not run) and of the anchor. */
  readonly ours: (number | null)[];
  readonly anchor: number | null;
}

/** Measures one kernel over its cases, printing a table; returns the medians per case. */
async function measure(k: Kernel, anchor: Anchor | null, dir: string): Promise<Row[]> {
  const head = ['case', 'runs', ...k.variants.map((v) => v.name), k.anchorName];
  head.push(...k.variants.map((v) => (k.variants.length > 1 ? `ratio ${v.name}` : 'ratio')));
  if (k.flops) head.push(...k.variants.map((v) => `GFLOP/s ${v.name}`), 'GFLOP/s anchor');
  head.push('agreement');
  const rows: (string | number)[][] = [head];
  const out: Row[] = [];
  const notes: string[] = [];
  const last: ({ x: number; ms: number } | null)[] = k.variants.map(() => null);

  for (const c of k.cases) {
    const mats = c.make();
    let anchorReady = anchor !== null;
    if (anchor) {
      try {
        for (const [slot, M] of Object.entries(mats)) {
          const path = join(dir, `${slot}.f64`);
          writeRaw(path, M.data);
          await anchor.ask({ cmd: 'load', slot, path, rows: M.rows, cols: M.cols });
          rmSync(path);
        }
      } catch (e) {
        notes.push(`${c.label}: ${(e as Error).message}`);
        anchorReady = false;
      }
    }
    // Ours is skipped where the previous size predicts a call past MAX_MS.
    const calls: Ours[] = k.variants.map((v, i) => {
      const prev = last[i];
      if (!v.call) return null;
      if (prev && c.x !== null) {
        const predicted = prev.ms * (c.x / prev.x) ** k.exponent;
        if (predicted > MAX_MS) {
          notes.push(
            `${v.name} ${c.label}: skipped, predicted ${fmtMs(predicted)} per call > NUMERICS_MAX_SECONDS`,
          );
          return null;
        }
      }
      return v.call(mats);
    });
    const runAnchor = async (values: boolean): Promise<{ ms: number; check: unknown } | null> => {
      if (!anchorReady) return null;
      try {
        const r = await anchor!.ask({
          cmd: 'run',
          op: k.op,
          args: k.args,
          threads: k.threads,
          seed: 0,
          values,
        });
        return { ms: r.ms as number, check: r.check };
      } catch (e) {
        notes.push(`${c.label}: ${(e as Error).message}`);
        anchorReady = false;
        return null;
      }
    };

    // Warm-up (JIT, first touch, python imports): one call each, which also gives the checks.
    // A call that throws (a kernel refusing the matrix) is reported and not timed further.
    const warm = calls.map((f, i) => {
      if (!f) return null;
      try {
        return f();
      } catch (e) {
        notes.push(`${k.variants[i]!.name} ${c.label}: failed, ${(e as Error).message}`);
        calls[i] = null;
        return null;
      }
    });
    const warmAnchor = await runAnchor(true);
    const slowest = Math.max(0, ...warm.map((w) => w?.ms ?? 0), warmAnchor?.ms ?? 0);
    const runs = slowest >= LONG_MS ? 0 : slowest >= SLOW_MS ? Math.min(3, RUNS) : RUNS;
    const times: number[][] = calls.map(() => []);
    const anchorTimes: number[] = [];
    for (let r = 0; r < runs; r++) {
      // Alternate call by call, so drift of the machine hits both sides alike.
      calls.forEach((f, i) => f && times[i]!.push(f().ms));
      const a = await runAnchor(false);
      if (a) anchorTimes.push(a.ms);
    }
    if (runs === 0) {
      // A call this long is timed once, the warm-up itself (its JIT and first touch are noise).
      warm.forEach((w, i) => w && times[i]!.push(w.ms));
      if (warmAnchor) anchorTimes.push(warmAnchor.ms);
    }
    if (anchor) await anchor.ask({ cmd: 'free' }).catch(() => undefined);

    const med = times.map((t) => (t.length ? median(t) : null));
    const am = anchorTimes.length ? median(anchorTimes) : null;
    med.forEach((m, i) => {
      if (m !== null && c.x !== null) last[i] = { x: c.x, ms: m };
    });
    const row: (string | number)[] = [c.label, runs === 0 ? '1 (cold)' : String(runs)];
    row.push(
      ...med.map((m, i) =>
        m !== null ? fmtMs(m) : k.variants[i]!.call ? 'not timed' : 'not on branch',
      ),
    );
    row.push(am !== null ? fmtMs(am) : 'n/a');
    row.push(...med.map((m) => (m !== null && am !== null ? `${(m / am).toFixed(2)}×` : '–')));
    if (k.flops && c.x !== null) {
      const f = k.flops(c.x);
      const rate = (ms: number | null): string => (ms !== null ? (f / ms / 1e6).toFixed(1) : '–');
      row.push(...med.map(rate), rate(am));
    }
    const firstCheck = warm.find((w) => w !== null);
    row.push(firstCheck && warmAnchor ? k.agree(firstCheck.check, warmAnchor.check) : '–');
    rows.push(row);
    out.push({ x: c.x, ours: med, anchor: am });
  }
  console.log(`${k.key}: ${k.title}; ${k.anchorName}`);
  console.log(table(rows));
  for (const v of k.variants) console.log(`  ${v.note}`);
  for (const n of notes) console.log(`  ${n}`);
  return out;
}

/** Growth exponents and the SVG plot of one kernel; prints the exponents and the image link. */
function plot(k: Kernel, rows: Row[]): void {
  const swept = rows.filter((r) => r.x !== null);
  const series = [
    ...k.variants.map((v, i) => ({
      name: v.name,
      // The anchor keeps its colour (COLOURS[1]) whatever the number of our variants.
      colour: COLOURS.filter((_, j) => j !== 1)[i % (COLOURS.length - 1)]!,
      points: swept.flatMap((r) => (r.ours[i] != null ? [[r.x!, r.ours[i]!] as const] : [])),
    })),
    {
      name: k.anchorName,
      colour: COLOURS[1]!,
      points: swept.flatMap((r) => (r.anchor !== null ? [[r.x!, r.anchor] as const] : [])),
    },
  ];
  const fmt = (p: number | null): string => (p === null ? 'n/a' : p.toFixed(2));
  console.log(
    `  growth exponent (least-squares slope of log t vs log ${k.xLabel}): ` +
      series.map((s) => `${s.name} ${fmt(growthExponent(s.points))}`).join(', '),
  );
  mkdirSync(PERF_DIR, { recursive: true });
  const file = `numerics-${k.key}.svg`;
  writeFileSync(
    join(PERF_DIR, file),
    logLogSvg({ title: `${k.key}: ${k.title}`, xLabel: k.xLabel, yLabel: 'time', series }),
  );
  console.log(`![${k.key}: time vs ${k.xLabel}, mvstudio and ${k.anchorName}](perf/${file})`);
}

export async function run(): Promise<void> {
  const startBackend = gemmBackend();
  const all = kernels(threadPool()?.helpers ?? 0);
  const askedKernels = list('NUMERICS_KERNELS', all.map((k) => k.key).join(','));
  const unknown = askedKernels.filter((a) => !all.some((k) => k.key === a));
  if (unknown.length)
    throw new Error(
      `NUMERICS_KERNELS: unknown ${unknown.join(', ')}; known: ${all.map((k) => k.key).join(', ')}`,
    );

  let anchor: Anchor | null = Anchor.start();
  try {
    console.log(anchorLine(await anchor.ask({ cmd: 'info' })));
  } catch (e) {
    console.log(
      `(no anchor: ${(e as Error).message}; /usr/bin/python3 with numpy, scipy, scikit-learn, threadpoolctl is needed)`,
    );
    anchor = null;
  }
  // Node's own flags (--experimental-wasm-relaxed-simd), without tsx's loader hooks.
  const flags = process.execArgv.filter(
    (a, i, all) =>
      a.startsWith('--') &&
      a !== '--require' &&
      a !== '--import' &&
      !['--require', '--import'].includes(all[i - 1]!),
  );
  console.log(
    `mvstudio: Node ${process.version}${flags.length ? ` (${flags.join(' ')})` : ''}, GEMM backend at start-up '${startBackend}'`,
  );
  console.log(
    `dense n: ${SIZES.join(', ')}; k-means rows: ${ROWS.join(', ')}; kernels: ${askedKernels.join(', ')} ` +
      '(NUMERICS_SIZES, NUMERICS_ROWS, NUMERICS_KERNELS; default the full sweep)',
  );
  console.log(
    `medians of ${RUNS} calls after one warm-up each, ours and the anchor alternating call by call; ` +
      `3 calls where one takes ≥ ${SLOW_MS / 1000} s, one cold call where ≥ ${LONG_MS / 1000} s; ratio = ours / anchor`,
  );
  const dir = tempDir('mvstudio-bench-numerics-');
  try {
    for (const k of all.filter((k) => askedKernels.includes(k.key))) {
      console.log();
      const rows = await measure(k, anchor, dir);
      useGemmBackend(startBackend);
      plot(k, rows);
    }
  } finally {
    anchor?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
