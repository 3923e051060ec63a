/**
 * A portable sign convention for eigenvectors (and singular vectors): every solver returns them
 * with an arbitrary sign per column, which matters wherever vectors from different solves are
 * added rather than compared as subspaces (e.g. EEIMVC's late fusion of base partitions).
 */
import type { Mat } from './types';

/**
 * Flips each column of M (rows, cols) in place so that its entry of largest magnitude is
 * positive (the first such entry on ties): a portable sign for eigenvectors. O(rows·cols).
 */
export function fixColumnSigns(M: Mat): void {
  const { rows, cols, data } = M;
  for (let j = 0; j < cols; j++) {
    let best = 0;
    let at = -1;
    for (let i = 0; i < rows; i++) {
      const a = Math.abs(data[i * cols + j]!);
      if (a > best) {
        best = a;
        at = i;
      }
    }
    if (at >= 0 && data[at * cols + j]! < 0) {
      for (let i = 0; i < rows; i++) data[i * cols + j] = -data[i * cols + j]!;
    }
  }
}
