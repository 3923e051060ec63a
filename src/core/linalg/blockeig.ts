/**
 * Block eigensolver for a few extreme eigenpairs of a symmetric operator known only through
 * block products Y = A·X (see `linop.ts`): the k largest or k smallest (algebraic) eigenvalues
 * λ and orthonormal eigenvectors x with A·x = λ·x.
 *
 * Method: Chebyshev-filtered subspace iteration with Rayleigh–Ritz and soft locking (Zhou &
 * Saad, "Self-consistent-field calculations using Chebyshev-filtered subspace iteration",
 * J. Comput. Phys. 219, 2006; the block and locking choices of Zhou, "A block
 * Chebyshev-Davidson method with inner-outer restart", J. Comput. Phys. 229, 2010). For the
 * largest eigenvalues, with the spectrum in [lo, hi] and the block's smallest Ritz value `cut`,
 * each outer iteration
 *   1. filters the unconverged columns with the scaled Chebyshev polynomial
 *        p_m(t) = T_m((t − c)/e) / T_m((θ_top − c)/e),  c = (cut + lo)/2, e = (cut − lo)/2,
 *      which is bounded by 1 on [lo, cut] and grows like e^{m·acosh((t−c)/e)} above it,
 *      by the three-term recurrence (m block products, no inner products);
 *   2. orthonormalises the filtered columns against the converged ones (two Gram–Schmidt
 *      passes) and among themselves (Cholesky-QR2, Householder when ill-conditioned: `orth.ts`);
 *   3. does Rayleigh–Ritz on the whole block: H = QᵀAQ (b×b), H = VΘVᵀ, X = QV, AX = (AQ)V.
 *      Q is orthonormal, so RR is a standard b×b eigenproblem: no Gram matrix is inverted.
 * Ritz pair i is converged when ‖A·x_i − θ_i·x_i‖₂ ≤ tol·‖A‖ (‖A‖ estimated by max(|lo|, |hi|)).
 * Converged leading pairs are soft-locked: they stay in the Rayleigh–Ritz basis but are no longer
 * filtered. If a converged eigenvalue towers over the active ones (so the filter would amplify
 * its residual direction by more than 10¹⁰), it is also deflated from the filtered operator
 * (A − X_c·diag(θ_c − c)·X_cᵀ moves it to the middle of the damped interval).
 * The degree m is chosen each iteration from the Ritz values and residuals to reach the
 * tolerance, capped so the filtered block stays numerically full rank.
 *
 * Repeated eigenvalues: the block has b = k + guard columns (default guard max(3, ⌈k/4⌉)), so a
 * cluster or a multiple eigenvalue straddling position k is resolved as a whole (single-vector
 * Lanczos, and eigsh, can miss copies of a repeated eigenvalue; a block method cannot when the
 * multiplicity is ≤ b and the start block is generic).
 *
 * The unwanted end `lo` comes from `bounds` or from 20 Lanczos steps (θ_min − β_20, Zhou & Li,
 * "Bounding the spectrum of large Hermitian matrices", 2011), and is lowered whenever a Ritz
 * value falls below it. For the smallest eigenvalues the solver runs on −A.
 *
 * Cost per outer iteration with a active columns, n×n operator and degree m:
 *   m·a products with A (sparse: 2·nnz·a·m flops) + O(n·a·m) for the recurrence
 *   + O(n·b²) dense work (projection, QR, Rayleigh–Ritz) + O(b³).
 * Memory: 8 blocks of n×b, allocated once per solve. Small problems (n ≤ `denseBelow`, or a
 * block wider than n/2) are solved densely: A is formed column block by column block and
 * `symEig` decomposes it.
 */
import { matmul, matmulTA, symEig } from './kernels';
import type { SymOp } from './linop';
import { view } from './linop';
import { orthonormalise, orthWork, type OrthWork } from './orth';
import type { Mat } from './types';

export { csrOp, denseOp, lowRankOp, scaledOp, sumOp, type SymOp } from './linop';

export interface BlockEigOptions {
  /** 'largest' (default) or 'smallest' algebraic eigenvalues. */
  readonly which?: 'largest' | 'smallest';
  /** Relative residual tolerance: ‖A·x − θ·x‖₂ ≤ tol·‖A‖. Default 1e-8. */
  readonly tol?: number;
  /** Cap on outer iterations (filter + Rayleigh–Ritz). Default 300. */
  readonly maxIter?: number;
  /** Block width b ≥ k. Default min(n, k + max(3, ⌈k/4⌉)); must exceed k. */
  readonly blockSize?: number;
  /** Initial block (n×b₀, b₀ ≤ b): its columns start the iteration; the rest are generated. */
  readonly X0?: Mat;
  /** An enclosure of A's whole spectrum, lower ≤ λ_min ≤ λ_max ≤ upper, if known. */
  readonly bounds?: { readonly lower: number; readonly upper: number };
  /** Largest Chebyshev degree per outer iteration. Default 60. */
  readonly maxDegree?: number;
  /** Solve densely when n ≤ denseBelow. Default 200. */
  readonly denseBelow?: number;
  /** Called after each outer iteration (for progress and convergence traces). */
  readonly onIteration?: (step: BlockEigStep) => void;
}

/** What one outer iteration did. */
export interface BlockEigStep {
  readonly iteration: number;
  /** Chebyshev degree used and whether locked pairs were deflated from the filter. */
  readonly degree: number;
  readonly deflated: boolean;
  /** Leading converged (soft-locked) pairs before the iteration. */
  readonly locked: number;
  /** Largest residual ‖A·x_i − θ_i·x_i‖₂ among the k wanted pairs after the iteration. */
  readonly maxResidual: number;
  readonly matvecs: number;
}

export interface BlockEigResult {
  /** (k,) eigenvalues, most wanted first: descending for 'largest', ascending for 'smallest'. */
  readonly values: Float64Array;
  /** (n, k) orthonormal eigenvectors, column i for values[i]. */
  readonly vectors: Mat;
  /** (k,) ‖A·x_i − λ_i·x_i‖₂. */
  readonly residualNorms: Float64Array;
  /** Outer iterations run (0 for the dense path). */
  readonly iterations: number;
  /** Products of A with single vectors (a block of b columns counts b). */
  readonly matvecs: number;
  /** Every residual met the tolerance. */
  readonly converged: boolean;
}

const LANCZOS_STEPS = 20;
const MIN_DEGREE = 4;
const DEGREE_MARGIN = 1.3;
/** Largest growth factor allowed between directions inside one filtered block. */
const MAX_GROWTH = 1e10;

interface Config {
  readonly n: number;
  readonly k: number;
  readonly b: number;
  readonly sign: 1 | -1;
  readonly tol: number;
  readonly maxIter: number;
  readonly maxDegree: number;
  readonly dense: boolean;
}

function configure(op: SymOp, k: number, o: BlockEigOptions): Config {
  const n = op.n;
  if (!Number.isInteger(k) || k < 1 || k > n) {
    throw new Error(`blockEig: k = ${k} must be an integer in 1..${n} (the operator's size)`);
  }
  const b = Math.min(n, o.blockSize ?? k + Math.max(3, Math.ceil(k / 4)));
  if (!Number.isInteger(b) || b < Math.min(n, k + 1)) {
    throw new Error(
      `blockEig: blockSize ${b} must exceed k = ${k} (a guard column keeps the k-th Ritz value above the filter's cut)`,
    );
  }
  const tol = o.tol ?? 1e-8;
  if (!(tol > 0)) throw new Error(`blockEig: tol must be positive, got ${tol}`);
  if (o.X0 && (o.X0.rows !== n || o.X0.cols > b)) {
    throw new Error(
      `blockEig: X0 is ${o.X0.rows}x${o.X0.cols}, expected ${n} rows and ≤ ${b} columns`,
    );
  }
  if (o.bounds && !(o.bounds.lower <= o.bounds.upper)) {
    throw new Error(`blockEig: bounds [${o.bounds.lower}, ${o.bounds.upper}] are not an interval`);
  }
  return {
    n,
    k,
    b,
    sign: (o.which ?? 'largest') === 'largest' ? 1 : -1,
    tol,
    maxIter: o.maxIter ?? 300,
    maxDegree: Math.max(MIN_DEGREE, o.maxDegree ?? 60),
    dense: n <= (o.denseBelow ?? 200) || 2 * b >= n,
  };
}

/**
 * The k largest (or smallest) eigenpairs of the symmetric operator `op` (n×n).
 * See the module comment for the method, its cost and its guarantees.
 */
export function blockEig(op: SymOp, k: number, options: BlockEigOptions = {}): BlockEigResult {
  const cfg = configure(op, k, options);
  const A = signed(op, cfg.sign);
  return cfg.dense ? denseSolve(A, cfg) : chebyshevSolve(A, cfg, options);
}

/** s·A as an operator (s = ±1), so 'smallest' of A is 'largest' of −A. */
function signed(op: SymOp, s: 1 | -1): SymOp {
  if (s === 1) return op;
  return {
    n: op.n,
    apply(X, Y) {
      op.apply(X, Y);
      const y = Y.data;
      for (let i = 0; i < y.length; i++) y[i] = -y[i]!;
    },
  };
}

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

// ---------------------------------------------------------------------------------------------
// Dense path

/** Forms s·A (n×n) column block by column block and decomposes it with `symEig`. O(n³). */
function denseSolve(A: SymOp, cfg: Config): BlockEigResult {
  const { n, k, sign } = cfg;
  const M = new Float64Array(n * n);
  const w = Math.min(n, 32);
  const E = new Float64Array(n * w);
  const Y = new Float64Array(n * w);
  for (let j0 = 0; j0 < n; j0 += w) {
    const bw = Math.min(w, n - j0);
    E.fill(0);
    for (let jj = 0; jj < bw; jj++) E[(j0 + jj) * bw + jj] = 1;
    A.apply(view(E, n, bw), view(Y, n, bw));
    for (let i = 0; i < n; i++)
      for (let jj = 0; jj < bw; jj++) M[i * n + j0 + jj] = Y[i * bw + jj]!;
  }
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const s = 0.5 * (M[i * n + j]! + M[j * n + i]!);
      M[i * n + j] = s;
      M[j * n + i] = s;
    }
  const { values, vectors } = symEig({ rows: n, cols: n, data: M });
  const theta = new Float64Array(k);
  const X = new Float64Array(n * k);
  for (let j = 0; j < k; j++) {
    const src = n - 1 - j; // descending eigenvalues of s·A
    theta[j] = values[src]!;
    for (let i = 0; i < n; i++) X[i * k + j] = vectors.data[i * n + src]!;
  }
  const AX = new Float64Array(n * k);
  A.apply(view(X, n, k), view(AX, n, k));
  const residualNorms = residuals(X, AX, theta, n, k, new Float64Array(k));
  return {
    values: theta.map((t) => (sign === 1 ? t : 0 - t)),
    vectors: { rows: n, cols: k, data: X },
    residualNorms,
    iterations: 0,
    matvecs: n + k,
    converged: true,
  };
}

// ---------------------------------------------------------------------------------------------
// Iterative path

/** Buffers of one solve: n×b blocks and b×b matrices, allocated once. */
interface Work {
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

function allocate(n: number, b: number): Work {
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
interface Bounds {
  lo: number;
  hi: number;
  norm: number;
}

function chebyshevSolve(A: SymOp, cfg: Config, o: BlockEigOptions): BlockEigResult {
  const { n, k, b, tol } = cfg;
  const w = allocate(n, b);
  let matvecs = 0;
  const bnd = initialBounds(A, cfg, o, w);
  matvecs += bnd.matvecs;

  startBlock(o.X0, n, b, w.Q);
  const Q0 = orthonormalise(view(w.Q, n, b), view(w.F[0], n, b), w.orth);
  if (Q0.data.buffer !== w.Q.buffer) w.Q.set(Q0.data);
  A.apply(view(w.Q, n, b), view(w.AQ, n, b));
  matvecs += b;
  rayleighRitz(w, n, b);

  let iterations = 0;
  let nc: number;
  for (;;) {
    residualsInto(w, n, b);
    nc = leadingConverged(w.res, k, tol * bnd.norm);
    if (nc >= k || iterations >= cfg.maxIter) break;
    iterations++;
    widen(bnd, w.theta, b);
    const plan = planFilter(w, bnd, cfg, nc, iterations === 1);
    matvecs += iterate(A, w, cfg, nc, plan);
    if (o.onIteration) {
      residualsInto(w, n, b);
      o.onIteration({
        iteration: iterations,
        degree: plan.degree,
        deflated: plan.deflate,
        locked: nc,
        maxResidual: Math.max(...w.res.subarray(0, k)),
        matvecs,
      });
    }
  }
  const X = new Float64Array(n * k);
  for (let i = 0; i < n; i++) for (let j = 0; j < k; j++) X[i * k + j] = w.X[i * b + j]!;
  return {
    values: w.theta.slice(0, k).map((t) => (cfg.sign === 1 ? t : 0 - t)),
    vectors: { rows: n, cols: k, data: X },
    residualNorms: w.res.slice(0, k),
    iterations,
    matvecs,
    converged: nc >= k,
  };
}

/** Bounds from `o.bounds` (mapped to s·A) or from a Lanczos run. */
function initialBounds(
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
function startBlock(X0: Mat | undefined, n: number, b: number, Q: Float64Array): void {
  const b0 = X0 ? X0.cols : 0;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < b; j++) Q[i * b + j] = j < b0 ? X0!.data[i * b0 + j]! : startEntry(i, j);
}

/**
 * Rayleigh–Ritz on the orthonormal basis Q with AQ = A·Q (both n×b): H = QᵀAQ, symmetrised;
 * H = VΘVᵀ with θ descending; X = QV, AX = (AQ)V. O(n·b²) through the kernels.
 */
function rayleighRitz(w: Work, n: number, b: number): void {
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
function residuals(
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

function residualsInto(w: Work, n: number, b: number): void {
  residuals(w.X, w.AX, w.theta, n, b, w.res);
  if (!w.res.every(Number.isFinite)) throw nonFinite();
}

function nonFinite(): Error {
  return new Error('blockEig: the operator produced non-finite values (NaN or Inf in A·X)');
}

/** Length of the leading run of converged Ritz pairs among the first k. */
function leadingConverged(res: Float64Array, k: number, threshold: number): number {
  let nc = 0;
  while (nc < k && res[nc]! <= threshold) nc++;
  return nc;
}

/** Keeps [lo, hi] around every Ritz value (a Ritz value below lo means lo was optimistic). */
function widen(bnd: Bounds, theta: Float64Array, b: number): void {
  const tMin = theta[b - 1]!;
  const tMax = theta[0]!;
  const width = Math.max(bnd.hi - bnd.lo, 1e-3 * bnd.norm, Number.MIN_VALUE);
  if (tMin <= bnd.lo) bnd.lo = tMin - 0.05 * width;
  if (tMax > bnd.hi) bnd.hi = tMax;
  bnd.norm = Math.max(bnd.norm, Math.abs(bnd.lo), Math.abs(bnd.hi));
}

/** The filter of one outer iteration: degree, interval and whether to deflate locked pairs. */
interface FilterPlan {
  readonly degree: number;
  /** Centre and half-width of the damped interval [lo, cut]. */
  readonly c: number;
  readonly e: number;
  /** Normalisation point: p_m(top) = 1. */
  readonly top: number;
  readonly deflate: boolean;
}

/**
 * Chooses the degree m so that, for each unconverged wanted Ritz pair i, the growth
 * T_m(ξ_i) ≈ ½e^{m·acosh ξ_i}, ξ_i = (θ_i − c)/e, covers res_i/(tol·‖A‖); capped so that the
 * largest direction in the filtered block outgrows the k-th by at most MAX_GROWTH.
 */
function planFilter(w: Work, bnd: Bounds, cfg: Config, nc: number, first: boolean): FilterPlan {
  const { k, b, tol } = cfg;
  const th = w.theta;
  const cut = Math.max(th[b - 1]!, bnd.lo + 1e-12 * bnd.norm);
  const c = 0.5 * (cut + bnd.lo);
  const e = 0.5 * (cut - bnd.lo);
  const alpha = (t: number): number => Math.acosh(Math.max(1, (t - c) / e));
  let need = 0;
  for (let i = nc; i < k; i++) {
    const ai = alpha(th[i]!);
    const ratio = Math.max(1, w.res[i]! / (tol * bnd.norm));
    need = Math.max(need, ai > 0 ? Math.acosh(ratio) / ai : Infinity);
  }
  // The Ritz values underestimate λ_i and directions just above `cut` grow too: measured on
  // kNN graphs, the residual falls ~25% slower than T_m(ξ_i) predicts. Aim past it.
  need = DEGREE_MARGIN * need + 1;
  const aK = alpha(th[k - 1]!);
  const cap = (t: number): number => {
    const d = alpha(t) - aK;
    return d > 0 ? Math.log(MAX_GROWTH) / d : Infinity;
  };
  const want = Math.min(need, cfg.maxDegree);
  const topAll = first ? Math.max(bnd.hi, th[0]!) : th[0]!;
  let deflate = false;
  let limit = cap(topAll);
  if (nc > 0 && limit < want && cap(th[nc]!) > limit) {
    deflate = true;
    limit = cap(th[nc]!);
  }
  const degree = Math.max(MIN_DEGREE, Math.min(cfg.maxDegree, Math.ceil(Math.min(want, limit))));
  const top = Math.max(th[nc]!, c + 2 * e); // any point above cut keeps p_m(top) = 1 finite
  return { degree, c, e, top, deflate };
}

/**
 * One outer iteration: filter the active columns nc..b−1 of X, orthonormalise them against the
 * locked ones and each other, and do Rayleigh–Ritz on [X_c, Q_a]. Returns the matvecs spent.
 */
function iterate(A: SymOp, w: Work, cfg: Config, nc: number, plan: FilterPlan): number {
  const { n, b } = cfg;
  const a = b - nc;
  packColumns(w.X, n, b, nc, b, w.F[0]);
  const XC = view(w.XC, n, nc);
  if (nc > 0) packColumns(w.X, n, b, 0, nc, w.XC);
  const Y = chebyshevFilter(A, w, n, a, plan, XC);
  if (nc > 0) projectOut(XC, Y, w, 2);
  const Qa = orthonormalise(Y, view(w.F[(bufferIndex(w, Y) + 1) % 3]!, n, a), w.orth);
  const target = view(w.F[(bufferIndex(w, Qa) + 1) % 3]!, n, a);
  A.apply(Qa, target);
  assemble(w, Qa.data, target.data, n, b, nc);
  rayleighRitz(w, n, b);
  return plan.degree * a + a;
}

/**
 * Q = [X_c, Q_a] and AQ = [AX_c, A·Q_a] (n × b; Q_a, A·Q_a packed n × (b − nc)). A function of
 * its own so V8 optimises this loop once rather than recompiling `iterate` around it.
 */
function assemble(
  w: Work,
  qa: Float64Array,
  aqa: Float64Array,
  n: number,
  b: number,
  nc: number,
): void {
  const a = b - nc;
  for (let i = 0; i < n; i++) {
    const o = i * b;
    for (let j = 0; j < nc; j++) {
      w.Q[o + j] = w.X[o + j]!;
      w.AQ[o + j] = w.AX[o + j]!;
    }
    for (let j = 0; j < a; j++) {
      w.Q[o + nc + j] = qa[i * a + j]!;
      w.AQ[o + nc + j] = aqa[i * a + j]!;
    }
  }
}

/** Which of the three filter buffers w.F holds the block M. */
function bufferIndex(w: Work, M: Mat): number {
  return w.F.findIndex((f) => f.buffer === M.data.buffer);
}

/** dst (n×(j1−j0), packed) ← src[:, j0:j1] of an n×b row-major block. */
function packColumns(
  src: Float64Array,
  n: number,
  b: number,
  j0: number,
  j1: number,
  dst: Float64Array,
): void {
  const w = j1 - j0;
  for (let i = 0; i < n; i++) for (let j = 0; j < w; j++) dst[i * w + j] = src[i * b + j0 + j]!;
}

/** Y ← (I − X_c·X_cᵀ)·Y, `passes` times (classical Gram–Schmidt, twice is enough). */
function projectOut(XC: Mat, Y: Mat, w: Work, passes: number): void {
  const C = view(w.C, XC.cols, Y.cols);
  const T = view(w.Q, Y.rows, Y.cols);
  for (let p = 0; p < passes; p++) {
    matmulTA(XC, Y, C);
    matmul(XC, C, T);
    const y = Y.data;
    const t = T.data;
    for (let i = 0; i < y.length; i++) y[i]! -= t[i]!;
  }
}

/**
 * The scaled Chebyshev filter (Zhou & Saad 2006, Alg. 4.1): with σ₁ = e/(top − c), τ = 2/σ₁,
 *   Y₁ = (σ₁/e)(A − cI)Y₀,  Y_{j+1} = (2σ_{j+1}/e)(A − cI)Y_j − σ_jσ_{j+1}Y_{j−1},
 *   σ_{j+1} = 1/(τ − σ_j),
 * so Y_m = p_m(A)·Y₀ with p_m(top) = 1. Y₀ is w.F[0] (n×a, packed); the result is returned as
 * a view of one of w.F. With `plan.deflate`, A is replaced by A − X_c·diag(θ_c − c)·X_cᵀ.
 */
function chebyshevFilter(A: SymOp, w: Work, n: number, a: number, plan: FilterPlan, XC: Mat): Mat {
  const { c, e, degree } = plan;
  const sigma1 = e / (plan.top - c);
  const tau = 2 / sigma1;
  let prev = view(w.F[0], n, a);
  let cur = view(w.F[1], n, a);
  let next = view(w.F[2], n, a);
  applyShifted(A, prev, cur, plan, w, XC);
  combine(cur.data, prev.data, null, c, sigma1 / e, 0);
  let sigma = sigma1;
  for (let j = 2; j <= degree; j++) {
    const sigmaNext = 1 / (tau - sigma);
    applyShifted(A, cur, next, plan, w, XC);
    combine(next.data, cur.data, prev.data, c, (2 * sigmaNext) / e, sigma * sigmaNext);
    [prev, cur, next] = [cur, next, prev];
    sigma = sigmaNext;
  }
  return cur;
}

/** out ← A·Y, minus the deflation term X_c·diag(θ_c − c)·(X_cᵀ·Y) when planned. */
function applyShifted(A: SymOp, Y: Mat, out: Mat, plan: FilterPlan, w: Work, XC: Mat): void {
  A.apply(Y, out);
  if (!plan.deflate) return;
  const nc = XC.cols;
  const C = view(w.C, nc, Y.cols);
  matmulTA(XC, Y, C);
  for (let i = 0; i < nc; i++) {
    const s = w.theta[i]! - plan.c;
    for (let j = 0; j < Y.cols; j++) C.data[i * Y.cols + j]! *= s;
  }
  const T = view(w.Q, Y.rows, Y.cols);
  matmul(XC, C, T);
  const o = out.data;
  const t = T.data;
  for (let i = 0; i < o.length; i++) o[i]! -= t[i]!;
}

/** z ← f·(z − c·y) − g·x (x may be absent): one fused pass of the recurrence. */
function combine(
  z: Float64Array,
  y: Float64Array,
  x: Float64Array | null,
  c: number,
  f: number,
  g: number,
): void {
  if (x === null) {
    for (let i = 0; i < z.length; i++) z[i] = f * (z[i]! - c * y[i]!);
    return;
  }
  for (let i = 0; i < z.length; i++) z[i] = f * (z[i]! - c * y[i]!) - g * x[i]!;
}
