/**
 * Householder reflectors H = I − τ·v·vᵀ and their blocked (compact WY) application, shared by
 * the tridiagonalisation (eig.ts) and the LQ/QR factorisation (qr.ts). A block of nb reflectors
 * is kept as Yᵀ (nb×s, row-major: row j is v_j, zero before its leading 1 at column j) and the
 * upper triangular T (nb×nb) with H₀·H₁···H_{nb−1} = I − Y·T·Yᵀ (Schreiber & Van Loan 1989;
 * LAPACK dlarft/dlarfb), so applying the block costs three GEMMs.
 */
import { gemmStrided, type Strided } from './gemm';

/**
 * Householder vector of x = a[off : off+len] (LAPACK dlarfg): (I − τ·v·vᵀ)·x = β·e₁ with v₀ = 1.
 * Overwrites x[1:] with v[1:] and returns β, writing τ to tau[k]; τ = 0 (H = I) when x[1:] = 0.
 * Scaled so that no square overflows or underflows. O(len).
 */
export function householder(
  a: Float64Array,
  off: number,
  len: number,
  tau: Float64Array,
  k: number,
): number {
  const alpha = a[off]!;
  let scale = 0;
  for (let j = 1; j < len; j++) scale = Math.max(scale, Math.abs(a[off + j]!));
  if (scale === 0) {
    tau[k] = 0;
    return alpha;
  }
  let ss = (alpha / scale) ** 2;
  for (let j = 1; j < len; j++) ss += (a[off + j]! / scale) ** 2;
  if (ss === Infinity) {
    // x[1:] tiny beside alpha (a zero row of a rank-deficient matrix plus rounding): (α/scale)²
    // overflows and τ would be NaN, so scale by |α| too (dlarfg's dlapy2).
    scale = Math.abs(alpha);
    ss = 1;
    for (let j = 1; j < len; j++) ss += (a[off + j]! / scale) ** 2;
  }
  const norm = scale * Math.sqrt(ss);
  const beta = alpha >= 0 ? -norm : norm;
  tau[k] = (beta - alpha) / beta;
  const f = 1 / (alpha - beta);
  if (Number.isFinite(f)) for (let j = 1; j < len; j++) a[off + j]! *= f;
  // |α − β| subnormal: its reciprocal overflows, but each |x_j| ≤ |β| so the quotients do not.
  else for (let j = 1; j < len; j++) a[off + j]! /= alpha - beta;
  return beta;
}

/**
 * The upper triangular T (nb×nb, row-major in t) of the compact WY form H₀···H_{nb−1} =
 * I − Y·T·Yᵀ (LAPACK dlarft, forward, columnwise): T[j, j] = τ_j and
 * T[0:j, j] = −τ_j·T[0:j, 0:j]·(Y[:, 0:j]ᵀ·y_j). `yt` holds Yᵀ (nb×s); τ_j = tau[k0 + j].
 * The inner products Yᵀ·Y come from one GEMM (2·nb²·s flops), the rest is O(nb³).
 */
export function blockReflectorT(
  yt: Float64Array,
  s: number,
  nb: number,
  tau: Float64Array,
  k0: number,
  t: Float64Array,
): void {
  const Y = { data: yt, offset: 0, ld: s };
  gemmStrided(nb, nb, s, 1, Y, false, Y, true, 0, { data: t, offset: 0, ld: nb });
  for (let j = 0; j < nb; j++) {
    const tj = tau[k0 + j]!;
    // t[i, j] = −τ_j·(y_i · y_j) for i < j, then t[0:j, j] ← T[0:j, 0:j]·t[0:j, j] top-down
    // in place (T upper triangular, its columns < j final).
    for (let i = 0; i < j; i++) t[i * nb + j]! *= -tj;
    for (let i = 0; i < j; i++) {
      let acc = 0;
      for (let l = i; l < j; l++) acc += t[i * nb + l]! * t[l * nb + j]!;
      t[i * nb + j] = acc;
    }
    t[j * nb + j] = tj;
    for (let i = j + 1; i < nb; i++) t[i * nb + j] = 0;
  }
}

/** Workspace of the block applications: two nb×len scratch matrices. */
export interface BlockWork {
  readonly w1: Float64Array;
  readonly w2: Float64Array;
}

/** Workspace for blocks of at most nb reflectors applied to at most len rows or columns. */
export function blockWork(nb: number, len: number): BlockWork {
  return { w1: new Float64Array(nb * len), w2: new Float64Array(nb * len) };
}

/**
 * X (s×cols) ← (I − Y·T·Yᵀ)·X, reflectors from the left: X −= Y·(T·(Yᵀ·X)).
 * 4·nb·s·cols flops in three GEMMs.
 */
export function applyBlockLeft(
  X: Strided,
  s: number,
  cols: number,
  yt: Float64Array,
  nb: number,
  t: Float64Array,
  work: BlockWork,
): void {
  const Y = { data: yt, offset: 0, ld: s };
  const W1 = { data: work.w1, offset: 0, ld: cols };
  const W2 = { data: work.w2, offset: 0, ld: cols };
  gemmStrided(nb, cols, s, 1, Y, false, X, false, 0, W1);
  gemmStrided(nb, cols, nb, 1, { data: t, offset: 0, ld: nb }, false, W1, false, 0, W2);
  gemmStrided(s, cols, nb, -1, Y, true, W2, false, 1, X);
}

/**
 * X (rows×s) ← X·(I − Y·op(T)·Yᵀ), reflectors from the right, op(T) = Tᵀ when `transT`:
 * X −= ((X·Y)·op(T))·Yᵀ. With op(T) = T this applies H₀···H_{nb−1}; with Tᵀ, its transpose
 * H_{nb−1}···H₀. 4·nb·rows·s flops in three GEMMs.
 */
export function applyBlockRight(
  X: Strided,
  rows: number,
  s: number,
  yt: Float64Array,
  nb: number,
  t: Float64Array,
  transT: boolean,
  work: BlockWork,
): void {
  const Y = { data: yt, offset: 0, ld: s };
  const W1 = { data: work.w1, offset: 0, ld: nb };
  const W2 = { data: work.w2, offset: 0, ld: nb };
  gemmStrided(rows, nb, s, 1, X, false, Y, true, 0, W1);
  gemmStrided(rows, nb, nb, 1, W1, false, { data: t, offset: 0, ld: nb }, transT, 0, W2);
  gemmStrided(rows, s, nb, -1, W2, false, Y, false, 1, X);
}
