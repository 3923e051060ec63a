/**
 * The Ritz machinery of `blockEig`'s iterative path (blockeig.ts): the solve's buffers, the
 * spectrum enclosure (given or from a short Lanczos run), the start block, Rayleigh–Ritz, the
 * residuals and the count of converged pairs.
 */
import type { BlockEigOptions, Config } from './blockeig';
import { matmul, matmulTA, symEig } from './kernels';
import { view, type SymOp } from './linop';
import { orthWork, type OrthWork } from './orth';
import type { Mat } from './types';

const LANCZOS_STEPS = 20;

/** A deterministic pseudo-random entry in [−½, ½) for row i, column j (an integer hash). */
export function startEntry(i: number, j: number): number {
  let h = Math.imul(i ^ 0x5bd1e995, 0x9e3779b1) ^ Math.imul(j + 0x27d4eb2f, 0x85ebca77);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296 - 0.5;
}

/** Buffers of one solve: n×b blocks and b×b matrices, allocated once. */
export interface Work {
  readonly X: Float64Array;
  readonly AX: Float64Array;
  readonly Q: Float64Array;
  readonly AQ: Float64Array;
  readonly F: [Float64Array, Float64Array, Float64Array];
  readonly XC: Float64Array;
  readonly H: Float64Array;
  readonly C: Float64Array;
  readonly theta: Float64Array;
  readonly res: Float64Array;
  readonly orth: OrthWork;
}

export function allocate(n: number, b: number): Work {
  const block = (): Float64Array => new Float64Array(n * b);
  return {
    X: block(),
    AX: block(),
    Q: block(),
    AQ: block(),
    F: [block(), block(), block()],
    XC: block(),
    H: new Float64Array(b * b),
    C: new Float64Array(b * b),
    theta: new Float64Array(b),
    res: new Float64Array(b),
    orth: orthWork(b),
  };
}

/** Spectrum enclosure [lo, hi] of s·A and the norm estimate max(|lo|, |hi|). */
export interface Bounds {
  lo: number;
  hi: number;
  norm: number;
}

/** Bounds from `o.bounds` (mapped to s·A) or from a Lanczos run. */
export function initialBounds(
  A: SymOp,
  cfg: Config,
  o: BlockEigOptions,
  w: Work,
): Bounds & { matvecs: number } {
  let lo: number;
  let hi: number;
  let matvecs = 0;
  if (o.bounds) {
    [lo, hi] =
      cfg.sign === 1 ? [o.bounds.lower, o.bounds.upper] : [-o.bounds.upper, -o.bounds.lower];
  } else {
    const l = lanczosBounds(A, cfg.n, w);
    [lo, hi, matvecs] = [l.lo, l.hi, l.steps];
  }
  const norm = Math.max(Math.abs(lo), Math.abs(hi), Number.MIN_VALUE);
  return { lo, hi, norm, matvecs };
}

/**
 * m steps of plain Lanczos from a deterministic start; the tridiagonal T_m's extreme
 * eigenvalues widened by β_m (the norm of the residual) enclose the spectrum in practice.
 * Uses w.F as scratch (vectors v_{j−1}, v_j, A·v_j).
 */
function lanczosBounds(A: SymOp, n: number, w: Work): { lo: number; hi: number; steps: number } {
  const m = Math.min(LANCZOS_STEPS, n);
  const alpha: number[] = [];
  const beta: number[] = [];
  let vPrev = w.F[0].subarray(0, n).fill(0);
  let v = w.F[1].subarray(0, n);
  let u = w.F[2].subarray(0, n);
  let norm = 0;
  for (let i = 0; i < n; i++) {
    v[i] = startEntry(i, 7919);
    norm += v[i]! * v[i]!;
  }
  norm = Math.sqrt(norm);
  for (let i = 0; i < n; i++) v[i]! /= norm;
  let betaPrev = 0;
  for (let j = 0; j < m; j++) {
    A.apply({ rows: n, cols: 1, data: v }, { rows: n, cols: 1, data: u });
    let a = 0;
    for (let i = 0; i < n; i++) a += u[i]! * v[i]!;
    let bb = 0;
    for (let i = 0; i < n; i++) {
      u[i] = u[i]! - a * v[i]! - betaPrev * vPrev[i]!;
      bb += u[i]! * u[i]!;
    }
    if (!Number.isFinite(a) || !Number.isFinite(bb)) throw nonFinite();
    alpha.push(a);
    betaPrev = Math.sqrt(bb);
    beta.push(betaPrev);
    if (betaPrev <= 1e-12 * Math.abs(a) || betaPrev === 0) break;
    for (let i = 0; i < n; i++) u[i]! /= betaPrev;
    [vPrev, v, u] = [v, u, vPrev];
  }
  const s = alpha.length;
  const T = new Float64Array(s * s);
  for (let j = 0; j < s; j++) {
    T[j * s + j] = alpha[j]!;
    if (j + 1 < s) T[j * s + j + 1] = T[(j + 1) * s + j] = beta[j]!;
  }
  const ev = symEig({ rows: s, cols: s, data: T }).values;
  const last = beta[s - 1]!;
  return { lo: ev[0]! - last, hi: ev[s - 1]! + last, steps: s };
}

/** Q (n×b) ← [X0, deterministic columns]. */
export function startBlock(X0: Mat | undefined, n: number, b: number, Q: Float64Array): void {
  const b0 = X0 ? X0.cols : 0;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < b; j++) Q[i * b + j] = j < b0 ? X0!.data[i * b0 + j]! : startEntry(i, j);
}

/**
 * Rayleigh–Ritz on the orthonormal basis Q with AQ = A·Q (both n×b): H = QᵀAQ, symmetrised;
 * H = VΘVᵀ with θ descending; X = QV, AX = (AQ)V. O(n·b²) through the kernels.
 */
export function rayleighRitz(w: Work, n: number, b: number): void {
  const H = view(w.H, b, b);
  matmulTA(view(w.Q, n, b), view(w.AQ, n, b), H);
  const h = H.data;
  for (let i = 0; i < b; i++)
    for (let j = i + 1; j < b; j++)
      h[i * b + j] = h[j * b + i] = 0.5 * (h[i * b + j]! + h[j * b + i]!);
  if (!h.every(Number.isFinite)) throw nonFinite();
  const { values, vectors } = symEig(H);
  const V = view(w.C, b, b);
  for (let j = 0; j < b; j++) {
    const src = b - 1 - j;
    w.theta[j] = values[src]!;
    for (let i = 0; i < b; i++) V.data[i * b + j] = vectors.data[i * b + src]!;
  }
  matmul(view(w.Q, n, b), V, view(w.X, n, b));
  matmul(view(w.AQ, n, b), V, view(w.AX, n, b));
}

/** out_j ← ‖AX[:, j] − θ_j·X[:, j]‖₂ for the first `out.length` of the b columns. */
export function residuals(
  X: Float64Array,
  AX: Float64Array,
  theta: Float64Array,
  n: number,
  b: number,
  out: Float64Array,
): Float64Array {
  const count = out.length;
  out.fill(0);
  for (let i = 0; i < n; i++) {
    const o = i * b;
    for (let j = 0; j < count; j++) {
      const d = AX[o + j]! - theta[j]! * X[o + j]!;
      out[j]! += d * d;
    }
  }
  for (let j = 0; j < count; j++) out[j] = Math.sqrt(out[j]!);
  return out;
}

export function residualsInto(w: Work, n: number, b: number): void {
  residuals(w.X, w.AX, w.theta, n, b, w.res);
  if (!w.res.every(Number.isFinite)) throw nonFinite();
}

function nonFinite(): Error {
  return new Error('blockEig: the operator produced non-finite values (NaN or Inf in A·X)');
}

/**
 * The residual below which Ritz pair i counts as converged: tol·‖A‖, or for a pair wanted for
 * its value only (`valuesFrom`) the larger of that and its tolerance times |θ_i|.
 */
export function threshold(cfg: Config, i: number, theta: number, norm: number): number {
  const base = cfg.tol * norm;
  const v = cfg.valuesFrom;
  return v && i >= v.from ? Math.max(base, v.tol * Math.abs(theta)) : base;
}

/** Length of the leading run of converged Ritz pairs among the first k. */
export function leadingConverged(w: Work, cfg: Config, norm: number): number {
  let nc = 0;
  while (nc < cfg.k && w.res[nc]! <= threshold(cfg, nc, w.theta[nc]!, norm)) nc++;
  return nc;
}

/** Keeps [lo, hi] around every Ritz value (a Ritz value below lo means lo was optimistic). */
export function widen(bnd: Bounds, theta: Float64Array, b: number): void {
  const tMin = theta[b - 1]!;
  const tMax = theta[0]!;
  const width = Math.max(bnd.hi - bnd.lo, 1e-3 * bnd.norm, Number.MIN_VALUE);
  if (tMin <= bnd.lo) bnd.lo = tMin - 0.05 * width;
  if (tMax > bnd.hi) bnd.hi = tMax;
  bnd.norm = Math.max(bnd.norm, Math.abs(bnd.lo), Math.abs(bnd.hi));
}
