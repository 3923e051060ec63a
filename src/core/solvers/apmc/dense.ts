/**
 * The total similarity S formed as the reference forms it (`APMC_3views`: each pair's
 * S_p = Z_p·diag(1 ./ sum(Z_p, 1))·Z_pᵀ, the block sums S1 + S2 + S3 over the pairs containing
 * both samples, then `./ t`): a dense n × n array, O(n²) memory. The solver decomposes it up to
 * DENSE_SPECTRUM_BELOW samples (apmc.ts); it is also the ground truth the operator
 * (`operator.ts`) is tested against and the source of the reference's checks on S (sum,
 * Frobenius norm, trace, nonzeros, extremes).
 */
import type { Mat } from '../../linalg/types';
import type { Groups } from './groups';
import type { PairGraph } from './similarity';

/** S (n × n, row-major, samples in index order). O(n² + Σ_p Σ_j c_j²), c_j anchor j's rows. */
export function denseSimilarity(groups: Groups, pairs: readonly PairGraph[]): Mat {
  const { n } = groups;
  const G = groups.patterns.length;
  const S = new Float64Array(n * n);
  for (const p of pairs) {
    // Z_p's columns: for each anchor, the (sample, value) entries of its rows, in row order.
    const nnz = p.data.length;
    const start = new Int32Array(p.m + 1);
    for (let q = 0; q < nnz; q++) start[p.indices[q]! + 1]!++;
    for (let j = 0; j < p.m; j++) start[j + 1]! += start[j]!;
    const fill = start.slice(0, p.m);
    const who = new Int32Array(nnz);
    const val = new Float64Array(nnz);
    for (let r = 0; r < p.samples.length; r++) {
      for (let q = p.indptr[r]!; q < p.indptr[r + 1]!; q++) {
        const at = fill[p.indices[q]!]!++;
        who[at] = p.samples[r]!;
        val[at] = p.data[q]!;
      }
    }
    for (let j = 0; j < p.m; j++) {
      const l = p.lambda[j]!;
      for (let u = start[j]!; u < start[j + 1]!; u++) {
        const row = who[u]! * n;
        const zl = val[u]! * l;
        for (let v = start[j]!; v < start[j + 1]!; v++) S[row + who[v]!]! += zl * val[v]!;
      }
    }
  }
  const g = groups.group;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) S[i * n + j]! *= groups.invCount[g[i]! * G + g[j]!]!;
  }
  return { rows: n, cols: n, data: S };
}

/** The reference's checks on S (`Stotal_*` in baselines-incomplete.json). */
export interface SimilarityChecks {
  readonly sum: number;
  readonly fro: number;
  readonly trace: number;
  readonly nnz: number;
  readonly min: number;
  readonly max: number;
}

/** Sum, Frobenius norm, trace, nonzero count, minimum and maximum of a dense square S. */
export function similarityChecks(S: Mat): SimilarityChecks {
  const n = S.rows;
  let sum = 0;
  let sq = 0;
  let trace = 0;
  let nnz = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let t = 0; t < S.data.length; t++) {
    const x = S.data[t]!;
    sum += x;
    sq += x * x;
    if (x !== 0) nnz++;
    if (x < min) min = x;
    if (x > max) max = x;
  }
  for (let i = 0; i < n; i++) trace += S.data[i * n + i]!;
  return { sum, fro: Math.sqrt(sq), trace, nnz, min, max };
}
