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
 * `symEigSelect` takes its k wanted pairs.
 *
 * Files: this one validates, configures and runs the dense path and the outer loop of the
 * iterative one; blockeig-ritz.ts holds the buffers, spectrum bounds and Rayleigh–Ritz,
 * blockeig-filter.ts the Chebyshev filter and one outer iteration.
 */
import { iterate, MIN_DEGREE, planFilter } from './blockeig-filter';
import {
  allocate,
  initialBounds,
  leadingConverged,
  rayleighRitz,
  residuals,
  residualsInto,
  startBlock,
  widen,
} from './blockeig-ritz';
import { symEigSelect } from './kernels';
import { view, type SymOp } from './linop';
import { orthonormalise } from './orth';
import type { Mat } from './types';

export { startEntry } from './blockeig-ritz';
export { csrOp, denseOp, lowRankOp, scaledOp, sumOp, type SymOp } from './linop';

export interface BlockEigOptions {
  /** 'largest' (default) or 'smallest' algebraic eigenvalues. */
  readonly which?: 'largest' | 'smallest';
  /** Relative residual tolerance: ‖A·x − θ·x‖₂ ≤ tol·‖A‖. Default 1e-8. */
  readonly tol?: number;
  /**
   * Wanted pairs from index `from` on (from < k) whose eigenvalue is needed but whose vector is
   * not: such a pair is converged when ‖A·x − θ·x‖₂ ≤ max(tol·‖A‖, `tol` here·|θ|). A Ritz
   * value's error is at most ‖r‖²/δ (δ its distance to the rest of the spectrum), so the value
   * keeps a relative error of about (this tol)²·|θ|/δ while the residual may stay far above
   * tol·‖A‖ (an eigenvalue close to the unwanted ones then costs few filter steps).
   */
  readonly valuesFrom?: { readonly from: number; readonly tol: number };
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
  /**
   * Return the whole final block as `block` (the iterative path's b Ritz vectors, wanted first):
   * as X0 of a solve on a nearby operator it starts the guard columns too, so the first filter
   * is cut where the spectrum really continues rather than where random columns put it.
   */
  readonly keepBlock?: boolean;
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
  /**
   * With `keepBlock`: the final block (n, b), its first k columns `vectors` (the dense path:
   * `vectors` itself).
   */
  readonly block?: Mat;
}

export interface Config {
  readonly n: number;
  readonly k: number;
  readonly b: number;
  readonly sign: 1 | -1;
  readonly tol: number;
  /** Pairs from `from` on: the value-relative tolerance (`BlockEigOptions.valuesFrom`). */
  readonly valuesFrom: { readonly from: number; readonly tol: number } | null;
  readonly maxIter: number;
  readonly maxDegree: number;
  readonly dense: boolean;
  readonly keepBlock: boolean;
}

/** The default block width for k pairs: k + max(3, ⌈k/4⌉) guard columns (before the cap at n). */
export function defaultBlockWidth(k: number): number {
  return k + Math.max(3, Math.ceil(k / 4));
}

function configure(op: SymOp, k: number, o: BlockEigOptions): Config {
  const n = op.n;
  if (!Number.isInteger(k) || k < 1 || k > n) {
    throw new Error(`blockEig: k = ${k} must be an integer in 1..${n} (the operator's size)`);
  }
  const b = Math.min(n, o.blockSize ?? defaultBlockWidth(k));
  if (!Number.isInteger(b) || b < Math.min(n, k + 1)) {
    throw new Error(
      `blockEig: blockSize ${b} must exceed k = ${k} (a guard column keeps the k-th Ritz value above the filter's cut)`,
    );
  }
  const tol = o.tol ?? 1e-8;
  if (!(tol > 0)) throw new Error(`blockEig: tol must be positive, got ${tol}`);
  if (o.valuesFrom) {
    const { from, tol: t } = o.valuesFrom;
    if (!Number.isInteger(from) || from < 0 || from >= k || !(t > 0 && t < 1)) {
      throw new Error(
        `blockEig: valuesFrom needs an integer from in 0..${k - 1} and a tol in (0, 1), got from = ${from}, tol = ${t}`,
      );
    }
  }
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
    valuesFrom: o.valuesFrom ?? null,
    maxIter: o.maxIter ?? 300,
    maxDegree: Math.max(MIN_DEGREE, o.maxDegree ?? 60),
    dense: n <= (o.denseBelow ?? 200) || 2 * b >= n,
    keepBlock: o.keepBlock === true,
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

/**
 * s·A as an operator (s = ±1), so 'smallest' of A is 'largest' of −A: the operator's own −A
 * where it has one (`negated`), else each product negated.
 */
function signed(op: SymOp, s: 1 | -1): SymOp {
  if (s === 1) return op;
  if (op.negated) return op.negated();
  return {
    n: op.n,
    apply(X, Y) {
      op.apply(X, Y);
      const y = Y.data;
      for (let i = 0; i < y.length; i++) y[i] = -y[i]!;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Dense path

/**
 * Forms s·A (n×n) column block by column block and takes its k largest pairs with
 * `symEigSelect` (few of many: bisection and inverse iteration after the reduction). O(n³).
 */
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
  // The k largest of s·A (ascending from symEigSelect), most wanted first.
  const { values, vectors } = symEigSelect({ rows: n, cols: n, data: M }, k, 'highest');
  const theta = new Float64Array(k);
  const X = new Float64Array(n * k);
  for (let j = 0; j < k; j++) {
    const src = k - 1 - j;
    theta[j] = values[src]!;
    for (let i = 0; i < n; i++) X[i * k + j] = vectors.data[i * k + src]!;
  }
  const AX = new Float64Array(n * k);
  A.apply(view(X, n, k), view(AX, n, k));
  const residualNorms = residuals(X, AX, theta, n, k, new Float64Array(k));
  const out: Mat = { rows: n, cols: k, data: X };
  return {
    values: theta.map((t) => (sign === 1 ? t : 0 - t)),
    vectors: out,
    ...(cfg.keepBlock ? { block: out } : {}),
    residualNorms,
    iterations: 0,
    matvecs: n + k,
    converged: true,
  };
}

// ---------------------------------------------------------------------------------------------
// Iterative path

function chebyshevSolve(A: SymOp, cfg: Config, o: BlockEigOptions): BlockEigResult {
  const { n, k, b } = cfg;
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
    nc = leadingConverged(w, cfg, bnd.norm);
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
    ...(cfg.keepBlock ? { block: { rows: n, cols: b, data: w.X.slice(0, n * b) } } : {}),
  };
}
