/**
 * Orthonormal bases of tall-skinny blocks Y (n×a, n ≥ a, row-major): Q (n×a) with QᵀQ = I and
 * span(Q) ⊇ span(Y). Two methods:
 *
 * - Cholesky-QR2 (Yamamoto et al. 2015): G = YᵀY = RᵀR, Q = Y·R⁻¹, done twice. Two `syrk` and
 *   two `matmul` kernel calls, ≈ 6na² flops, all in the fast dense kernels. Accurate to machine
 *   precision when cond(Y) ≲ 10⁸; the columns are scaled to unit length first, so a block whose
 *   only defect is unequal column norms (a Chebyshev-filtered block) is well conditioned.
 * - Householder QR: unconditionally stable, and defined for rank-deficient Y (a zero pivot
 *   contributes a unit vector orthogonal to the others, so Q is always orthonormal).
 *   ≈ 8na² flops in plain loops.
 *
 * `orthonormalise` tries Cholesky-QR2. When the scaled Gram matrix is not numerically positive
 * definite or its Cholesky factor shows cond > ~10⁵, it runs shifted Cholesky-QR3 instead
 * (Fukaya, Kannan, Nakatsukasa, Zhang & Yamamoto, SIAM J. Sci. Comput. 42(1), 2020): a first
 * pass on G + s·I, s = 11·(na + a(a+1))·u·‖Y‖_F² (u the unit roundoff, ‖Y‖_F² = a after the
 * scaling), brings cond below ~u^(−1/2), and Cholesky-QR2 finishes; ≈ 9na², in the kernels.
 * Householder remains the fallback where a pass still fails (Y numerically rank deficient).
 */
import { matmul, syrk } from './kernels';
import type { Mat } from './types';

/** Smallest acceptable pivot of the Cholesky factor of the unit-diagonal Gram matrix. */
const MIN_PIVOT = 1e-5;

/** Unit roundoff u = 2⁻⁵³. */
const UNIT_ROUNDOFF = 2 ** -53;

/**
 * In-place Cholesky G = RᵀR of a symmetric a×a matrix (row-major): the upper triangle of G
 * becomes R, the strict lower triangle is zeroed. Returns the smallest pivot r_jj, or 0 when G
 * is not numerically positive definite. O(a³/3).
 */
export function cholesky(G: Float64Array, a: number): number {
  let minPivot = Infinity;
  for (let j = 0; j < a; j++) {
    let d = G[j * a + j]!;
    for (let p = 0; p < j; p++) d -= G[p * a + j]! * G[p * a + j]!;
    if (!(d > 0)) return 0;
    const r = Math.sqrt(d);
    minPivot = Math.min(minPivot, r);
    G[j * a + j] = r;
    for (let i = j + 1; i < a; i++) {
      let s = G[j * a + i]!;
      for (let p = 0; p < j; p++) s -= G[p * a + j]! * G[p * a + i]!;
      G[j * a + i] = s / r;
    }
    for (let i = j + 1; i < a; i++) G[i * a + j] = 0;
  }
  return minPivot;
}

/** In-place inverse of an upper-triangular a×a matrix R (row-major, nonzero diagonal). */
export function invertUpper(R: Float64Array, a: number): void {
  for (let j = a - 1; j >= 0; j--) {
    const rjj = 1 / R[j * a + j]!;
    R[j * a + j] = rjj;
    // Row j of R⁻¹: x_jk = −(1/r_jj) Σ_{j<p≤k} r_jp x_pk, using rows p > j already inverted.
    for (let k = a - 1; k > j; k--) {
      let s = 0;
      for (let p = j + 1; p <= k; p++) s += R[j * a + p]! * R[p * a + k]!;
      R[j * a + k] = -s * rjj;
    }
  }
}

/** Scratch for `orthonormalise` on blocks up to n×amax: allocate once per solve. */
export interface OrthWork {
  /** a×a Gram matrix / triangular factor. */
  readonly G: Float64Array;
  /** Householder scalars τ_j and column scales. */
  readonly tau: Float64Array;
  readonly w: Float64Array;
}

export function orthWork(amax: number): OrthWork {
  return {
    G: new Float64Array(amax * amax),
    tau: new Float64Array(amax),
    w: new Float64Array(amax),
  };
}

/**
 * One Cholesky-QR pass: Q (n×a) ← Y·D⁻¹·R⁻¹ where D = diag(‖y_j‖) and (YD⁻¹)ᵀ(YD⁻¹) = RᵀR.
 * Returns false (Q untouched) when the scaled Gram matrix is too close to singular. `shifted`:
 * R from (YD⁻¹)ᵀ(YD⁻¹) + s·I (see the module comment), any positive pivot accepted.
 */
function cholQrPass(Y: Mat, Q: Mat, work: OrthWork, shifted = false): boolean {
  const a = Y.cols;
  const G: Mat = { rows: a, cols: a, data: work.G.subarray(0, a * a) };
  syrk(Y, G);
  const g = G.data;
  const sc = work.w;
  for (let j = 0; j < a; j++) {
    const d = g[j * a + j]!;
    if (!(d > 0) || !Number.isFinite(d)) return false;
    sc[j] = 1 / Math.sqrt(d);
  }
  for (let i = 0; i < a; i++) for (let j = 0; j < a; j++) g[i * a + j]! *= sc[i]! * sc[j]!;
  if (shifted) {
    const n = Y.rows;
    const s = 11 * (n * a + a * (a + 1)) * UNIT_ROUNDOFF * a;
    for (let j = 0; j < a; j++) g[j * a + j]! += s;
  }
  const pivot = cholesky(g, a);
  if (shifted ? !(pivot > 0) : pivot < MIN_PIVOT) return false;
  invertUpper(g, a);
  // D⁻¹·R⁻¹: scale row i of R⁻¹ by 1/‖y_i‖.
  for (let i = 0; i < a; i++) for (let j = i; j < a; j++) g[i * a + j]! *= sc[i]!;
  matmul(Y, G, Q);
  return true;
}

/**
 * Householder QR of Y (n×a, n ≥ a), Q (n×a) explicit. Y is overwritten by the reflectors.
 * Row-major friendly: each reflector is applied as w = vᵀ·Y[j:, j+1:] then
 * Y[i, j+1:] −= τ·v_i·w, two sequential sweeps over the rows. ≈ 4na² + 4na² flops.
 */
export function householderQr(Y: Mat, Q: Mat, work: OrthWork): void {
  const { rows: n, cols: a } = Y;
  const y = Y.data;
  const { tau, w } = work;
  for (let j = 0; j < a; j++) {
    let norm2 = 0;
    for (let i = j; i < n; i++) norm2 += y[i * a + j]! * y[i * a + j]!;
    const x0 = y[j * a + j]!;
    if (norm2 === 0) {
      tau[j] = 0;
      continue;
    }
    const beta = x0 >= 0 ? -Math.sqrt(norm2) : Math.sqrt(norm2);
    tau[j] = (beta - x0) / beta;
    const scale = 1 / (x0 - beta);
    for (let i = j + 1; i < n; i++) y[i * a + j]! *= scale;
    y[j * a + j] = 1; // v_j = 1 (implicit in LAPACK; stored here, R is not needed)
    applyReflector(y, n, a, j, j + 1, tau[j]!, y, a, w);
  }
  // Q = H_0·H_1·…·H_{a−1}·E, accumulated backwards so Q[j:, j:] is the only part touched.
  const q = Q.data;
  q.fill(0);
  for (let j = 0; j < a; j++) q[j * a + j] = 1;
  for (let j = a - 1; j >= 0; j--) applyReflector(y, n, a, j, j, tau[j]!, q, a, w);
}

/**
 * T[j:, c0:] ← (I − τ·v·vᵀ)·T[j:, c0:] where v = V[j:, j] (column j of the n×a block V).
 * w (length ≥ a) is scratch.
 */
function applyReflector(
  v: Float64Array,
  n: number,
  a: number,
  j: number,
  c0: number,
  tau: number,
  t: Float64Array,
  tc: number,
  w: Float64Array,
): void {
  if (tau === 0 || c0 >= tc) return;
  w.fill(0, c0, tc);
  for (let i = j; i < n; i++) {
    const vi = v[i * a + j]!;
    if (vi === 0) continue;
    const o = i * tc;
    for (let c = c0; c < tc; c++) w[c]! += vi * t[o + c]!;
  }
  for (let c = c0; c < tc; c++) w[c]! *= tau;
  for (let i = j; i < n; i++) {
    const vi = v[i * a + j]!;
    if (vi === 0) continue;
    const o = i * tc;
    for (let c = c0; c < tc; c++) t[o + c]! -= vi * w[c]!;
  }
}

/**
 * Q with orthonormal columns spanning Y (n×a, n ≥ a). Y and S are two n×a buffers; both are
 * overwritten, and the result lives in one of them (the returned one). Cholesky-QR2 first,
 * Householder when Y is too ill-conditioned for it.
 */
export function orthonormalise(Y: Mat, S: Mat, work: OrthWork): Mat {
  if (!cholQrPass(Y, S, work)) {
    // Y untouched by the refused pass. Shifted Cholesky-QR3: Y → S (shifted), S → Y, Y → S;
    // where a pass refuses, the buffer last written spans Y and Householder finishes from it.
    if (!cholQrPass(Y, S, work, true)) {
      householderQr(Y, S, work);
      return S;
    }
    if (!cholQrPass(S, Y, work)) {
      householderQr(S, Y, work);
      return Y;
    }
    if (cholQrPass(Y, S, work)) return S;
    householderQr(Y, S, work);
    return S;
  }
  if (cholQrPass(S, Y, work)) return Y;
  householderQr(S, Y, work); // S already spans Y
  return Y;
}
