/** The buffers of one k-means call (kmeans.ts), and the SSE by exact differences. */
import type { Mat } from '../linalg/types';
import type { ThreadPool } from '../parallel';
import type { SplitRows } from './hamerly-kernel';
import type { GemmWork } from './kmeans-gemm';

/** Buffers for one call: reused across iterations and replicates. */
export interface Work {
  /** This call's number in this thread (helpers key the rows of X they hold by it). */
  readonly id: number;
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
  /** Rows the last bounded (or GEMM, counting) scan could not skip by Hamerly's test. */
  unskipped: number;
  /** The GEMM scan's buffers (kmeans-gemm.ts), made on its first use. */
  gemm: GemmWork | null;
  /** Helpers that split the scans' rows (a call whose replicates are not dealt out). */
  pool: ThreadPool | null;
  /** A helper's rows of Hamerly's scan when it is split (hamerly-kernel.ts), made on first use. */
  split: SplitRows | null;
}

/** ‖x_i − c_j‖² by exact differences. */
export function sqDist(X: Float64Array, i: number, C: Float64Array, j: number, d: number): number {
  let s = 0;
  const xi = i * d;
  const cj = j * d;
  for (let p = 0; p < d; p++) {
    const t = X[xi + p]! - C[cj + p]!;
    s += t * t;
  }
  return s;
}

/** SSE of w.labels and w.C by exact differences (independent of D). */
export function sseOf(w: Work): number {
  let s = 0;
  for (let i = 0; i < w.X.rows; i++) s += sqDist(w.X.data, i, w.C, w.labels[i]!, w.X.cols);
  return s;
}

let calls = 0;

/** Buffers for k-means of X (n × d) into k clusters. */
export function newWork(X: Mat, k: number): Work {
  const n = X.rows;
  return {
    id: ++calls,
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
    unskipped: n,
    gemm: null,
    pool: null,
    split: null,
  };
}
