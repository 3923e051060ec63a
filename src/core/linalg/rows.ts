/**
 * Row gather, scatter and column concatenation of row-major matrices: what permutations, sample
 * subsets and view stacking need. Each copies whole rows with `set` (one contiguous block per
 * row), O(rows·cols) time, and allocates only its output. Plus the squared row norms every
 * distance expansion ‖x‖² + ‖y‖² − 2x·y starts from.
 */
import type { Mat } from './types';

/**
 * Rows picked by index: out[i, :] = M[index[i], :].
 * M: (r, c), index: (m,) with values in 0..r−1 → (m, c). A permutation reorders the rows.
 */
export function gatherRows(M: Mat, index: Int32Array): Mat {
  const { cols } = M;
  const m = index.length;
  const data = new Float64Array(m * cols);
  for (let i = 0; i < m; i++) {
    const r = index[i]!;
    data.set(M.data.subarray(r * cols, (r + 1) * cols), i * cols);
  }
  return { rows: m, cols, data };
}

/**
 * Rows put at their index: out[index[i], :] = M[i, :], the other rows `fill`.
 * M: (m, c), index: (m,) distinct values in 0..rows−1 → (rows, c); the inverse of gatherRows
 * for a permutation (rows defaults to m).
 */
export function scatterRows(M: Mat, index: Int32Array, rows = M.rows, fill = 0): Mat {
  const { cols } = M;
  const data = new Float64Array(rows * cols);
  if (fill !== 0) data.fill(fill);
  for (let i = 0; i < index.length; i++) {
    const r = index[i]!;
    data.set(M.data.subarray(i * cols, (i + 1) * cols), r * cols);
  }
  return { rows, cols, data };
}

/**
 * Matrices side by side: [M_1 | M_2 | … | M_V], each (r, c_v) → (r, Σ c_v). Throws when the
 * row counts differ.
 */
export function concatColumns(ms: readonly Mat[]): Mat {
  const rows = ms[0]?.rows ?? 0;
  let total = 0;
  for (const M of ms) {
    if (M.rows !== rows) throw new RangeError(`concatColumns: ${M.rows} rows, expected ${rows}`);
    total += M.cols;
  }
  const data = new Float64Array(rows * total);
  let offset = 0;
  for (const M of ms) {
    const c = M.cols;
    for (let i = 0; i < rows; i++)
      data.set(M.data.subarray(i * c, (i + 1) * c), i * total + offset);
    offset += c;
  }
  return { rows, cols: total, data };
}

/** ‖x_i‖² for every row of X (n, d) → (n,), summed left to right. O(nd). */
export function rowSquaredNorms(X: Mat): Float64Array {
  const { rows: n, cols: d, data } = X;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let p = i * d; p < (i + 1) * d; p++) s += data[p]! * data[p]!;
    out[i] = s;
  }
  return out;
}
