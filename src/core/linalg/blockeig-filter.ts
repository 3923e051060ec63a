/**
 * The Chebyshev filter of `blockEig`'s iterative path (blockeig.ts): the degree and interval of
 * one outer iteration, the filter with the locked pairs deflated, and the iteration that
 * orthonormalises the filtered block and does Rayleigh–Ritz on it.
 */
import type { Config } from './blockeig';
import { rayleighRitz, threshold, type Bounds, type Work } from './blockeig-ritz';
import { matmul, matmulTA } from './kernels';
import { deflateTs, type CsrFilter } from './csr-kernel';
import { view, type SymOp } from './linop';
import { orthonormalise } from './orth';
import type { Mat } from './types';

export const MIN_DEGREE = 4;
const DEGREE_MARGIN = 1.3;
/** Largest growth factor allowed between directions inside one filtered block. */
const MAX_GROWTH = 1e10;

/** The filter of one outer iteration: degree, interval and whether to deflate locked pairs. */
export interface FilterPlan {
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
export function planFilter(
  w: Work,
  bnd: Bounds,
  cfg: Config,
  nc: number,
  first: boolean,
): FilterPlan {
  const { k, b } = cfg;
  const th = w.theta;
  const cut = Math.max(th[b - 1]!, bnd.lo + 1e-12 * bnd.norm);
  const c = 0.5 * (cut + bnd.lo);
  const e = 0.5 * (cut - bnd.lo);
  const alpha = (t: number): number => Math.acosh(Math.max(1, (t - c) / e));
  let need = 0;
  for (let i = nc; i < k; i++) {
    const ai = alpha(th[i]!);
    const ratio = Math.max(1, w.res[i]! / threshold(cfg, i, th[i]!, bnd.norm));
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
export function iterate(A: SymOp, w: Work, cfg: Config, nc: number, plan: FilterPlan): number {
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
 * so Y_m = p_m(A)·Y₀ with p_m(top) = 1. Y₀ is w.F[0] (n×a, packed); the result is written to
 * w.F[1] and returned as a view of it. With `plan.deflate`, A is replaced by
 * A − X_c·diag(θ_c − c)·X_cᵀ. The steps run in the operator's kernel where it offers a session
 * (`SymOp.filter`: the blocks stay in its memory, one pass per step), else in `plainFilter`;
 * the same bits, except for the order of the deflation's sums in a band-ordered session.
 */
function chebyshevFilter(A: SymOp, w: Work, n: number, a: number, plan: FilterPlan, XC: Mat): Mat {
  const { c, e, degree } = plan;
  const sigma1 = e / (plan.top - c);
  const tau = 2 / sigma1;
  const out = view(w.F[1], n, a);
  const session = A.filter?.(w.F[0].subarray(0, n * a), a) ?? plainFilter(A, w, n, a);
  // The deflation's scales θ_i − c, and X_c held by the session once for its 2·degree products.
  let scale: Float64Array | null = null;
  if (plan.deflate) {
    session.lock(XC.data, XC.cols);
    scale = Float64Array.from({ length: XC.cols }, (_, i) => w.theta[i]! - c);
  }
  const term = (): boolean => {
    if (!scale) return false;
    session.deflate(scale);
    return true;
  };
  session.step(c, sigma1 / e, 0, false, term());
  let sigma = sigma1;
  for (let j = 2; j <= degree; j++) {
    const sigmaNext = 1 / (tau - sigma);
    session.step(c, (2 * sigmaNext) / e, sigma * sigmaNext, true, term());
    sigma = sigmaNext;
  }
  session.finish(out.data);
  return out;
}

/**
 * The filter's steps without a kernel session (the TypeScript CSR kernel, sums of operators):
 * the blocks are w.F[0] (holding Y₀), w.F[1] and w.F[2], T is w.Q, and a step is A's product,
 * T subtracted, then the recurrence's combination: the arithmetic `cheb` (csr.wat) fuses.
 */
function plainFilter(A: SymOp, w: Work, n: number, a: number): CsrFilter {
  const blocks = w.F.map((f) => view(f, n, a));
  const T = view(w.Q, n, a);
  // Slots of prev, cur and next among the blocks.
  let [ip, ic, inx] = [2, 0, 1];
  let X: Float64Array = new Float64Array(0);
  let nc = 0;
  return {
    permuted: false,
    toStored: (src, cols, dst) => dst.set(src.subarray(0, n * cols)),
    current: () => blocks[ic]!.data,
    term: () => T.data,
    lock(src, cols) {
      X = src;
      nc = cols;
    },
    deflate(scale) {
      deflateTs(X, nc, blocks[ic]!.data, a, scale, w.C, T.data, n);
    },
    step(c, f, g, usePrev, useTerm) {
      const z = blocks[inx]!;
      A.apply(blocks[ic]!, z);
      if (useTerm) {
        const o = z.data;
        const t = T.data;
        for (let i = 0; i < o.length; i++) o[i]! -= t[i]!;
      }
      combine(z.data, blocks[ic]!.data, usePrev ? blocks[ip]!.data : null, c, f, g);
      [ip, ic, inx] = [ic, inx, ip];
    },
    finish: (dst) => dst.set(blocks[ic]!.data),
  };
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
