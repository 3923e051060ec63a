/**
 * Kernels of a view that lacks some samples. With P = present (n_v,) the view's samples and
 * X_P (n_v, d) their rows, only the block K_PP = κ(X_P, X_P) (n_v, n_v) is known. The n × n
 * form puts it at its samples and fills the rest by a stated rule:
 *
 *   K[P_r, P_s] = K_PP[r, s];   every other entry (a row or column of a missing sample) = f,
 *
 * with f = 0 (MKKM-IK's and EEIMVC's start: "the observed block with zeros elsewhere", i.e.
 * K = G_vᵀ·K_PP·G_v) or f = the mean entry of K_PP ('mean'). A method that then imputes the
 * missing blocks (MKKM-IK) reads and writes them through `kernelBlock` and `setKernelBlock`.
 */
import type { View } from '../dataset';
import type { Mat } from '../linalg/types';
import { checkPresent, denseRows } from '../views/present';
import { kernelMatrix, type KernelResult, type KernelSpec } from './gram';

/** K_PP (n_v, n_v): the kernel among the view's present samples, in `present` order. */
export function presentKernel(view: View, spec: KernelSpec): KernelResult {
  return kernelMatrix(denseRows(view), spec);
}

/** The n × n kernel of the file comment from K_PP (n_v, n_v). O(n²). */
export function expandKernel(
  Kpp: Mat,
  present: Int32Array,
  n: number,
  fill: number | 'mean' = 0,
): Mat {
  const m = present.length;
  if (Kpp.rows !== m || Kpp.cols !== m) {
    throw new RangeError(`expandKernel: K_PP is ${Kpp.rows}x${Kpp.cols} for ${m} present samples`);
  }
  checkPresent(present, n);
  let f = fill;
  if (f === 'mean') {
    let s = 0;
    for (let i = 0; i < m * m; i++) s += Kpp.data[i]!;
    f = m > 0 ? s / (m * m) : 0;
  }
  const data = new Float64Array(n * n);
  if (f !== 0) data.fill(f);
  const out = { rows: n, cols: n, data };
  setKernelBlock(out, present, present, Kpp);
  return out;
}

/** K[rows, cols] (|rows|, |cols|): a block of K (e.g. K_cc, K_cm of observed and missing). */
export function kernelBlock(K: Mat, rows: Int32Array, cols: Int32Array): Mat {
  const a = rows.length;
  const b = cols.length;
  const data = new Float64Array(a * b);
  const n = K.cols;
  for (let r = 0; r < a; r++) {
    const o = rows[r]! * n;
    for (let s = 0; s < b; s++) data[r * b + s] = K.data[o + cols[s]!]!;
  }
  return { rows: a, cols: b, data };
}

/** K[rows, cols] = B (|rows|, |cols|), in place: the inverse of `kernelBlock`. */
export function setKernelBlock(K: Mat, rows: Int32Array, cols: Int32Array, B: Mat): void {
  const a = rows.length;
  const b = cols.length;
  if (B.rows !== a || B.cols !== b) {
    throw new RangeError(`setKernelBlock: B is ${B.rows}x${B.cols}, expected ${a}x${b}`);
  }
  const n = K.cols;
  for (let r = 0; r < a; r++) {
    const o = rows[r]! * n;
    for (let s = 0; s < b; s++) K.data[o + cols[s]!] = B.data[r * b + s]!;
  }
}
