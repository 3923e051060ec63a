/**
 * Householder QR of tall matrices, computed as the LQ factorisation of the transpose so that
 * every reflector is a contiguous row: for G = Aᵀ (r×len, r ≤ len), G·H₀·H₁···H_{r−1} = [L 0]
 * with L (r×r) lower triangular, hence A = Gᵀ = Q·R with R = Lᵀ and Qᵀ = [I 0]·H_{r−1}···H₀.
 * Panels of NB rows are factored with vector operations and the rows below each panel are
 * updated with the panel's compact WY form through GEMM (LAPACK dgelqf). 2·r²·len − (2/3)·r³
 * flops for the factorisation and as many again to form or apply Q.
 */
import { transposeInto } from './dense';
import { applyBlockRight, blockReflectorT, blockWork, householder } from './householder';
import { zeros, type Mat } from './types';

/** Rows per panel: the unit of the blocked (GEMM) updates. */
const NB = 32;

/**
 * Thin QR of A (m×n, m ≥ n): A = Q·R with Q (m×n, QᵀQ = I) and R (n×n) upper triangular.
 * Defined for every A, rank-deficient included (Q stays orthonormal; R then has zeros or tiny
 * values on its diagonal). Backward stable; O(mn²).
 */
export function qr(A: Mat): { Q: Mat; R: Mat } {
  const { rows: m, cols: n } = A;
  if (m < n) throw new Error(`qr: A is ${m}x${n}; thin QR needs rows >= cols`);
  const lq = lqFactor(transposeInto(A).data, n, m);
  const R = zeros(n, n);
  for (let i = 0; i < n; i++) for (let j = i; j < n; j++) R.data[i * n + j] = lq.g[j * m + i]!;
  const qt = new Float64Array(n * m);
  for (let i = 0; i < n; i++) qt[i * m + i] = 1;
  lqApplyQt(lq, qt, n);
  return { Q: transposeInto({ rows: n, cols: m, data: qt }), R };
}

/**
 * A Householder LQ factorisation G = L·Qᵀ of G (r×len, r ≤ len), as left by `lqFactor`: L is
 * the lower triangle g[i, 0..i]; row k right of the diagonal holds v_k[k+1..] (v_k[k] = 1
 * implicit) of H_k = I − τ_k·v_k·v_kᵀ, which acts on columns k..len−1; ts[p] is the T factor
 * (nb×nb) of the compact WY form of panel p (reflectors p·NB .. p·NB + nb − 1).
 */
export interface Lq {
  readonly g: Float64Array;
  readonly r: number;
  readonly len: number;
  readonly tau: Float64Array;
  readonly ts: readonly Float64Array[];
}

/** Householder LQ of g (r×len, r ≤ len, row-major), in place. O(r²·len). */
export function lqFactor(g: Float64Array, r: number, len: number): Lq {
  const tau = new Float64Array(r);
  const ts: Float64Array[] = [];
  const yt = new Float64Array(NB * len);
  const work = blockWork(NB, r);
  for (let k0 = 0; k0 < r; k0 += NB) {
    const k1 = Math.min(r, k0 + NB);
    const nb = k1 - k0;
    factorPanel(g, len, k0, k1, tau);
    const s = len - k0;
    panelReflectors(g, len, k0, k1, yt);
    const t = new Float64Array(nb * nb);
    blockReflectorT(yt, s, nb, tau, k0, t);
    ts.push(t);
    if (k1 === r) break;
    const below = { data: g, offset: k1 * len + k0, ld: len };
    applyBlockRight(below, r - k1, s, yt, nb, t, false, work);
  }
  return { g, r, len, tau, ts };
}

/**
 * x (rows×len) ← x·H_{r−1}···H₀ with the reflectors of `lq`: x = [I 0] gives Qᵀ (r×len),
 * x = [W 0] gives W·Qᵀ. Panels are applied last to first, each as
 * x[:, k0..] ← x[:, k0..]·(I − Y·Tᵀ·Yᵀ). O(rows·r·len).
 */
export function lqApplyQt(lq: Lq, x: Float64Array, rows: number): void {
  const { g, r, len, ts } = lq;
  const yt = new Float64Array(NB * len);
  const work = blockWork(NB, rows);
  for (let p = ts.length - 1; p >= 0; p--) {
    const k0 = p * NB;
    const k1 = Math.min(r, k0 + NB);
    panelReflectors(g, len, k0, k1, yt);
    const X = { data: x, offset: k0, ld: len };
    applyBlockRight(X, rows, len - k0, yt, k1 - k0, ts[p]!, true, work);
  }
}

/**
 * Unblocked LQ of the panel rows k0..k1−1: for each k, the reflector of row k from column k
 * on, applied to the panel rows below it (row j −= τ(row j · v)·vᵀ), two rows per pass over v.
 * L's diagonal entry β_k replaces g[k, k] once row k's reflector has been applied.
 */
function factorPanel(g: Float64Array, len: number, k0: number, k1: number, tau: Float64Array) {
  for (let k = k0; k < k1; k++) {
    const rk = k * len;
    const beta = householder(g, rk + k, len - k, tau, k);
    const tk = tau[k]!;
    let j = k + 1;
    if (tk !== 0) {
      for (; j + 1 < k1; j += 2) reflectRowPair(g, rk, j * len, (j + 1) * len, k, len, tk);
      if (j < k1) reflectRowPair(g, rk, j * len, j * len, k, len, tk / 2);
    }
    g[rk + k] = beta;
  }
}

/**
 * Rows at offsets r0 and r1 of g ← row·(I − τ·v·vᵀ) over columns k..len−1, with v = (1,
 * g[rk + k+1 ..]). Both rows share each load of v; `| 0` keeps the index arithmetic in int32.
 * With r0 = r1 the row is reflected once provided τ is halved (the two updates add up).
 */
function reflectRowPair(
  g: Float64Array,
  rk: number,
  r0: number,
  r1: number,
  k: number,
  len: number,
  tk: number,
): void {
  let f0 = g[r0 + k]!;
  let f1 = g[r1 + k]!;
  for (let i = k + 1; i < len; i = (i + 1) | 0) {
    const v = g[(rk + i) | 0]!;
    f0 += g[(r0 + i) | 0]! * v;
    f1 += g[(r1 + i) | 0]! * v;
  }
  f0 *= tk;
  f1 *= tk;
  g[r0 + k]! -= f0;
  g[r1 + k]! -= f1;
  for (let i = k + 1; i < len; i = (i + 1) | 0) {
    const v = g[(rk + i) | 0]!;
    g[(r0 + i) | 0]! -= f0 * v;
    g[(r1 + i) | 0]! -= f1 * v;
  }
}

/**
 * Yᵀ (nb×s, s = len − k0) of the panel k0..k1−1: row j is v_{k0+j} over columns k0..len−1,
 * zero before its leading 1 at column j.
 */
function panelReflectors(g: Float64Array, len: number, k0: number, k1: number, yt: Float64Array) {
  const s = len - k0;
  yt.fill(0, 0, (k1 - k0) * s);
  for (let k = k0; k < k1; k++) {
    const j = k - k0;
    yt[j * s + j] = 1;
    yt.set(g.subarray(k * len + k + 1, (k + 1) * len), j * s + j + 1);
  }
}
