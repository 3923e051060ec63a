/**
 * What the app draws of a result, computed where the arrays live (the worker): a 2-D
 * projection of the embedding for the cluster scatter, and the confusion matrix after
 * Hungarian alignment of clusters to classes.
 *
 * Pure: no IO, no clock; the only randomness (the start of the subspace iteration) comes
 * from a fixed seed, so the same embedding always gives the same picture.
 */
import { symEig } from './linalg/eig';
import type { Mat } from './linalg/types';
import { assignment } from './metrics/assignment';
import { createRng } from './random';

/** Above this many columns the principal axes come from subspace iteration, not an EVD. */
const EXACT_MAX_COLS = 256;
const SUBSPACE_ITERATIONS = 40;

export interface Projection2d {
  /** (n,) coordinates on the first and second principal axes of the centred embedding. */
  readonly x: Float64Array;
  readonly y: Float64Array;
  /** Fraction of the total variance along each axis (0 when the embedding is constant). */
  readonly explained: readonly [number, number];
  /** True when the axes come from the exact covariance eigendecomposition. */
  readonly exact: boolean;
}

/**
 * PCA of `E` (n, c) onto its first two principal axes: E_c = E − 1·meanᵀ, axes = top-2
 * eigenvectors of E_cᵀE_c (c×c, symEig) when c ≤ 256, else 40 steps of subspace iteration
 * V ← orth(E_cᵀ(E_c V)) with three vectors, O(n·c) per step. Each axis's sign is fixed so
 * that its largest-magnitude entry is positive. A one-column embedding gives y = 0.
 */
export function pca2(E: Mat): Projection2d {
  const { rows: n, cols: c, data } = E;
  const mean = new Float64Array(c);
  for (let i = 0; i < n; i++) for (let j = 0; j < c; j++) mean[j]! += data[i * c + j]!;
  for (let j = 0; j < c; j++) mean[j]! /= Math.max(n, 1);
  const centred = new Float64Array(n * c);
  let total = 0;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < c; j++) {
      const t = data[i * c + j]! - mean[j]!;
      centred[i * c + j] = t;
      total += t * t;
    }
  const exact = c <= EXACT_MAX_COLS;
  const axes = exact ? exactAxes(centred, n, c) : iteratedAxes(centred, n, c);
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  const out = [x, y];
  const explained: [number, number] = [0, 0];
  for (let a = 0; a < 2; a++) {
    const v = axes[a];
    if (!v) continue;
    const p = out[a]!;
    let ss = 0;
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let j = 0; j < c; j++) s += centred[i * c + j]! * v[j]!;
      p[i] = s;
      ss += s * s;
    }
    explained[a] = total > 0 ? ss / total : 0;
  }
  return { x, y, explained, exact };
}

/** Top-2 eigenvectors of E_cᵀE_c by the dense symmetric eigensolver (values ascending). */
function exactAxes(centred: Float64Array, n: number, c: number): Float64Array[] {
  const C = new Float64Array(c * c);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < c; j++) {
      const a = centred[i * c + j]!;
      if (a === 0) continue;
      for (let l = j; l < c; l++) C[j * c + l]! += a * centred[i * c + l]!;
    }
  for (let j = 0; j < c; j++) for (let l = 0; l < j; l++) C[j * c + l] = C[l * c + j]!;
  const { vectors } = symEig({ rows: c, cols: c, data: C });
  const axes: Float64Array[] = [];
  for (let a = 0; a < Math.min(2, c); a++) {
    const col = c - 1 - a;
    const v = new Float64Array(c);
    for (let j = 0; j < c; j++) v[j] = vectors.data[j * c + col]!;
    axes.push(fixSign(v));
  }
  return axes;
}

/** Subspace iteration with 3 vectors (one spare for convergence), Gram–Schmidt each step. */
function iteratedAxes(centred: Float64Array, n: number, c: number): Float64Array[] {
  const rng = createRng(0x5eed);
  const m = 3;
  let V = Array.from({ length: m }, () => Float64Array.from({ length: c }, () => rng.normal()));
  orthonormalise(V);
  const t = new Float64Array(n);
  for (let it = 0; it < SUBSPACE_ITERATIONS; it++) {
    V = V.map((v) => {
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let j = 0; j < c; j++) s += centred[i * c + j]! * v[j]!;
        t[i] = s;
      }
      const w = new Float64Array(c);
      for (let i = 0; i < n; i++) {
        const ti = t[i]!;
        if (ti === 0) continue;
        for (let j = 0; j < c; j++) w[j]! += ti * centred[i * c + j]!;
      }
      return w;
    });
    orthonormalise(V);
  }
  return V.slice(0, 2).map(fixSign);
}

function orthonormalise(V: Float64Array[]): void {
  for (let a = 0; a < V.length; a++) {
    const v = V[a]!;
    for (let b = 0; b < a; b++) {
      const u = V[b]!;
      let d = 0;
      for (let j = 0; j < v.length; j++) d += u[j]! * v[j]!;
      for (let j = 0; j < v.length; j++) v[j]! -= d * u[j]!;
    }
    let s = 0;
    for (let j = 0; j < v.length; j++) s += v[j]! * v[j]!;
    const norm = Math.sqrt(s);
    if (norm > 0) for (let j = 0; j < v.length; j++) v[j]! /= norm;
  }
}

function fixSign(v: Float64Array): Float64Array {
  let k = 0;
  for (let j = 1; j < v.length; j++) if (Math.abs(v[j]!) > Math.abs(v[k]!)) k = j;
  if ((v[k] ?? 0) < 0) for (let j = 0; j < v.length; j++) v[j] = -v[j]!;
  return v;
}

export interface AlignedConfusion {
  /** counts[i][j]: samples of class i in the cluster shown in column j. */
  readonly counts: number[][];
  /** 0-based cluster id shown in each column: the cluster matched to class j first, then the unmatched ones. */
  readonly clusterOrder: number[];
}

/**
 * The confusion matrix of `truth` (n,) class codes 0..c−1 against `labels` (n,) cluster ids
 * 0..k−1, columns permuted by the Hungarian matching that maximises the diagonal (the ACC
 * matching): column i is the cluster matched to class i. Clusters left unmatched (k > c)
 * follow in id order; a class left unmatched (c > k) has no diagonal column.
 */
export function alignedConfusion(
  truth: ArrayLike<number>,
  labels: ArrayLike<number>,
  classes: number,
  clusters: number,
): AlignedConfusion {
  if (truth.length !== labels.length) {
    throw new RangeError(
      `alignedConfusion: ${truth.length} true labels, ${labels.length} clusters`,
    );
  }
  const table = new Float64Array(classes * clusters);
  for (let i = 0; i < truth.length; i++) table[truth[i]! * clusters + labels[i]!]! += 1;
  const cost = new Float64Array(classes * clusters);
  for (let p = 0; p < cost.length; p++) cost[p] = -table[p]!;
  const sigma = assignment({ rows: classes, cols: clusters, data: cost });
  const order: number[] = [];
  for (let i = 0; i < classes; i++) if (sigma[i]! >= 0) order.push(sigma[i]!);
  for (let j = 0; j < clusters; j++) if (!order.includes(j)) order.push(j);
  const counts = Array.from({ length: classes }, (_, i) =>
    order.map((j) => table[i * clusters + j]!),
  );
  return { counts, clusterOrder: order };
}
