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
 * Distances are exact differences Σ_p (x_ip − c_jp)², as MATLAB's 'sqeuclidean', recomputed
 * only for the centres that changed; or, for d ≥ GEMM_MIN_D, through GEMM as
 * ‖x‖² − 2x·c + ‖c‖² on centred data (kmeans-gemm.ts) with every near tie and the own distance
 * re-checked by exact differences, so every decision is the exact scan's (any GEMM kernel);
 * helper threads split those scans' rows, and Hamerly's, when the replicates are not dealt
 * out (the same bits: hamerly-kernel.ts). From the
 * second Lloyd iteration on (k > 2), Hamerly's bounds
 * (SDM 2010) skip the other centres of a row that cannot move (`boundedScan`): the own distance
 * is still computed exactly (it is the SSE's term), and a row is skipped only when a lower
 * bound on every other distance beats it with a margin far above rounding, so labels, SSEs
 * and centres are exactly those of the full scan (tested against a plain Lloyd loop). Cost per
 * iteration O(n·k·d) time at worst, O(n·d) for skipped rows; memory O(n·k + k·d), allocated
 * once per call and reused by every iteration and replicate.
 *
 * Files: this one validates and drives the replicates (helper threads included) and the Lloyd
 * loop; kmeans-seed.ts seeds, kmeans-passes.ts holds an iteration's passes (distances, scan,
 * centres, empty clusters), kmeans-bounds.ts the Hamerly bounds (its per-row loop fused on
 * WebAssembly SIMD in hamerly-kernel.ts, the same bits), kmeans-gemm.ts the GEMM scan,
 * kmeans-work.ts the buffers. Each iteration takes Hamerly's scan while at most BOUNDED_SHARE
 * of the rows fail its test (counted by either scan), else the GEMM scan.
 */
import type { Mat } from '../linalg/types';
import { chunkBounds, threadPool } from '../parallel';
import { createRng, type Rng } from '../random';
import { releaseDistData, trimDistMemory } from './dist-kernel';
import { releaseHamerlyData, trimHamerlyMemory } from './hamerly-kernel';
import { boundedScan, initBounds } from './kmeans-bounds';
import { gemmScan } from './kmeans-gemm';
import {
  allChanged,
  applyMoves,
  fillEmptyClusters,
  finishCentres,
  scanRows,
  startScan,
  updateCentres,
  updateDistances,
} from './kmeans-passes';
import { assignAll, seedPlusPlus } from './kmeans-seed';
import { newWork, sseOf, type Work } from './kmeans-work';

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
  // the next scan recomputes. 'bounded' (Hamerly) and 'gemm': D is not kept; after either,
  // `lower` holds valid bounds for the centres of the scan (prevC once they move).
  const gemmFirst = gemmPays(w);
  let mode: 'full' | 'bounded' | 'gemm' = gemmFirst ? 'gemm' : 'full';
  let boundsValid = false;
  for (let iteration = 1; ; iteration++) {
    // Here the centres are the means of the labels.
    startScan(w);
    let fresh = false;
    if (w.counts.includes(0)) {
      if (mode !== 'full') m = allChanged(w);
      updateDistances(w, m, false);
      fillEmptyClusters(w);
      scanRows(w, 0, n);
      mode = 'full';
      boundsValid = false;
    } else if (mode === 'bounded') {
      boundedScan(w);
    } else if (mode === 'gemm' || (gemmFirst && m === w.k)) {
      gemmScan(w, boundsValid);
      mode = 'gemm';
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
      boundsValid = true;
    } else if (mode !== 'full' && w.k > 2) {
      // The next scan: Hamerly's when it skips enough rows (or GEMM does not pay), else GEMM.
      boundsValid = true;
      mode = !gemmFirst || w.unskipped <= BOUNDED_SHARE * n ? 'bounded' : 'gemm';
    }
    w.prevC.set(w.C);
    finishCentres(w);
  }
}

/**
 * Hamerly's scan computes every distance of a row it cannot skip by exact differences in
 * scalar code, the GEMM scan all of them at GEMM speed (about twice as fast per distance, both
 * paying the own distance and the sums per row): the bounded scan is taken while at most this
 * share of the rows fails its test. A cost estimate, not a tuned constant; results never
 * depend on it.
 */
const BOUNDED_SHARE = 0.5;

/** Smallest n·d·k whose GEMM scans are split over the helpers (below, the hand-off costs more). */
const SPLIT_WORK = 2e7;
let splitWork = SPLIT_WORK;

/** When the GEMM scan replaces the exact-difference columns ('auto': by shape, `gemmPays`). */
export type GemmScanPolicy = 'auto' | 'always' | 'never';

let gemmPolicy: GemmScanPolicy = 'auto';

/**
 * Sets when the GEMM scan runs, and from which n·d·k its rows are split over the helpers
 * (tests and benchmarks; results never depend on either).
 */
export function setGemmScan(policy: GemmScanPolicy, minSplitWork = SPLIT_WORK): void {
  gemmPolicy = policy;
  splitWork = minSplitWork;
}

/** Whether the GEMM scan beats the exact-difference columns on SIMD for a full scan of w. */
function gemmPays(w: Work): boolean {
  if (w.k < 2 || gemmPolicy === 'never') return false;
  return gemmPolicy === 'always' || (w.X.rows >= 64 && w.X.cols >= GEMM_MIN_D);
}

/**
 * Fewest columns for which the GEMM scan is taken: below it, the GEMM's packing and the scan's
 * extra pass over every row (own distance, decision, bounds) cost about what the GEMM saves
 * over the SIMD exact-difference columns. A cost estimate; results never depend on it.
 */
const GEMM_MIN_D = 16;

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
  let assigned = false;
  if (options.start && options.start !== 'plus') w.C.set(options.start.data);
  else assigned = seedPlusPlus(w, stream);
  if (!assigned) assignAll(w);
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

/**
 * After a call: the scan modules forget its Work (they would hold its X until the next call)
 * and give back their memory past a large X (dist-kernel, hamerly-kernel); also the helper task
 * 'kmeans.trim', for a helper that held rows of a split scan.
 */
export function trimModules(): void {
  releaseDistData();
  releaseHamerlyData();
  trimDistMemory();
  trimHamerlyMemory();
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
  trimModules();
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
    // One replicate at a time here: the helpers (if any) split each GEMM scan's rows instead.
    w.pool = pool && X.rows * X.cols * k >= splitWork ? pool : null;
    try {
      for (let r = 0; r < count; r++) {
        const end = yield* replicate(w, options, r, rng.split(), maxIterations);
        replicateSse[r] = end.sse;
        best = offer(best, w, r, end);
      }
    } finally {
      // The helper that scanned rows of Hamerly's scans holds them in its module: trimmed too.
      if (w.split && w.pool) {
        w.pool.start(0, 'kmeans.trim', null);
        w.pool.finish(0);
      }
    }
  }
  trimModules();
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
