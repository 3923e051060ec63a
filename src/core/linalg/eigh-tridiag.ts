/**
 * Blocked Householder tridiagonalisation of a dense symmetric matrix and the back-transformation
 * of eigenvectors, for the large-n route of `symEig` (eig.ts).
 *
 * Tridiagonalisation (LAPACK dsytrd/dlatrd; Dongarra, Hammarling & Sorensen 1989): panels of NB
 * reflectors are reduced with level-2 work on the partially updated matrix, and the trailing
 * block then takes the symmetric rank-2NB update A ← A − V·Wᵀ − W·Vᵀ in GEMM. Of the (4/3)n³
 * flops half are in GEMM; the other half are the symmetric matrix-vector products A₂₂·v, one per
 * reflector, memory-bound, which read each entry of the upper triangle once, two rows at a time.
 *
 * Storage is that of eig.ts's unblocked `tridiagonalize`: row-major, upper triangle, reflector k
 * left in row k (v_k[k+1] = 1 implicit, v_k[k+2..] at a[k·n + k+2 ..]), τ_k in tau[k], so the
 * same Q = H₀·H₁···H_{n−3} comes out and `backTransform` applies it.
 */
import { gemmStrided } from './gemm';
import { applyBlockLeft, blockReflectorT, blockWork, householder } from './householder';

/** Reflectors per panel (the inner dimension of the trailing update is 2·NB). */
const NB = 32;
/** Rows per GEMM of the trailing update: blocks right of the diagonal only (upper triangle). */
const ROW_BLOCK = 96;

/**
 * Reduces symmetric a (n×n, row-major; the upper triangle is read) to T = Qᵀ·A·Q: d (n) its
 * diagonal, e[k] (k < n−1) the coupling of k and k+1, reflectors in `a` and `tau` as described
 * above. The lower triangle is left as workspace garbage. (4/3)n³ flops.
 */
export function tridiagonalizeBlocked(
  a: Float64Array,
  n: number,
  d: Float64Array,
  e: Float64Array,
  tau: Float64Array,
): void {
  if (n === 0) return;
  d[0] = a[0]!;
  // Rows 0..NB−1: V_j (reflector j of the panel, zero up to its pivot row), rows NB..2NB−1:
  // W_j; `wv` holds the same two halves swapped, so A −= vwᵀ·wv is the rank-2NB update.
  const vw = new Float64Array(2 * NB * n);
  const wv = new Float64Array(2 * NB * n);
  const p = new Float64Array(n);
  const dots = new Float64Array(2 * NB);
  for (let k0 = 0; k0 < n - 1; k0 += NB) {
    const nb = Math.min(NB, n - 1 - k0);
    vw.fill(0);
    for (let i = 0; i < nb; i++) {
      const k = k0 + i;
      updateRow(a, n, k, i, vw);
      d[k] = a[k * n + k]!;
      e[k] = householder(a, k * n + k + 1, n - k - 1, tau, k);
      const t = tau[k]!;
      const vi = vw.subarray(i * n, (i + 1) * n);
      const wi = vw.subarray((NB + i) * n, (NB + i + 1) * n);
      vi[k + 1] = 1;
      for (let c = k + 2; c < n; c++) vi[c] = a[k * n + c]!;
      if (t === 0) continue;
      // p = (A₂₂ − V·Wᵀ − W·Vᵀ)·v over indices k+1..n−1, A₂₂ as at the panel's start.
      symvUpper(a, n, k + 1, vi, p);
      for (let j = 0; j < i; j++) {
        const vj = (j * n) | 0;
        const wj = ((NB + j) * n) | 0;
        let sv = 0;
        let sw = 0;
        for (let c = k + 1; c < n; c++) {
          sv += vw[vj + c]! * vi[c]!;
          sw += vw[wj + c]! * vi[c]!;
        }
        dots[j] = sw;
        dots[NB + j] = sv;
      }
      for (let j = 0; j < i; j++) {
        const vj = (j * n) | 0;
        const wj = ((NB + j) * n) | 0;
        const sw = dots[j]!;
        const sv = dots[NB + j]!;
        for (let c = k + 1; c < n; c++) p[c]! -= vw[vj + c]! * sw + vw[wj + c]! * sv;
      }
      // w = τ·p − ½τ²(pᵀv)·v.
      let pv = 0;
      for (let c = k + 1; c < n; c++) pv += p[c]! * vi[c]!;
      const alpha = -0.5 * t * t * pv;
      for (let c = k + 1; c < n; c++) wi[c] = t * p[c]! + alpha * vi[c]!;
    }
    const k1 = k0 + nb;
    if (k1 >= n - 1) {
      // The last panel: row n−1 (the last diagonal entry) takes its update here.
      updateRow(a, n, n - 1, nb, vw);
      d[n - 1] = a[(n - 1) * n + n - 1]!;
      break;
    }
    trailingUpdate(a, n, k1, nb, vw, wv);
  }
}

/**
 * Row k of the panel (its i earlier reflectors in vw): a[k, k..] −= Σ_j V_j[k]·W_j[k..] +
 * W_j[k]·V_j[k..], so that row k is up to date before its reflector is formed (dlatrd).
 */
function updateRow(a: Float64Array, n: number, k: number, i: number, vw: Float64Array): void {
  const r = k * n;
  for (let j = 0; j < i; j++) {
    const vj = j * n;
    const wj = (NB + j) * n;
    const vk = vw[vj + k]!;
    const wk = vw[wj + k]!;
    for (let c = k; c < n; c = (c + 1) | 0) a[r + c]! -= vk * vw[wj + c]! + wk * vw[vj + c]!;
  }
}

/**
 * p[from..n) = S·u for the symmetric S = a[from.., from..] stored in its upper triangle: entry
 * a_ij (j > i) contributes a_ij·u_j to p_i and a_ij·u_i to p_j. Four rows at a time, so each
 * load of u_j and p_j serves four entries; every entry is read once. 4 flops per entry.
 */
function symvUpper(
  a: Float64Array,
  n: number,
  from: number,
  u: Float64Array,
  p: Float64Array,
): void {
  p.fill(0, from, n);
  let i = from;
  for (; i + 3 < n; i += 4) {
    const r0 = i * n;
    const r1 = r0 + n;
    const r2 = r1 + n;
    const r3 = r2 + n;
    const u0 = u[i]!;
    const u1 = u[i + 1]!;
    const u2 = u[i + 2]!;
    const u3 = u[i + 3]!;
    // The 4×4 diagonal block, from its upper triangle.
    const a01 = a[r0 + i + 1]!;
    const a02 = a[r0 + i + 2]!;
    const a03 = a[r0 + i + 3]!;
    const a12 = a[r1 + i + 2]!;
    const a13 = a[r1 + i + 3]!;
    const a23 = a[r2 + i + 3]!;
    let acc0 = a[r0 + i]! * u0 + a01 * u1 + a02 * u2 + a03 * u3;
    let acc1 = a01 * u0 + a[r1 + i + 1]! * u1 + a12 * u2 + a13 * u3;
    let acc2 = a02 * u0 + a12 * u1 + a[r2 + i + 2]! * u2 + a23 * u3;
    let acc3 = a03 * u0 + a13 * u1 + a23 * u2 + a[r3 + i + 3]! * u3;
    for (let j = i + 4; j < n; j = (j + 1) | 0) {
      const x0 = a[(r0 + j) | 0]!;
      const x1 = a[(r1 + j) | 0]!;
      const x2 = a[(r2 + j) | 0]!;
      const x3 = a[(r3 + j) | 0]!;
      const uj = u[j]!;
      acc0 += x0 * uj;
      acc1 += x1 * uj;
      acc2 += x2 * uj;
      acc3 += x3 * uj;
      p[j]! += x0 * u0 + x1 * u1 + (x2 * u2 + x3 * u3);
    }
    p[i]! += acc0;
    p[i + 1]! += acc1;
    p[i + 2]! += acc2;
    p[i + 3]! += acc3;
  }
  for (; i < n; i++) {
    const r = i * n;
    const ui = u[i]!;
    let acc = a[r + i]! * ui;
    for (let j = i + 1; j < n; j++) {
      const x = a[r + j]!;
      acc += x * u[j]!;
      p[j]! += x * ui;
    }
    p[i]! += acc;
  }
}

/**
 * A[k1.., k1..] −= V·Wᵀ + W·Vᵀ over the upper triangle: with L = [V W] and R = [W V] (both
 * n×2nb, stored transposed in vw and wv), each block of ROW_BLOCK rows takes
 * A[r0..r1, r0..n) −= L[r0..r1]·R[r0..n)ᵀ, one GEMM of inner dimension 2nb. The lower part of
 * the diagonal blocks is written too and is never read.
 */
function trailingUpdate(
  a: Float64Array,
  n: number,
  k1: number,
  nb: number,
  vw: Float64Array,
  wv: Float64Array,
): void {
  // Pack the 2nb rows of L and R contiguously: L rows 0..nb−1 = V, nb..2nb−1 = W.
  const L = vw;
  if (nb < NB) L.copyWithin(nb * n, NB * n, (NB + nb) * n);
  wv.set(L.subarray(nb * n, 2 * nb * n), 0);
  wv.set(L.subarray(0, nb * n), nb * n);
  for (let r0 = k1; r0 < n; r0 += ROW_BLOCK) {
    const rows = Math.min(ROW_BLOCK, n - r0);
    gemmStrided(
      rows,
      n - r0,
      2 * nb,
      -1,
      { data: L, offset: r0, ld: n },
      true,
      { data: wv, offset: r0, ld: n },
      false,
      1,
      { data: a, offset: r0 * n + r0, ld: n },
    );
  }
}

/** Reflectors per block of the back-transformation (its GEMMs' inner dimension). */
const NB_Q = 128;

/**
 * z (n×cols, row-major) ← Q·z with Q = H₀·H₁···H_{n−3} from the reflectors in `a` and `tau`
 * (dormtr): blocks of NB_Q reflectors, the last block first, each applied from the left as
 * I − Y·T·Yᵀ (compact WY) to rows k0+1..n−1 of z by three GEMMs. 2n²·cols flops.
 */
export function backTransform(
  a: Float64Array,
  n: number,
  tau: Float64Array,
  z: Float64Array,
  cols: number,
): void {
  if (n < 3 || cols === 0) return;
  const yt = new Float64Array(NB_Q * n);
  const t = new Float64Array(NB_Q * NB_Q);
  const work = blockWork(NB_Q, Math.max(n, cols));
  const last = n - 2; // reflectors 0..n−3 act; H_{n−2} has length 1 (τ = 0)
  for (let k1 = last; k1 > 0;) {
    const k0 = Math.max(0, k1 - NB_Q);
    const nb = k1 - k0;
    const s = n - k0 - 1;
    yt.fill(0, 0, nb * s);
    for (let j = 0; j < nb; j++) {
      const k = k0 + j;
      yt[j * s + j] = 1;
      for (let g = k + 2; g < n; g++) yt[j * s + g - k0 - 1] = a[k * n + g]!;
    }
    blockReflectorT(yt, s, nb, tau, k0, t);
    applyBlockLeft({ data: z, offset: (k0 + 1) * cols, ld: cols }, s, cols, yt, nb, t, work);
    k1 = k0;
  }
}
