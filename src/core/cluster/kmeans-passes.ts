/**
 * The passes of a Lloyd iteration (kmeans.ts): the distance columns of the changed centres, the
 * reassignment scan that accumulates the next centres' sums, the centre updates, MATLAB's
 * 'singleton' action for empty clusters, and the moves.
 */
import { distanceColumns } from './dist-kernel';
import { sqDist, type Work } from './kmeans-work';

/**
 * Recomputes D[:, j] for the first `m` clusters j listed in `w.changed`, by exact differences:
 * on WebAssembly SIMD where available (`dist-kernel.ts`, eight rows per pass, the same bits),
 * else this loop, register-blocked: 4 rows × 2 centres per pass over p share each loaded x_ip
 * and c_jp across 8 accumulators (several times faster than one row × one centre, or than the
 * ‖x‖² − 2x·c + ‖c‖² expansion); an odd centre out goes 4 rows × 1 centre, leftover rows one by
 * one.
 */
export function updateDistances(w: Work, m: number, scan: boolean): void {
  const { X, k, D, C, changed } = w;
  const { rows: n, cols: d, data } = X;
  if (distanceColumns(w, X, C, k, changed, m, D)) {
    // The WebAssembly loop (`dist-kernel.ts`): the same bits; then the scan in row order.
    if (scan) scanRows(w, 0, n);
    return;
  }
  const n4 = n - (n % 4);
  for (let i = 0; i < n4; i += 4) {
    const x0 = i * d;
    const x1 = x0 + d;
    const x2 = x1 + d;
    const x3 = x2 + d;
    let q = 0;
    for (; q + 1 < m; q += 2) {
      const j0 = changed[q]!;
      const j1 = changed[q + 1]!;
      const c0 = j0 * d;
      const c1 = j1 * d;
      let s00 = 0,
        s01 = 0,
        s10 = 0,
        s11 = 0,
        s20 = 0,
        s21 = 0,
        s30 = 0,
        s31 = 0;
      for (let p = 0; p < d; p++) {
        const u = C[c0 + p]!;
        const v = C[c1 + p]!;
        const a = data[x0 + p]!;
        const b = data[x1 + p]!;
        const e = data[x2 + p]!;
        const f = data[x3 + p]!;
        let t = a - u;
        s00 += t * t;
        t = a - v;
        s01 += t * t;
        t = b - u;
        s10 += t * t;
        t = b - v;
        s11 += t * t;
        t = e - u;
        s20 += t * t;
        t = e - v;
        s21 += t * t;
        t = f - u;
        s30 += t * t;
        t = f - v;
        s31 += t * t;
      }
      const r = i * k;
      D[r + j0] = s00;
      D[r + j1] = s01;
      D[r + k + j0] = s10;
      D[r + k + j1] = s11;
      D[r + 2 * k + j0] = s20;
      D[r + 2 * k + j1] = s21;
      D[r + 3 * k + j0] = s30;
      D[r + 3 * k + j1] = s31;
    }
    if (q < m) {
      // The odd centre out: 4 rows × 1 centre, sharing each loaded c_jp.
      const j0 = changed[q]!;
      const c0 = j0 * d;
      let s0 = 0,
        s1 = 0,
        s2 = 0,
        s3 = 0;
      for (let p = 0; p < d; p++) {
        const u = C[c0 + p]!;
        let t = data[x0 + p]! - u;
        s0 += t * t;
        t = data[x1 + p]! - u;
        s1 += t * t;
        t = data[x2 + p]! - u;
        s2 += t * t;
        t = data[x3 + p]! - u;
        s3 += t * t;
      }
      const r = i * k;
      D[r + j0] = s0;
      D[r + k + j0] = s1;
      D[r + 2 * k + j0] = s2;
      D[r + 3 * k + j0] = s3;
    }
    if (scan) scanRows(w, i, i + 4); // while rows i..i+3 of X and D are in cache
  }
  for (let i = n4; i < n; i++) {
    for (let q = 0; q < m; q++) D[i * k + changed[q]!] = sqDist(data, i, C, changed[q]!, d);
  }
  if (scan) scanRows(w, n4, n);
}

/**
 * For rows i0..i1−1 (D complete for them): adds D[i, labels(i)] to w.sse; records a move when
 * the nearest centre (the first minimum) is strictly closer than the own one (ties favour
 * staying); adds x_i to the member sums of the cluster it ends in (the next centres).
 */
export function scanRows(w: Work, i0: number, i1: number): void {
  const { X, k, D, labels, moveRow, moveTo, nextSums, nextCounts } = w;
  const { cols: d, data } = X;
  let sse = w.sse;
  let moves = w.moves;
  for (let i = i0; i < i1; i++) {
    const row = i * k;
    let target = labels[i]!;
    const own = D[row + target]!;
    sse += own;
    let best = 0;
    let min = D[row]!;
    for (let j = 1; j < k; j++) {
      if (D[row + j]! < min) {
        min = D[row + j]!;
        best = j;
      }
    }
    if (min < own) {
      moveRow[moves] = i;
      moveTo[moves++] = best;
      target = best;
    }
    nextCounts[target]!++;
    const c = target * d;
    const x = i * d;
    for (let p = 0; p < d; p++) nextSums[c + p]! += data[x + p]!;
  }
  w.sse = sse;
  w.moves = moves;
}

/** Resets the scan accumulators. */
export function startScan(w: Work): void {
  w.sse = 0;
  w.moves = 0;
  w.nextSums.fill(0);
  w.nextCounts.fill(0);
}

/** Centres := the member sums of the scan / counts (= `updateCentres` after the moves, bit for bit). */
export function finishCentres(w: Work): void {
  const { k, C, counts, nextSums, nextCounts } = w;
  const d = w.X.cols;
  for (let j = 0; j < k; j++) {
    const m = nextCounts[j]!;
    counts[j] = m;
    for (let p = 0; p < d; p++) C[j * d + p] = m > 0 ? nextSums[j * d + p]! / m : 0;
  }
}

/** Centres := means of their members (all clusters; an empty one keeps count 0). O(n·d). */
export function updateCentres(w: Work): void {
  const { X, k, C, counts, labels } = w;
  const { rows: n, cols: d, data } = X;
  C.fill(0);
  counts.fill(0);
  for (let i = 0; i < n; i++) {
    const c = labels[i]! * d;
    counts[labels[i]!]!++;
    for (let p = 0; p < d; p++) C[c + p]! += data[i * d + p]!;
  }
  for (let j = 0; j < k; j++) {
    if (counts[j]! > 0) for (let p = 0; p < d; p++) C[j * d + p]! /= counts[j]!;
  }
}

/** The centre of cluster j alone := the mean of its members. */
function updateCentre(w: Work, j: number): void {
  const { X, C, counts, labels } = w;
  const { rows: n, cols: d, data } = X;
  C.fill(0, j * d, (j + 1) * d);
  counts[j] = 0;
  for (let i = 0; i < n; i++) {
    if (labels[i] !== j) continue;
    counts[j]!++;
    for (let p = 0; p < d; p++) C[j * d + p]! += data[i * d + p]!;
  }
  for (let p = 0; p < d; p++) C[j * d + p]! /= counts[j]!;
}

function setColumn(w: Work, j: number): void {
  const { X, k, D, C } = w;
  for (let i = 0; i < X.rows; i++) D[i * k + j] = sqDist(X.data, i, C, j, X.cols);
}

/**
 * MATLAB's 'singleton' action for every empty cluster, in increasing order: the row farthest
 * from its own centre (the first on ties) becomes the empty cluster's only member; if that row
 * is alone in its cluster, the first row of the first cluster with ≥ 2 members is taken instead.
 * The donor's centre is recomputed; the D columns of both are refreshed, so the changed list
 * needs no update (the next scan's sums reproduce these centres bit for bit).
 */
export function fillEmptyClusters(w: Work): void {
  const { X, k, D, C, counts, labels } = w;
  const { rows: n, cols: d, data } = X;
  for (let j = 0; j < k; j++) {
    if (counts[j] !== 0) continue;
    let lonely = 0;
    for (let i = 1; i < n; i++) {
      if (D[i * k + labels[i]!]! > D[lonely * k + labels[lonely]!]!) lonely = i;
    }
    let from = labels[lonely]!;
    if (counts[from]! < 2) {
      from = counts.findIndex((c) => c > 1);
      lonely = labels.indexOf(from);
    }
    C.set(data.subarray(lonely * d, (lonely + 1) * d), j * d);
    counts[j] = 1;
    labels[lonely] = j;
    setColumn(w, j);
    updateCentre(w, from);
    setColumn(w, from);
  }
}

/** Applies the moves; returns the changed-cluster list length (clusters that gained or lost). */
export function applyMoves(w: Work, moves: number): number {
  const { labels, changed, mark, moveRow, moveTo } = w;
  mark.fill(0);
  let m = 0;
  for (let q = 0; q < moves; q++) {
    const i = moveRow[q]!;
    const from = labels[i]!;
    const to = moveTo[q]!;
    if (!mark[from]) {
      mark[from] = 1;
      changed[m++] = from;
    }
    if (!mark[to]) {
      mark[to] = 1;
      changed[m++] = to;
    }
    labels[i] = to;
  }
  return m;
}

/** Marks every cluster changed. */
export function allChanged(w: Work): number {
  for (let j = 0; j < w.k; j++) w.changed[j] = j;
  return w.k;
}
