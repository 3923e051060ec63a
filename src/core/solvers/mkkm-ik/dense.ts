/**
 * The dense path of MKKM-IK: the reference's own arithmetic on dense n × n kernels, kept as the
 * ground truth of the operator path (test/core/solvers/mkkm-ik) and as the store of the MKC
 * variant (mkc.ts). Per iteration: KC = Σ_p c_p·K_p formed and symmetrised, its top-k
 * eigenvectors by a dense symmetric eigendecomposition (`eigs(KC, k, 'la')` in the reference),
 * and per incomplete kernel the imputation of `absentKernelImputation.m`:
 *
 *   U = I − HHᵀ,  T = −U_cm·(U_mm + α₀I)⁻¹ (a Cholesky solve),  K_cm = K_cc·T,  K_mm = Tᵀ·K_cm,
 *   K_p = [K_cc K_cm; K_cmᵀ K_mm] symmetrised, + 1e-12·I,
 *
 * with a_p = tr(K_p) − tr(Hᵀ·K_p·H) = tr(K_p·U). O(n³) time and V + 2 n × n arrays.
 */
import { expandKernel, kernelBlock, setKernelBlock } from '../../kernels/incomplete';
import {
  choleskyFactor,
  choleskySolve,
  matmul,
  matmulTB,
  symEigSelect,
} from '../../linalg/kernels';
import { gatherRows } from '../../linalg/rows';
import type { Mat } from '../../linalg/types';
import { JITTER, symmetrise, type KernelEngine, type ObservedKernel } from './mkkm-ik';

/** The dense kernels K_p (n, n), zero-filled at the start (`algorithm2`), and the views. */
export interface DenseStore {
  readonly n: number;
  readonly views: readonly ObservedKernel[];
  readonly K: Mat[];
}

export function denseStore(views: readonly ObservedKernel[], n: number): DenseStore {
  return { n, views, K: views.map((v) => expandKernel(v.K, v.present, n, 0)) };
}

/** Σ_p c_p·K_p (n, n), symmetrised as `mykernelkmeans` does. */
export function combine(store: DenseStore, c: Float64Array): Mat {
  const { n } = store;
  const out = new Float64Array(n * n);
  store.K.forEach((K, p) => {
    const w = c[p]!;
    if (w === 0) return;
    for (let i = 0; i < n * n; i++) out[i]! += w * K.data[i]!;
  });
  symmetrise(out, n);
  return { rows: n, cols: n, data: out };
}

/** Top-k eigenvectors (n, k) of a dense symmetric matrix. */
export function denseTop(KC: Mat, k: number): Mat {
  return symEigSelect(KC, k, 'highest').vectors;
}

/** tr(K·(I − HHᵀ)) = tr(K) − tr(Hᵀ·K·H) for dense K (n, n). */
export function residualTrace(K: Mat, H: Mat): number {
  const n = K.rows;
  let tr = 0;
  for (let i = 0; i < n; i++) tr += K.data[i * n + i]!;
  const KH = matmul(K, H);
  let s = 0;
  for (let i = 0; i < H.data.length; i++) s += H.data[i]! * KH.data[i]!;
  return tr - s;
}

/**
 * A term subtracted from U = I − HHᵀ before the imputation: Σ_q w_q·E_q over dense (n, n)
 * matrices (the MKC option's −λ·Σ_{q≠p} γ_q·K_q, mkc.ts). Absent for MKKM-IK.
 */
export interface ExtraTerm {
  readonly weights: readonly number[];
  readonly matrices: readonly Mat[];
}

/** Σ_q w_q·E_q[rows, cols] (|rows|, |cols|). */
function extraBlock(e: ExtraTerm, rows: Int32Array, cols: Int32Array): Float64Array {
  const out = new Float64Array(rows.length * cols.length);
  e.matrices.forEach((E, q) => {
    const w = e.weights[q]!;
    if (w === 0) return;
    const b = kernelBlock(E, rows, cols).data;
    for (let i = 0; i < out.length; i++) out[i]! += w * b[i]!;
  });
  return out;
}

/**
 * K_p imputed from H in place, the reference's way (file comment), with U = I − HHᵀ − extra
 * when `extra` is given. Throws `NumericalError` when U_mm + α₀I is not positive definite
 * (only possible with `extra`).
 */
export function imputeDense(
  store: DenseStore,
  p: number,
  H: Mat,
  alpha0: number,
  extra?: ExtraTerm,
): void {
  const v = store.views[p]!;
  const { n } = store;
  const c = v.present;
  const m = v.missing;
  const Hc = gatherRows(H, c);
  const Hm = gatherRows(H, m);
  // U_mm + α₀I = (1 + α₀)I − H_m·H_mᵀ (symmetrised); U_cm = −H_c·H_mᵀ.
  const A = matmulTB(Hm, Hm);
  const nm = m.length;
  for (let i = 0; i < nm * nm; i++) A.data[i] = -A.data[i]!;
  for (let i = 0; i < nm; i++) A.data[i * nm + i]! += 1 + alpha0;
  // Tᵀ = (U_mm + α₀I)⁻¹·(−U_mc) = (U_mm + α₀I)⁻¹·H_m·H_cᵀ  (n_m, n_c).
  const B = matmulTB(Hm, Hc);
  if (extra) {
    const emm = extraBlock(extra, m, m);
    for (let i = 0; i < emm.length; i++) A.data[i]! -= emm[i]!;
    const emc = extraBlock(extra, m, c);
    for (let i = 0; i < emc.length; i++) B.data[i]! += emc[i]!;
  }
  symmetrise(A.data, nm);
  const Tt = choleskySolve(choleskyFactor(A), B);
  const Kcm = matmulTB(v.K, Tt); // K_cc·T (n_c, n_m)
  const Kmm = matmul(Tt, Kcm); // Tᵀ·K_cc·T (n_m, n_m)
  const K = store.K[p]!;
  setKernelBlock(K, c, c, v.K);
  setKernelBlock(K, c, m, Kcm);
  setKernelBlock(K, m, c, transpose(Kcm));
  setKernelBlock(K, m, m, Kmm);
  symmetrise(K.data, n);
  for (let i = 0; i < n; i++) K.data[i * n + i]! += JITTER;
}

function transpose(A: Mat): Mat {
  const out = new Float64Array(A.data.length);
  for (let i = 0; i < A.rows; i++)
    for (let j = 0; j < A.cols; j++) out[j * A.rows + i] = A.data[i * A.cols + j]!;
  return { rows: A.cols, cols: A.rows, data: out };
}

/** The dense path as a kernel store for the MKKM-IK loop. */
export function denseEngine(store: DenseStore, alpha0: number): KernelEngine {
  return {
    top: (c, k) => denseTop(combine(store, c), k),
    impute(H) {
      return Float64Array.from(store.K, (K, p) => {
        if (store.views[p]!.missing.length > 0) imputeDense(store, p, H, alpha0);
        return residualTrace(K, H);
      });
    },
  };
}
