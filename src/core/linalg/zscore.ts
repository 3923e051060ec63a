/**
 * Per-row standardisation of a row-major matrix (samples in rows): the z-score many graph
 * methods apply to each sample before measuring distances.
 */
import type { Mat } from './types';

/**
 * Each row of X (n, d) z-scored over its d entries: (x_ij − mean_i)/sd_i with the sample standard
 * deviation (N − 1; d = 1 gives 0), and sd_i = 0 replaced by eps = 2⁻⁵² (MATLAB's eps, as the CGL
 * reference's `zscore` of each sample), so a constant row is not divided by zero. → (n, d). O(nd).
 */
export function zscoreRows(X: Mat): Mat {
  const { rows, cols } = X;
  const data = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) {
    const o = i * cols;
    let mean = 0;
    for (let j = 0; j < cols; j++) mean += X.data[o + j]!;
    mean /= cols;
    let ss = 0;
    for (let j = 0; j < cols; j++) ss += (X.data[o + j]! - mean) ** 2;
    let sd = cols > 1 ? Math.sqrt(ss / (cols - 1)) : 0;
    if (sd === 0) sd = Number.EPSILON;
    for (let j = 0; j < cols; j++) data[o + j] = (X.data[o + j]! - mean) / sd;
  }
  return { rows, cols, data };
}
