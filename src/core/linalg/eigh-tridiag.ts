/**
 * Blocked Householder tridiagonalisation of a dense symmetric matrix and the back-transformation
 * of eigenvectors, for the large-n route of `symEig` (eig.ts).
 *
 * Tridiagonalisation (LAPACK dsytrd/dlatrd; Dongarra, Hammarling & Sorensen 1989): panels of NB
 * reflectors are reduced with level-2 work on the partially updated matrix, and the trailing
 * block then takes the symmetric rank-2NB update A ← A − V·Wᵀ − W·Vᵀ in GEMM. Of the (4/3)n³
 * flops half are in GEMM; the other half are the symmetric matrix-vector products A₂₂·v, one per
 * reflector, memory-bound, which read each entry of the upper triangle once (symv-kernel.ts: wasm SIMD
 * with the matrix resident in module memory for the whole reduction, or TypeScript). The panel's
 * own level-2 work per reflector (row update, Vᵀv, Wᵀv and p's correction) runs in the same
 * module on the panel kept there, with the bits of this file's loops.
 *
 * Storage is that of eig.ts's unblocked `tridiagonalize`: row-major, upper triangle, reflector k
 * left in row k (v_k[k+1] = 1 implicit, v_k[k+2..] at a[k·n + k+2 ..]), τ_k in tau[k], so the
 * same Q = H₀·H₁···H_{n−3} comes out and `backTransform` applies it.
 */
import { gemmStrided } from './gemm';
import { applyBlockLeft, blockReflectorT, blockWork, householder } from './householder';
import { type SymvWorkspace, symvUpper, symvWorkspace, trimSymvMemory } from './symv-kernel';

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
  // With the wasm kernel the matrix is reduced in place in the module's memory (symv-kernel.ts)
  // and copied back at the end; otherwise in `a` with the TypeScript product.
  const ws = symvWorkspace(n, NB);
  if (ws) {
    ws.a.set(a.subarray(0, n * n));
    reduce(ws.a, n, d, e, tau, ws);
    a.set(ws.a);
    trimSymvMemory();
  } else reduce(a, n, d, e, tau, null);
}

function reduce(
  a: Float64Array,
  n: number,
  d: Float64Array,
  e: Float64Array,
  tau: Float64Array,
  ws: SymvWorkspace | null,
): void {
  d[0] = a[0]!;
  // Rows 0..NB−1: V_j (reflector j of the panel, zero up to its pivot row), rows NB..2NB−1:
  // W_j; `wv` holds the same two halves swapped, so A −= vwᵀ·wv is the rank-2NB update.
  const vw = ws ? ws.vw : new Float64Array(2 * NB * n);
  const wv = new Float64Array(2 * NB * n);
  const p = ws ? ws.p : new Float64Array(n);
  const dots = new Float64Array(2 * NB);
  for (let k0 = 0; k0 < n - 1; k0 += NB) {
    const nb = Math.min(NB, n - 1 - k0);
    vw.fill(0);
    for (let i = 0; i < nb; i++) {
      const k = k0 + i;
      if (ws) ws.panelRow(k, i);
      else updateRow(a, n, k, i, vw);
      d[k] = a[k * n + k]!;
      e[k] = householder(a, k * n + k + 1, n - k - 1, tau, k);
      const t = tau[k]!;
      const vi = vw.subarray(i * n, (i + 1) * n);
      const wi = vw.subarray((NB + i) * n, (NB + i + 1) * n);
      vi[k + 1] = 1;
      for (let c = k + 2; c < n; c++) vi[c] = a[k * n + c]!;
      if (t === 0) continue;
      // p = (A₂₂ − V·Wᵀ − W·Vᵀ)·v over indices k+1..n−1, A₂₂ as at the panel's start.
      if (ws) {
        ws.u.set(vi.subarray(k + 1, n), k + 1);
        ws.run(k + 1);
        ws.panelDots(i, k + 1);
        ws.panelP(i, k + 1);
      } else {
        symvUpper(a, n, k + 1, vi, p);
        panelP(vw, n, k, i, p, dots);
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
      if (ws) ws.panelRow(n - 1, nb);
      else updateRow(a, n, n - 1, nb, vw);
      d[n - 1] = a[(n - 1) * n + n - 1]!;
      break;
    }
    trailingUpdate(a, n, k1, nb, vw, wv);
  }
}

/**
 * p[k+1..n) −= V·(Wᵀv_i) + W·(Vᵀv_i) over the panel's first i reflectors (v_i = row i of vw):
 * dots[j] = Σ_c W_j[c]·v_i[c] and dots[NB+j] = Σ_c V_j[c]·v_i[c], each from 0 in order of c, then
 * p_c ← p_c − (V_j[c]·dots[j] + W_j[c]·dots[NB+j]) for j = 0 … i−1 in turn (the wasm kernels of
 * `SymvWorkspace` do the same operations).
 */
function panelP(
  vw: Float64Array,
  n: number,
  k: number,
  i: number,
  p: Float64Array,
  dots: Float64Array,
): void {
  const vi = i * n;
  for (let j = 0; j < i; j++) {
    const vj = (j * n) | 0;
    const wj = ((NB + j) * n) | 0;
    let sv = 0;
    let sw = 0;
    for (let c = k + 1; c < n; c++) {
      sv += vw[vj + c]! * vw[vi + c]!;
      sw += vw[wj + c]! * vw[vi + c]!;
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

/**
 * Reflectors per block of the back-transformation (its GEMMs' inner dimension) for an order-n
 * reduction: forming a block's triangular factor T costs about nb·n² flops in all, against the
 * 2n²·cols of the GEMMs, so a wide block pays only from several hundred rows on, where the
 * GEMMs gain from the deeper inner dimension.
 */
const nbQ = (n: number): number => (n <= 512 ? 32 : 128);

/**
 * z (n×cols, row-major) ← Q·z with Q = H₀·H₁···H_{n−3} from the reflectors in `a` and `tau`
 * (dormtr): blocks of nbQ(n) reflectors, the last block first, each applied from the left as
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
  const width = nbQ(n);
  const yt = new Float64Array(width * n);
  const t = new Float64Array(width * width);
  const work = blockWork(width, Math.max(n, cols));
  const last = n - 2; // reflectors 0..n−3 act; H_{n−2} has length 1 (τ = 0)
  for (let k1 = last; k1 > 0;) {
    const k0 = Math.max(0, k1 - width);
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
