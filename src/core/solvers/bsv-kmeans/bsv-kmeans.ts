/**
 * Best Single View by k-means (the survey protocol of incomplete multi-view clustering; the
 * baseline "BSV" of paper 000, specs/baselines-incomplete.md §1):
 *   1. the common input layer (views/incomplete-input.ts): each present sample of view v
 *      divided by max(1e-12, ‖x‖₂);
 *   2. X̂_v: (n, d_v), the missing samples of view v set to μ_v, the mean of its present
 *      (normalised) samples;
 *   3. the chosen view's X̂_v is the embedding the protocol clusters with k-means.
 * The label-free choice ('sse-ratio') runs k-means (k clusters, k-means++, `replicates` starts,
 * lowest SSE kept) on every X̂_v and keeps the view with the lowest
 *   ρ_v = SSE_v / TSS_v,   TSS_v = Σ_i ‖X̂_v[i, :] − mean_i X̂_v[i, :]‖²,
 * the share of the view's variance that the k clusters leave unexplained (1 − R²): a ratio, so
 * views of different width and scale compare. First view on ties; a view with TSS_v = 0 (every
 * sample equal) has ρ_v = 1.
 * Cost per view O(n·d_v) for the fill and O(n·d_v·k) per Lloyd iteration; memory two (n, d_v)
 * dense arrays (the view scored and the best so far).
 */
import { kmeans } from '../../cluster/kmeans';
import type { Mat } from '../../linalg/types';
import type { Rng } from '../../random';
import type { SolverStep } from '../types';

/** TSS of the rows of X: Σ_i ‖x_i − x̄‖², two passes (the mean, then the deviations). */
export function totalSumOfSquares(X: Mat): number {
  const { rows: n, cols: d, data } = X;
  if (n === 0) return 0;
  const mean = new Float64Array(d);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) mean[j]! += data[i * d + j]!;
  for (let j = 0; j < d; j++) mean[j]! /= n;
  let tss = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < d; j++) {
      const t = data[i * d + j]! - mean[j]!;
      tss += t * t;
    }
  }
  return tss;
}

/** One view's selection score. */
export interface ViewScore {
  readonly sse: number;
  readonly tss: number;
  /** SSE / TSS (1 when TSS = 0). */
  readonly ratio: number;
}

/** k-means of one filled view X̂ (n, d) into k clusters and its ρ = SSE / TSS. */
export function scoreView(
  X: Mat,
  k: number,
  options: { readonly replicates: number; readonly iterations: number },
  rng: Rng,
): ViewScore {
  const { sse } = kmeans(
    X,
    k,
    { replicates: options.replicates, maxIterations: options.iterations },
    rng,
  );
  const tss = totalSumOfSquares(X);
  return { sse, tss, ratio: tss > 0 ? sse / tss : 1 };
}

/** The step a run yields after scoring view v (1-based). */
export function scoreStep(v: number, score: ViewScore): SolverStep {
  return { stage: 'select', iteration: v, objective: null, values: { ratio: score.ratio } };
}
