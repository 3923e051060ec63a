/** k-means++ seeding (MATLAB's 'plus', see kmeans.ts) and the first assignment. */
import type { Rng } from '../random';
import { updateDistances } from './kmeans-passes';
import type { Work } from './kmeans-work';

/**
 * D[:, j] := ‖x_i − c_j‖² and minDist[i] := min(minDist[i], D[i, j]) for every row; returns
 * Σ_i minDist[i] (assignAll reuses the column). The column comes from `updateDistances`.
 */
function lowerToCentre(w: Work, j: number, minDist: Float64Array): number {
  const { D, k, changed } = w;
  // D[:, j] by the distance kernel (one centre: its 4-rows × 1-centre block).
  changed[0] = j;
  updateDistances(w, 1, false);
  let total = 0;
  for (let i = 0; i < w.X.rows; i++) {
    const s = D[i * k + j]!;
    if (s < minDist[i]!) minDist[i] = s;
    total += minDist[i]!;
  }
  return total;
}

/**
 * k-means++ seeding of w.C (see the file comment); O(n·k·d). Returns how many leading columns
 * of D it left exact (k − 1, or fewer when it fell back to uniform picks).
 */
export function seedPlusPlus(w: Work, rng: Rng): number {
  const { X, k, C } = w;
  const { rows: n, cols: d, data } = X;
  const take = (j: number, i: number): void => C.set(data.subarray(i * d, (i + 1) * d), j * d);
  take(0, rng.int(n));
  const minDist = w.minDist.fill(Infinity);
  for (let j = 1; j < k; j++) {
    const total = lowerToCentre(w, j - 1, minDist);
    if (!(total > 0 && Number.isFinite(total))) {
      // Fewer distinct rows than k: the remaining centres are distinct rows, uniformly.
      const idx = Int32Array.from({ length: n }, (_, i) => i);
      for (let q = j; q < k; q++) {
        const r = q - j + rng.int(n - (q - j));
        [idx[q - j], idx[r]] = [idx[r]!, idx[q - j]!];
        take(q, idx[q - j]!);
      }
      return j;
    }
    take(j, drawRow(minDist, n, rng.next() * total));
  }
  return Math.max(0, k - 1);
}

/**
 * The row i whose cumulative weight Σ_{i' ≤ i} minDist first exceeds u (rows of weight 0
 * skipped; the last row of positive weight should rounding leave the sum ≤ u). A function of
 * its own so V8 optimises this loop once rather than recompiling `seedPlusPlus` around it.
 */
function drawRow(minDist: Float64Array, n: number, u: number): number {
  let chosen = -1;
  let cum = 0;
  for (let i = 0; i < n; i++) {
    if (minDist[i]! === 0) continue;
    chosen = i;
    cum += minDist[i]!;
    if (cum > u) break;
  }
  return chosen;
}

/**
 * Nearest-centre labels for the current centres (ties: lowest index), D filled for all. The
 * first `known` columns of D are already exact (k-means++ computed them while seeding).
 */
export function assignAll(w: Work, known = 0): void {
  for (let j = known; j < w.k; j++) w.changed[j - known] = j;
  updateDistances(w, w.k - known, false);
  const { k, D, labels } = w;
  for (let i = 0; i < w.X.rows; i++) {
    let best = 0;
    for (let j = 1; j < k; j++) if (D[i * k + j]! < D[i * k + best]!) best = j;
    labels[i] = best;
  }
}
