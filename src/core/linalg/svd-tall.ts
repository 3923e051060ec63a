/**
 * The tall part of `svd` (m ≥ 1.6·n): Householder QR of the row-major A in place, A = Q·R
 * (LAPACK dgeqrf: panels of NB columns factored by reflectors whose application is a row-wise
 * pass over the panel, the columns right of the panel updated by the panel's compact WY block
 * in three GEMMs), the SVD of the small R (n×n), and U = Q·U_R by WY blocks. No transpose of
 * A is formed, so the only m-sized memory is A's copy and U. ≈ 2mn² (QR) + 2mn² (U) flops,
 * mostly GEMM, plus the SVD of R.
 */
import { gemmStrided, type Strided } from './gemm';
import { applyBlockLeft, blockReflectorT, blockWork, householder } from './householder';
import type { Mat } from './types';

/** Columns per panel. */
const NB = 16;

/** Householder QR left in a (m×n): R on and above the diagonal, v_j below it (v_j[j] = 1). */
export interface TallQr {
  readonly m: number;
  readonly n: number;
  readonly a: Float64Array;
  readonly tau: Float64Array;
}

/** A = Q·R in place on a (m×n row-major, m ≥ n). O(mn²). */
export function tallQr(a: Float64Array, m: number, n: number): TallQr {
  const tau = new Float64Array(n);
  const yt = new Float64Array(NB * m);
  const t = new Float64Array(NB * NB);
  const w1 = new Float64Array(NB * n);
  const w2 = new Float64Array(NB * n);
  for (let j0 = 0; j0 < n; j0 += NB) {
    const nb = Math.min(NB, n - j0);
    const end = j0 + nb;
    const s = m - j0;
    // The panel (rows j0…, columns j0…end−1) transposed into yt: row l is column j0+l, so the
    // reflectors are generated and applied on contiguous rows.
    for (let r = 0; r < s; r++) {
      const ar = (j0 + r) * n + j0;
      for (let l = 0; l < nb; l++) yt[l * s + r] = a[ar + l]!;
    }
    for (let l = 0; l < nb; l++) {
      const pl = l * s;
      const beta = householder(yt, pl + l, s - l, tau, j0 + l);
      const tl = tau[j0 + l]!;
      yt[pl + l] = 1;
      // Later panel columns ← H·(them): w = vᵀx, x −= τ·w·v.
      if (tl !== 0) {
        for (let c = l + 1; c < nb; c++) {
          const pc = c * s;
          let w = 0;
          for (let r = l; r < s; r++) w += yt[pl + r]! * yt[pc + r]!;
          w *= tl;
          for (let r = l; r < s; r++) yt[pc + r]! -= w * yt[pl + r]!;
        }
      }
      // Back into a: R's column above and on the diagonal, v below; yt keeps Yᵀ (zeros first).
      for (let r = 0; r < l; r++) {
        a[(j0 + r) * n + j0 + l] = yt[pl + r]!;
        yt[pl + r] = 0;
      }
      a[(j0 + l) * n + j0 + l] = beta;
    }
    for (let r = 1; r < s; r++) {
      const ar = (j0 + r) * n + j0;
      const lmax = Math.min(nb, r);
      for (let l = 0; l < lmax; l++) a[ar + l] = yt[l * s + r]!;
    }
    const rest = n - end;
    if (rest === 0) continue;
    // Columns right of the panel ← (H_{j0}···H_{end−1})ᵀ·(them) = (I − Y·Tᵀ·Yᵀ)·X.
    blockReflectorT(yt, s, nb, tau, j0, t);
    const Y: Strided = { data: yt, offset: 0, ld: s };
    const X: Strided = { data: a, offset: j0 * n + end, ld: n };
    const W1: Strided = { data: w1, offset: 0, ld: rest };
    const W2: Strided = { data: w2, offset: 0, ld: rest };
    gemmStrided(nb, rest, s, 1, Y, false, X, false, 0, W1);
    gemmStrided(nb, rest, nb, 1, { data: t, offset: 0, ld: nb }, true, W1, false, 0, W2);
    gemmStrided(s, rest, nb, -1, Y, true, W2, false, 1, X);
  }
  return { m, n, a, tau };
}

/** yt (nb×s, s = m − j0) ← the panel's reflectors as rows (zeros before each leading 1). */
function panelVectors(
  a: Float64Array,
  m: number,
  n: number,
  j0: number,
  nb: number,
  yt: Float64Array,
): void {
  const s = m - j0;
  yt.fill(0, 0, nb * s);
  for (let l = 0; l < nb; l++) yt[l * s + l] = 1;
  for (let r = j0 + 1; r < m; r++) {
    const ar = r * n + j0;
    const lmax = Math.min(nb, r - j0);
    for (let l = 0; l < lmax; l++) yt[l * s + (r - j0)] = a[ar + l]!;
  }
}

/** R (n×n, upper triangular) of the factorisation. */
export function tallR(F: TallQr): Mat {
  const { n, a } = F;
  const R = new Float64Array(n * n);
  for (let i = 0; i < n; i++) R.set(a.subarray(i * n + i, i * n + n), i * n + i);
  return { rows: n, cols: n, data: R };
}

/** Q·[W; 0] (m×c) for W (n×c): the thin Q applied to W by WY blocks, last block first. */
export function tallApplyQ(F: TallQr, W: Mat): Mat {
  const { m, n, a, tau } = F;
  const c = W.cols;
  const x = new Float64Array(m * c);
  x.set(W.data.subarray(0, n * c));
  const yt = new Float64Array(NB * m);
  const t = new Float64Array(NB * NB);
  const work = blockWork(NB, Math.max(m, c));
  for (let j0 = Math.floor((n - 1) / NB) * NB; j0 >= 0; j0 -= NB) {
    const nb = Math.min(NB, n - j0);
    const s = m - j0;
    panelVectors(a, m, n, j0, nb, yt);
    blockReflectorT(yt, s, nb, tau, j0, t);
    applyBlockLeft({ data: x, offset: j0 * c, ld: c }, s, c, yt, nb, t, work);
  }
  return { rows: m, cols: c, data: x };
}
