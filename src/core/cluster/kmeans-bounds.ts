/**
 * Hamerly's bounds (SDM 2010) for the Lloyd scan (kmeans.ts): a row whose lower bound on every
 * other centre's distance beats its own distance is not rescanned.
 */
import { hamerlyScan, hamerlySplitScan } from './hamerly-kernel';
import { sqDist, type Work } from './kmeans-work';

/**
 * Slack for the pruning bounds. A squared distance computed by exact differences is within
 * (d + 3)·ε relative of the true one (each x − c is one rounding, then d products and sums), so
 * every bound is loosened by BOUND_SLACK (relative; ≫ (d + 3)·ε for any d below 10⁵) and a
 * row is skipped only when its bound beats its own distance by SKIP_MARGIN (relative).
 */
export const BOUND_SLACK = 1e-10;
export const SKIP_MARGIN = 1e-9;

/** lower[i] := √(min over j ≠ labels(i) of D[i, j]), D exact for the current centres. */
export function initBounds(w: Work): void {
  const { k, D, labels, lower } = w;
  for (let i = 0; i < w.X.rows; i++) {
    const a = labels[i]!;
    let second = Infinity;
    for (let j = 0; j < k; j++) if (j !== a && D[i * k + j]! < second) second = D[i * k + j]!;
    lower[i] = Math.sqrt(second * (1 - BOUND_SLACK));
  }
}

/**
 * The reassignment scan with Hamerly's bounds (Hamerly, "Making k-means even faster", SDM
 * 2010), giving exactly what the full scan gives: for every row the own distance is computed
 * as always (it is the SSE's term); the other centres are skipped when a lower bound on their
 * distance, max(lower[i], 2·half[a] − √own), beats √own with margin, since then none of them
 * can be strictly closer (the full scan's condition to move). Otherwise all distances are
 * computed and the row is scanned as in `scanRows`; its bound is then reset to the second
 * smallest distance. Bounds follow the centres: lower[i] drops by the largest move of a centre
 * other than its own (with slack). Sets w.unskipped to the rows not skipped. The per-row loop
 * runs fused on WebAssembly SIMD where available (hamerly-kernel.ts, the same bits; its rows
 * split with a helper thread when w.pool is set), else here.
 */
export function boundedScan(w: Work): void {
  const { X, k, C, prevC, delta, half, lower, labels, row, moveRow, moveTo, nextSums, nextCounts } =
    w;
  const { rows: n, cols: d, data } = X;
  // How far each centre moved, and the two largest moves; half the distance from each centre
  // to its nearest other centre. (Functions of their own, as `drawRow`.)
  const moved = centreMoves(C, prevC, delta, k, d);
  const max1 = moved[0];
  const max2 = moved[1];
  const arg1 = moved[2];
  halfGaps(C, half, k, d);
  const args = { max1, max2, arg1, skipUp: 1 + SKIP_MARGIN, slackUp: 1 + BOUND_SLACK };
  const scanArgs = { ...args, slackDown: 1 - BOUND_SLACK };
  w.unskipped = 0;
  if (hamerlySplitScan(w, scanArgs) || hamerlyScan(w, scanArgs)) return;
  let sse = w.sse;
  let moves = w.moves;
  let unskipped = 0;
  for (let i = 0; i < n; i++) {
    const a = labels[i]!;
    const drop = a === arg1 ? max2 : max1;
    const lo = lower[i]! - drop;
    const own = sqDist(data, i, C, a, d);
    sse += own;
    // bound = max(lo, 2·half[a] − √own) passes when either term does; √own only if needed.
    const need = own * (1 + SKIP_MARGIN);
    let skip = lo > 0 && lo * lo >= need;
    if (!skip) {
      const h = 2 * half[a]! - Math.sqrt(own * (1 + BOUND_SLACK));
      skip = h > 0 && h * h >= need;
    }
    let target = a;
    if (skip) {
      lower[i] = lo;
    } else {
      unskipped++;
      // Every distance, and the full scan's rule: the first minimum, taken when strictly closer.
      rowDistances(data, i, C, k, d, row);
      let best = 0;
      let min = Infinity;
      for (let j = 0; j < k; j++) {
        const dij = row[j]!;
        if (dij < min) {
          min = dij;
          best = j;
        }
      }
      if (min < own) {
        moveRow[moves] = i;
        moveTo[moves++] = best;
        target = best;
      }
      let second = Infinity;
      for (let j = 0; j < k; j++) if (j !== target && row[j]! < second) second = row[j]!;
      lower[i] = Math.sqrt(second * (1 - BOUND_SLACK));
    }
    nextCounts[target]!++;
    const c = target * d;
    const x = i * d;
    for (let p = 0; p < d; p++) nextSums[c + p]! += data[x + p]!;
  }
  w.sse = sse;
  w.moves = moves;
  w.unskipped = unskipped;
}

/**
 * delta[j] = how far centre j moved from prevC (with slack); returns the largest move, the
 * second largest and the index of the largest (−1 when none moved).
 */
export function centreMoves(
  C: Float64Array,
  prevC: Float64Array,
  delta: Float64Array,
  k: number,
  d: number,
): [number, number, number] {
  let max1 = 0;
  let max2 = 0;
  let arg1 = -1;
  for (let j = 0; j < k; j++) {
    let s = 0;
    for (let p = 0; p < d; p++) {
      const t = C[j * d + p]! - prevC[j * d + p]!;
      s += t * t;
    }
    const dj = Math.sqrt(s) * (1 + BOUND_SLACK);
    delta[j] = dj;
    if (dj > max1) {
      max2 = max1;
      max1 = dj;
      arg1 = j;
    } else if (dj > max2) max2 = dj;
  }
  return [max1, max2, arg1];
}

/** half[j] = half the distance from centre j to its nearest other centre (with slack). */
export function halfGaps(C: Float64Array, half: Float64Array, k: number, d: number): void {
  for (let j = 0; j < k; j++) half[j] = Infinity;
  for (let j = 0; j < k; j++) {
    for (let q = j + 1; q < k; q++) {
      const cc = Math.sqrt(sqDist(C, j, C, q, d)) * 0.5 * (1 - BOUND_SLACK);
      if (cc < half[j]!) half[j] = cc;
      if (cc < half[q]!) half[q] = cc;
    }
  }
}

/**
 * row[j] := Σ_p (x_ip − c_jp)² for every centre j, each summed from zero over p = 0 … d − 1 as
 * `sqDist` sums it (the same bits; row[labels(i)] is the own distance again), four centres per
 * pass over p so each loaded x_ip serves four accumulators; the last k mod 4 one by one.
 */
export function rowDistances(
  data: Float64Array,
  i: number,
  C: Float64Array,
  k: number,
  d: number,
  row: Float64Array,
): void {
  const x = i * d;
  let j = 0;
  for (; j + 3 < k; j += 4) {
    const c0 = j * d;
    const c1 = c0 + d;
    const c2 = c1 + d;
    const c3 = c2 + d;
    let s0 = 0,
      s1 = 0,
      s2 = 0,
      s3 = 0;
    for (let p = 0; p < d; p++) {
      const v = data[x + p]!;
      let t = v - C[c0 + p]!;
      s0 += t * t;
      t = v - C[c1 + p]!;
      s1 += t * t;
      t = v - C[c2 + p]!;
      s2 += t * t;
      t = v - C[c3 + p]!;
      s3 += t * t;
    }
    row[j] = s0;
    row[j + 1] = s1;
    row[j + 2] = s2;
    row[j + 3] = s3;
  }
  for (; j < k; j++) row[j] = sqDist(data, i, C, j, d);
}
