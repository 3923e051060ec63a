/**
 * Between all n samples of a dataset and the n_v samples a view holds. A view's `present`
 * (n_v,) lists its samples, sorted and distinct; its values are the rows of those samples in
 * that order (core/dataset.ts). The indicator matrix of the literature is
 *
 *   G_v: (n_v, n),  (G_v)_{r, i} = 1 if i = present[r], else 0,
 *
 * so G_v·M gathers the present rows of an n-row M, G_vᵀ·Y scatters a view's rows back to n
 * rows (zeros elsewhere) and G_v·G_vᵀ = I. The methods only ever multiply by G_v, so it is kept
 * in its index form (`present` itself) and the products are row copies (linalg/rows.ts); the
 * dense matrix is built only where a test or a small fixture wants it.
 */
import type { View } from '../dataset';
import { gatherRows, scatterRows } from '../linalg/rows';
import type { Mat } from '../linalg/types';

/** Throws unless `present` is sorted, distinct and inside 0..n−1. O(n_v). */
export function checkPresent(present: Int32Array, n: number): void {
  for (let r = 0; r < present.length; r++) {
    const i = present[r]!;
    if (!(i >= 0 && i < n) || (r > 0 && i <= present[r - 1]!)) {
      throw new RangeError(
        `present[${r}] = ${i}: indices must be sorted, distinct and in 0..${n - 1}`,
      );
    }
  }
}

/** The dense indicator G_v (n_v, n) of `present` (see the file comment). O(n_v·n) memory. */
export function indicatorMatrix(present: Int32Array, n: number): Mat {
  checkPresent(present, n);
  const m = present.length;
  const data = new Float64Array(m * n);
  for (let r = 0; r < m; r++) data[r * n + present[r]!] = 1;
  return { rows: m, cols: n, data };
}

/** A 0/1 flag per sample (n,): 1 where the sample is in `present`. */
export function presenceMask(present: Int32Array, n: number): Uint8Array {
  checkPresent(present, n);
  const mask = new Uint8Array(n);
  for (let r = 0; r < present.length; r++) mask[present[r]!] = 1;
  return mask;
}

/** The samples of 0..n−1 not in `present`, ascending (n − n_v,): UEAF's and MKKM-IK's "m" set. */
export function missingIndex(present: Int32Array, n: number): Int32Array {
  const mask = presenceMask(present, n);
  const out = new Int32Array(n - present.length);
  let q = 0;
  for (let i = 0; i < n; i++) if (!mask[i]) out[q++] = i;
  return out;
}

/**
 * The sample × view presence matrix A (n, V): A_iv = 1 if sample i is in view v, else 0 (the
 * specs' `ind`), from each view's `present` (for a solver whose views the protocol filled,
 * the `observed` lists of its input). A dense Mat, so weighted sums over views are products.
 */
export function presenceMatrix(n: number, presents: readonly Int32Array[]): Mat {
  const V = presents.length;
  const data = new Float64Array(n * V);
  presents.forEach((present, v) => {
    checkPresent(present, n);
    for (let r = 0; r < present.length; r++) data[present[r]! * V + v] = 1;
  });
  return { rows: n, cols: V, data };
}

/** G_v·M: the present rows of M (n, c) → (n_v, c). */
export function gatherPresent(M: Mat, present: Int32Array): Mat {
  checkPresent(present, M.rows);
  return gatherRows(M, present);
}

/**
 * A view's rows Y (n_v, c) put back at their samples → (n, c); a missing sample's row is
 * `fill`: a number for every entry, or a row (c,) copied to each missing sample (e.g. the
 * view's mean, solvers/impute.ts). `fill` = 0 gives G_vᵀ·Y.
 */
export function scatterPresent(
  Y: Mat,
  present: Int32Array,
  n: number,
  fill: number | Float64Array = 0,
): Mat {
  if (Y.rows !== present.length) {
    throw new RangeError(`scatterPresent: ${Y.rows} rows for ${present.length} present samples`);
  }
  checkPresent(present, n);
  if (typeof fill === 'number') return scatterRows(Y, present, n, fill);
  if (fill.length !== Y.cols) {
    throw new RangeError(`scatterPresent: the fill row has ${fill.length} entries, not ${Y.cols}`);
  }
  const out = scatterRows(Y, present, n);
  const c = Y.cols;
  let r = 0;
  for (let i = 0; i < n; i++) {
    if (r < present.length && present[r] === i) r++;
    else out.data.set(fill, i * c);
  }
  return out;
}

/**
 * The view's values (n_v, d) as a dense row-major matrix: a dense view's own data (not a copy),
 * a CSR view densified into a new array. O(n_v·d).
 */
export function denseRows(view: View): Mat {
  const vals = view.values;
  if (vals.kind === 'dense') return { rows: vals.rows, cols: vals.cols, data: vals.data };
  const { rows, cols } = vals;
  const data = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    for (let p = vals.indptr[r]!; p < vals.indptr[r + 1]!; p++) {
      data[r * cols + vals.indices[p]!] = vals.data[p]!;
    }
  }
  return { rows, cols, data };
}
