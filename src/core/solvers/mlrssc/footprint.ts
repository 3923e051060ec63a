/**
 * The float64 count the fast MLRSSC path (mlrssc.ts) holds at its peak, for the method's
 * declared memory footprint. Per view: the kernel K_v (built by the caller, alive for the whole
 * solve), the seven iterates A, C1, C2, C3, Λ2, Λ3, Λ4, and the inverse's eigenvectors Q_v (or,
 * once μ is final, the formed inverse in their place): 9 (n, n) arrays. Shared: the prefix sum or
 * centroid, the right-hand side B, the spare A, the inverse's (n, n) workspace, the Gram
 * route's BᵀB, recomposition matrix and polar factor, and the transient peak of one Golub–Kahan
 * SVD (its copy of B, U, V and the two kept-pair factors; the Gram route's eigendecomposition
 * holds two): 12. With a helper thread sharing the thresholds, besides: the helper's threshold
 * argument, its own Gram buffers and its SVD peak: 9 more. Plus
 * O(n·V) vectors. The count is the same for both variants (the centroid C* takes the pairwise
 * prefix's buffer). The thin (Woodbury) route for linear kernels with d_v ≤ n/2 holds Q_v as
 * (n, d_v), so the count is an upper bound there.
 */
export function mlrsscWorkingDoubles(
  n: number,
  V: number,
  variant: 'pairwise' | 'centroid',
  helper: boolean,
): number {
  const perView = 9 * n * n + 2 * n;
  const shared = variant === 'pairwise' || variant === 'centroid' ? 12 * n * n + 4 * n : 0;
  const helping = helper && V >= 2 ? 9 * n * n + n : 0;
  return V * perView + shared + helping;
}
