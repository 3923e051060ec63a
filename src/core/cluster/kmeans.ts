/**
 * k-means on the rows of X (n × d), after MATLAB's `kmeans(X, k, 'Start', 'plus',
 * 'EmptyAction', 'singleton')` (the call of the IMVC-CBG protocol, specs/imvc-cbg.md). Minimises
 * the within-cluster sum of squares
 *
 *   SSE(labels, C) = Σ_i ‖x_i − c_{labels(i)}‖²,   C: (k, d) centres.
 *
 * Per replicate:
 * 1. Seeding, k-means++ as MATLAB's 'plus' (Arthur & Vassilvitskii 2007): the first centre is a
 *    uniformly chosen row; each next one is row i with probability D(i)² / Σ D², D(i) the distance
 *    to the nearest chosen centre (no greedy local trials, unlike scikit-learn). If Σ D² = 0 (fewer
 *    distinct rows than k), the remaining centres are distinct rows drawn uniformly, as MATLAB.
 *    Then every row goes to its nearest centre (ties: the lowest index).
 * 2. Lloyd iterations (MATLAB's batch phase). Iteration t: recompute the centres as the means of
 *    their members; a cluster left empty gets, as MATLAB's 'singleton', the row farthest from its
 *    own centre as a new one-member centre (its old cluster's centre is recomputed); compute the
 *    SSE; reassign every row to its nearest centre, a row moving only when strictly closer (ties
 *    favour staying). Stop when no row moves (converged), when the SSE failed to decrease (a
 *    rounding cycle: the previous iteration's state is restored, as MATLAB does), or after
 *    `maxIterations` (not converged; the centres are the means of the returned labels).
 *    MATLAB's optional second, online phase ('OnlinePhase', 'on': single-point moves that lower
 *    the SSE further; 'off' is MATLAB's default) is NOT done: it costs O(n·k) per point move and
 *    scikit-learn does not do it either. With it on, MATLAB can end at a lower SSE on hard data.
 * 3. Replicates: each replicate draws from its own stream `rng.split()`; the lowest final SSE
 *    wins (the first on ties).
 *
 * Distances are exact differences Σ_p (x_ip − c_jp)², as MATLAB's 'sqeuclidean' (no cancellation,
 * unlike ‖x‖² − 2x·c + ‖c‖², which was also slower here: see `updateDistances`), recomputed only
 * for the centres that changed. From the second Lloyd iteration on (k > 2), Hamerly's bounds
 * (SDM 2010) skip the other centres of a row that cannot move (`boundedScan`): the own distance
 * is still computed exactly (it is the SSE's term), and a row is skipped only when a lower
 * bound on every other distance beats it with a margin far above rounding, so labels, SSEs
 * and centres are exactly those of the full scan (tested against a plain Lloyd loop). Cost per
 * iteration O(n·k·d) time at worst, O(n·d) for skipped rows; memory O(n·k + k·d), allocated
 * once per call and reused by every iteration and replicate.
 */
import type { Mat } from '../linalg/types';
import { chunkBounds, threadPool } from '../parallel';
import { distanceColumns } from './dist-kernel';
import { createRng, type Rng } from '../random';

export interface KmeansOptions {
  /** Independent starts; the lowest final SSE is kept. Default 1. */
  replicates?: number;
  /** Cap on Lloyd iterations per replicate. Default 100. */
  maxIterations?: number;
  /** 'plus' (k-means++, default) or explicit initial centres (k × d; then replicates must be 1). */
  start?: 'plus' | Mat;
}

/** One Lloyd iteration, as the generator yields it. */
export interface KmeansStep {
  /** 0-based replicate. */
  replicate: number;
  /** 1-based iteration within the replicate. */
  iteration: number;
  /** SSE after this iteration's centre update (before the reassignment it counts). */
  sse: number;
  /** Rows whose nearest centre changed in this iteration's reassignment. */
  changed: number;
}

/** Why a replicate stopped: converged ('no-change' or 'no-decrease') or hit the cap. */
export type KmeansStop = 'no-change' | 'no-decrease' | 'max-iterations';

export interface KmeansResult {
  /** (n,) 0-based cluster of each row. */
  labels: Int32Array;
  /** (k, d) centres: the means of the rows of each cluster. */
  centers: Mat;
  /** SSE of `labels` and `centers`. */
  sse: number;
  /** Lloyd iterations of the winning replicate. */
  iterations: number;
  /** True unless the winning replicate stopped at `maxIterations`. */
  converged: boolean;
  stop: KmeansStop;
  /** 0-based index of the winning replicate. */
  replicate: number;
  /** (replicates,) final SSE of every replicate. */
  replicateSse: Float64Array;
}

/** Buffers for one call: reused across iterations and replicates. */
interface Work {
  readonly X: Mat;
  readonly k: number;
  /** (n, k) squared distances, row-major: D[i·k + j] = ‖x_i − c_j‖². */
  readonly D: Float64Array;
  readonly labels: Int32Array;
  readonly prev: Int32Array;
  /** (k, d) centres. */
  readonly C: Float64Array;
  readonly counts: Float64Array;
  /** Cluster indices whose centre changed since D was last computed for them. */
  readonly changed: Int32Array;
  /** Marks for building `changed` without duplicates. */
  readonly mark: Uint8Array;
  /** (n,) rows that move in the current reassignment, and their new clusters. */
  readonly moveRow: Int32Array;
  readonly moveTo: Int32Array;
  /** (n,) k-means++ distances to the nearest chosen centre. */
  readonly minDist: Float64Array;
  /** (k, d) member sums and (k,) counts of the labels after the current reassignment. */
  readonly nextSums: Float64Array;
  readonly nextCounts: Float64Array;
  /** Results of the current scan: Σ_i D[i, labels(i)] and the number of moves found. */
  sse: number;
  moves: number;
  /**
   * Hamerly-style pruning (see `boundedScan`): lower[i] ≤ the distance (not squared) from x_i
   * to every centre but its own; prevC the centres before the last update; delta[j] how far
   * centre j moved; half[j] half the distance from centre j to the nearest other centre.
   */
  readonly lower: Float64Array;
  readonly prevC: Float64Array;
  readonly delta: Float64Array;
  readonly half: Float64Array;
  /** Scratch: one row's squared distances to every centre. */
  readonly row: Float64Array;
}

function validate(
  X: Mat,
  k: number,
  options: KmeansOptions,
): Required<Omit<KmeansOptions, 'start'>> {
  const { rows: n, cols: d, data } = X;
  if (!Number.isInteger(n) || !Number.isInteger(d) || n < 1 || d < 1 || data.length !== n * d) {
    throw new RangeError(
      `kmeans: X must be a non-empty n x d matrix, got ${n}x${d} with ${data.length} values`,
    );
  }
  for (let p = 0; p < data.length; p++) {
    if (!Number.isFinite(data[p]!)) {
      throw new RangeError(
        `kmeans: X(${Math.floor(p / d)}, ${p % d}) is ${data[p]}; X must be finite`,
      );
    }
  }
  if (!Number.isInteger(k) || k < 1 || k > n) {
    throw new RangeError(`kmeans: k must be an integer in 1..${n} (the number of rows), got ${k}`);
  }
  const replicates = options.replicates ?? 1;
  const maxIterations = options.maxIterations ?? 100;
  if (!Number.isInteger(replicates) || replicates < 1) {
    throw new RangeError(`kmeans: replicates must be an integer >= 1, got ${replicates}`);
  }
  if (!Number.isInteger(maxIterations) || maxIterations < 1) {
    throw new RangeError(`kmeans: maxIterations must be an integer >= 1, got ${maxIterations}`);
  }
  const start = options.start ?? 'plus';
  if (start !== 'plus') {
    if (start.rows !== k || start.cols !== d || start.data.length !== k * d) {
      throw new RangeError(
        `kmeans: start centres are ${start.rows}x${start.cols}, expected ${k}x${d}`,
      );
    }
    if (replicates !== 1)
      throw new RangeError('kmeans: explicit start centres allow only 1 replicate');
  }
  return { replicates, maxIterations };
}

/** ‖x_i − c_j‖² by exact differences. */
function sqDist(X: Float64Array, i: number, C: Float64Array, j: number, d: number): number {
  let s = 0;
  const xi = i * d;
  const cj = j * d;
  for (let p = 0; p < d; p++) {
    const t = X[xi + p]! - C[cj + p]!;
    s += t * t;
  }
  return s;
}

/**
 * Recomputes D[:, j] for the first `m` clusters j listed in `w.changed`, by exact differences:
 * on WebAssembly SIMD where available (`dist-kernel.ts`, eight rows per pass, the same bits),
 * else this loop, register-blocked: 4 rows × 2 centres per pass over p share each loaded x_ip and c_jp across 8
 * accumulators (measured at n = 100,000, d = 20, k = 10: ~15-20 ms per full D against ~55 ms
 * for one row × one centre, ~55 ms for the ‖x‖² − 2x·c + ‖c‖² expansion in a loop, ~47 ms for
 * the expansion through `matmulTB`'s reference body); an odd centre out goes 4 rows × 1 centre,
 * leftover rows one by one.
 */
function updateDistances(w: Work, m: number, scan: boolean): void {
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
function scanRows(w: Work, i0: number, i1: number): void {
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
function startScan(w: Work): void {
  w.sse = 0;
  w.moves = 0;
  w.nextSums.fill(0);
  w.nextCounts.fill(0);
}

/** Centres := the member sums of the scan / counts (= `updateCentres` after the moves, bit for bit). */
function finishCentres(w: Work): void {
  const { k, C, counts, nextSums, nextCounts } = w;
  const d = w.X.cols;
  for (let j = 0; j < k; j++) {
    const m = nextCounts[j]!;
    counts[j] = m;
    for (let p = 0; p < d; p++) C[j * d + p] = m > 0 ? nextSums[j * d + p]! / m : 0;
  }
}

/** Centres := means of their members (all clusters; an empty one keeps count 0). O(n·d). */
function updateCentres(w: Work): void {
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
function fillEmptyClusters(w: Work): void {
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
function applyMoves(w: Work, moves: number): number {
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
function allChanged(w: Work): number {
  for (let j = 0; j < w.k; j++) w.changed[j] = j;
  return w.k;
}

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
function seedPlusPlus(w: Work, rng: Rng): number {
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
function assignAll(w: Work, known = 0): void {
  for (let j = known; j < w.k; j++) w.changed[j - known] = j;
  updateDistances(w, w.k - known, false);
  const { k, D, labels } = w;
  for (let i = 0; i < w.X.rows; i++) {
    let best = 0;
    for (let j = 1; j < k; j++) if (D[i * k + j]! < D[i * k + best]!) best = j;
    labels[i] = best;
  }
}

/**
 * Slack for the pruning bounds. A squared distance computed by exact differences is within
 * (d + 3)·ε relative of the true one (each x − c is one rounding, then d products and sums), so
 * every bound is loosened by BOUND_SLACK (relative; ≫ (d + 3)·ε for any d below 10⁵) and a
 * row is skipped only when its bound beats its own distance by SKIP_MARGIN (relative).
 */
const BOUND_SLACK = 1e-10;
const SKIP_MARGIN = 1e-9;

/** lower[i] := √(min over j ≠ labels(i) of D[i, j]), D exact for the current centres. */
function initBounds(w: Work): void {
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
 * other than its own (with slack).
 */
function boundedScan(w: Work): void {
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
  let sse = w.sse;
  let moves = w.moves;
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
      // Every distance, and the full scan's rule: the first minimum, taken when strictly closer.
      let best = 0;
      let min = Infinity;
      for (let j = 0; j < k; j++) {
        const dij = j === a ? own : sqDist(data, i, C, j, d);
        row[j] = dij;
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
}

/**
 * delta[j] = how far centre j moved from prevC (with slack); returns the largest move, the
 * second largest and the index of the largest (−1 when none moved).
 */
function centreMoves(
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
function halfGaps(C: Float64Array, half: Float64Array, k: number, d: number): void {
  for (let j = 0; j < k; j++) half[j] = Infinity;
  for (let j = 0; j < k; j++) {
    for (let q = j + 1; q < k; q++) {
      const cc = Math.sqrt(sqDist(C, j, C, q, d)) * 0.5 * (1 - BOUND_SLACK);
      if (cc < half[j]!) half[j] = cc;
      if (cc < half[q]!) half[q] = cc;
    }
  }
}

/** SSE of w.labels and w.C by exact differences (independent of D). */
function sseOf(w: Work): number {
  let s = 0;
  for (let i = 0; i < w.X.rows; i++) s += sqDist(w.X.data, i, w.C, w.labels[i]!, w.X.cols);
  return s;
}

interface ReplicateEnd {
  iterations: number;
  stop: KmeansStop;
  sse: number;
}

/**
 * Lloyd iterations from the labels in w (MATLAB's batch phase); yields one step each. The
 * reassignment scan runs inside the distance pass and accumulates the next centres' sums, so
 * an iteration streams X once; only an iteration with an empty cluster takes separate passes.
 */
function* lloyd(
  w: Work,
  replicate: number,
  maxIterations: number,
): Generator<KmeansStep, ReplicateEnd, void> {
  const n = w.X.rows;
  let m = allChanged(w);
  updateCentres(w);
  let prevSse = Infinity;
  // 'full': D is exact for every (row, centre) except the `m` changed centres' columns, which
  // the next scan recomputes. 'bounded': D is not kept; `lower` holds valid bounds instead.
  let mode: 'full' | 'bounded' = 'full';
  for (let iteration = 1; ; iteration++) {
    // Here the centres are the means of the labels.
    startScan(w);
    let fresh = false;
    if (w.counts.includes(0)) {
      if (mode === 'bounded') m = allChanged(w);
      updateDistances(w, m, false);
      fillEmptyClusters(w);
      scanRows(w, 0, n);
      mode = 'full';
    } else if (mode === 'bounded') {
      boundedScan(w);
    } else {
      updateDistances(w, m, true);
      fresh = true;
    }
    const { sse, moves } = w;
    if (prevSse <= sse) {
      w.labels.set(w.prev);
      updateCentres(w);
      return { iterations: iteration - 1, stop: 'no-decrease', sse: sseOf(w) };
    }
    yield { replicate, iteration, sse, changed: moves };
    if (moves === 0) return { iterations: iteration, stop: 'no-change', sse: sseOf(w) };
    if (iteration >= maxIterations) {
      return { iterations: iteration, stop: 'max-iterations', sse: sseOf(w) };
    }
    w.prev.set(w.labels);
    prevSse = sse;
    m = applyMoves(w, moves);
    if (fresh && w.k > 2) {
      // D is exact for every centre after a full scan: start the bounds from it.
      initBounds(w);
      mode = 'bounded';
    }
    w.prevC.set(w.C);
    finishCentres(w);
  }
}

/** The best of a run of replicates: lowest SSE, ties to the lower index (the first one seen). */
interface Best {
  labels: Int32Array;
  centers: Mat;
  sse: number;
  iterations: number;
  stop: KmeansStop;
  replicate: number;
}

/** Replicate r from its stream (k-means++ or the given start), then Lloyd; yields its steps. */
function* replicate(
  w: Work,
  options: KmeansOptions,
  r: number,
  stream: Rng,
  maxIterations: number,
): Generator<KmeansStep, ReplicateEnd, void> {
  let known = 0;
  if (options.start && options.start !== 'plus') w.C.set(options.start.data);
  else known = seedPlusPlus(w, stream);
  assignAll(w, known);
  return yield* lloyd(w, r, maxIterations);
}

/** Keeps replicate r's outcome in `best` when its SSE is lower (strictly) than best's. */
function offer(best: Best | null, w: Work, r: number, end: ReplicateEnd): Best {
  if (best && !(end.sse < best.sse)) return best;
  return {
    labels: w.labels.slice(),
    centers: { rows: w.k, cols: w.X.cols, data: w.C.slice() },
    sse: end.sse,
    iterations: end.iterations,
    stop: end.stop,
    replicate: r,
  };
}

/** Input of the helper task 'kmeans.replicates' (`core/tasks.ts`). */
export interface ReplicatesTaskInput {
  readonly X: Mat;
  readonly k: number;
  readonly maxIterations: number;
  /** Index of the first replicate, and the keys of the replicates' streams (`rng.split()`). */
  readonly first: number;
  readonly keys: readonly bigint[];
}

/** Runs replicates first … first + keys.length − 1 (k-means++ starts) to their end. */
export function replicatesTask(input: ReplicatesTaskInput): [Best | null, Float64Array] {
  const { X, k, maxIterations, first, keys } = input;
  const w = newWork(X, k);
  const sse = new Float64Array(keys.length);
  let best: Best | null = null;
  for (let i = 0; i < keys.length; i++) {
    const steps = replicate(w, {}, first + i, createRng(keys[i]!), maxIterations);
    let s = steps.next();
    while (!s.done) s = steps.next();
    sse[i] = s.value.sse;
    best = offer(best, w, first + i, s.value);
  }
  return [best, sse];
}

/**
 * The replicates, each from its own stream `rng.split()` (taken in replicate order), best kept.
 * With helper threads (`core/parallel`) and k-means++ starts, the replicates are dealt in
 * contiguous chunks: the first here (its Lloyd steps yielded), the others on helpers, started
 * first; the streams are split here in order, so every replicate, and the best, are the same as
 * on one thread.
 */
function* replicates(
  w: Work,
  options: KmeansOptions,
  count: number,
  maxIterations: number,
  rng: Rng,
): Generator<KmeansStep, KmeansResult, void> {
  const { X, k } = w;
  const replicateSse = new Float64Array(count);
  let best: Best | null = null;
  const pool = threadPool();
  const plus = !options.start || options.start === 'plus';
  const bounds = pool && plus && count > 1 ? chunkBounds(count, pool.helpers + 1) : [0, count];
  if (bounds.length > 2) {
    const keys = Array.from({ length: count }, () => rng.split().key);
    for (let t = 1; t < bounds.length - 1; t++) {
      const input: ReplicatesTaskInput = {
        X,
        k,
        maxIterations,
        first: bounds[t]!,
        keys: keys.slice(bounds[t], bounds[t + 1]),
      };
      pool!.start(t - 1, 'kmeans.replicates', input);
    }
    let helperError: unknown = null;
    try {
      for (let r = 0; r < bounds[1]!; r++) {
        const end = yield* replicate(w, options, r, createRng(keys[r]!), maxIterations);
        replicateSse[r] = end.sse;
        best = offer(best, w, r, end);
      }
    } finally {
      // Every helper is waited for, also when this generator is closed early or throws.
      for (let t = 1; t < bounds.length - 1; t++) {
        try {
          const [b, sse] = pool!.finish(t - 1) as [Best | null, Float64Array];
          replicateSse.set(sse, bounds[t]);
          if (b && best && b.sse < best.sse) best = b;
        } catch (e) {
          helperError ??= e;
        }
      }
    }
    // Reached only when this thread's replicates ended normally.
    if (helperError !== null) throw helperError;
  } else {
    for (let r = 0; r < count; r++) {
      const end = yield* replicate(w, options, r, rng.split(), maxIterations);
      replicateSse[r] = end.sse;
      best = offer(best, w, r, end);
    }
  }
  const b = best!;
  return {
    labels: b.labels,
    centers: b.centers,
    sse: b.sse,
    iterations: b.iterations,
    converged: b.stop !== 'max-iterations',
    stop: b.stop,
    replicate: b.replicate,
    replicateSse,
  };
}

/** Buffers for k-means of X (n × d) into k clusters. */
function newWork(X: Mat, k: number): Work {
  const n = X.rows;
  return {
    X,
    k,
    D: new Float64Array(n * k),
    labels: new Int32Array(n),
    prev: new Int32Array(n),
    C: new Float64Array(k * X.cols),
    counts: new Float64Array(k),
    changed: new Int32Array(k),
    mark: new Uint8Array(k),
    moveRow: new Int32Array(n),
    moveTo: new Int32Array(n),
    minDist: new Float64Array(n),
    nextSums: new Float64Array(k * X.cols),
    nextCounts: new Float64Array(k),
    sse: 0,
    moves: 0,
    lower: new Float64Array(n),
    prevC: new Float64Array(k * X.cols),
    delta: new Float64Array(k),
    half: new Float64Array(k),
    row: new Float64Array(k),
  };
}

/**
 * k-means as a generator: yields a `KmeansStep` per Lloyd iteration of every replicate and
 * returns the best replicate's `KmeansResult`. X: (n, d) rows to cluster; k in 1..n.
 * The inputs are validated here, before the first step. With helper threads, only the
 * replicates run on this thread yield steps.
 */
export function kmeansSteps(
  X: Mat,
  k: number,
  options: KmeansOptions,
  rng: Rng,
): Generator<KmeansStep, KmeansResult, void> {
  const { replicates: count, maxIterations } = validate(X, k, options);
  return replicates(newWork(X, k), options, count, maxIterations, rng);
}

/** k-means to completion (drives `kmeansSteps`). Same seed, same labels. */
export function kmeans(X: Mat, k: number, options: KmeansOptions, rng: Rng): KmeansResult {
  const steps = kmeansSteps(X, k, options, rng);
  for (;;) {
    const s = steps.next();
    if (s.done) return s.value;
  }
}
