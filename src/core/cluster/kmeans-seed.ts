/** k-means++ seeding (MATLAB's 'plus', see kmeans.ts) and the first assignment. */
import type { Rng } from '../random';
import { updateDistances } from './kmeans-passes';
import { sqDist, type Work } from './kmeans-work';

/**
 * Margin of the triangle-inequality skip: row i cannot come closer to a new centre c_j than to
 * its nearest chosen centre c_q when ‖c_j − c_q‖ ≥ 2‖x_i − c_q‖, i.e. ‖c_j − c_q‖² ≥ 4·minDist[i]
 * (Elkan, ICML 2003, lemma 1); a row is skipped only when that holds by this factor (relative,
 * ≫ the (d + 3)·ε rounding of each exact-difference value), so its computed distance would have
 * been strictly larger and `minDist` keeps the same bits.
 */
const SKIP = 1 + 1e-8;

/**
 * Share of the rows left by the skip above which the whole column goes to the distance kernel
 * (SIMD, several rows per pass) rather than row by row here: a cost estimate (the kernel's
 * distance costs several times less than this loop's), results never depend on it.
 */
const COLUMN_SHARE = 1 / 8;

/**
 * Lowers minDist and the nearest chosen centre (w.labels, the first on ties, as the strict
 * `<`) with centre j for every row, skipping the rows whose nearest centre q has
 * ‖c_j − c_q‖² > 4·minDist[i] (see SKIP): exactly what computing every distance would give.
 * The rest are computed one by one, or as the whole column by the distance kernel when they
 * are more than COLUMN_SHARE of the rows. Returns Σ_i minDist[i], summed in row order.
 */
function lowerToCentre(w: Work, j: number, minDist: Float64Array): number {
  const { D, k, changed, C, X, labels, row } = w;
  const { rows: n, cols: d, data } = X;
  // row[q] = ‖c_j − c_q‖² / 4 for the chosen centres q < j (no row is near an unchosen one).
  for (let q = 0; q < j; q++) row[q] = (sqDist(C, j, C, q, d) / 4) * (1 - 1e-12);
  let near = 0;
  for (let i = 0; i < n; i++) if (j === 0 || row[labels[i]!]! <= minDist[i]! * SKIP) near++;
  if (near > COLUMN_SHARE * n) {
    changed[0] = j;
    updateDistances(w, 1, false);
    for (let i = 0; i < n; i++) {
      const s = D[i * k + j]!;
      if (s < minDist[i]!) {
        minDist[i] = s;
        labels[i] = j;
      }
    }
  } else {
    for (let i = 0; i < n; i++) {
      if (row[labels[i]!]! > minDist[i]! * SKIP) continue;
      const s = sqDist(data, i, C, j, d);
      if (s < minDist[i]!) {
        minDist[i] = s;
        labels[i] = j;
      }
    }
  }
  let total = 0;
  for (let i = 0; i < n; i++) total += minDist[i]!;
  return total;
}

/**
 * k-means++ seeding of w.C (see the file comment); O(n·k·d) at worst, far less on clustered data
 * (the triangle-inequality skip of `lowerToCentre`). The draws are MATLAB's: the same stream
 * use and the same rows as computing every distance. Returns true when it also left w.labels
 * the nearest-centre assignment (as `assignAll`); false after the uniform fallback.
 */
export function seedPlusPlus(w: Work, rng: Rng): boolean {
  const { X, k, C } = w;
  const { rows: n, cols: d, data } = X;
  const take = (j: number, i: number): void => C.set(data.subarray(i * d, (i + 1) * d), j * d);
  take(0, rng.int(n));
  const minDist = w.minDist.fill(Infinity);
  w.labels.fill(0);
  for (let j = 1; j <= k; j++) {
    const total = lowerToCentre(w, j - 1, minDist);
    if (j === k) return true;
    if (!(total > 0 && Number.isFinite(total))) {
      takeDistinctRows(n, j, k, rng, take);
      return false;
    }
    take(j, drawRow(minDist, n, rng.next() * total));
  }
  return true;
}

/**
 * Fewer distinct rows than k: centres j..k−1 become distinct rows drawn uniformly (a partial
 * Fisher–Yates shuffle of 0..n−1), each handed to `take(centre, row)`.
 */
export function takeDistinctRows(
  n: number,
  j: number,
  k: number,
  rng: Rng,
  take: (centre: number, row: number) => void,
): void {
  const idx = Int32Array.from({ length: n }, (_, i) => i);
  for (let q = j; q < k; q++) {
    const r = q - j + rng.int(n - (q - j));
    [idx[q - j], idx[r]] = [idx[r]!, idx[q - j]!];
    take(q, idx[q - j]!);
  }
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

/** Nearest-centre labels for the current centres (ties: lowest index), D filled for all. */
export function assignAll(w: Work): void {
  for (let j = 0; j < w.k; j++) w.changed[j] = j;
  updateDistances(w, w.k, false);
  const { k, D, labels } = w;
  for (let i = 0; i < w.X.rows; i++) {
    let best = 0;
    for (let j = 1; j < k; j++) if (D[i * k + j]! < D[i * k + best]!) best = j;
    labels[i] = best;
  }
}
