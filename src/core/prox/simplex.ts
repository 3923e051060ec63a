/**
 * Projection onto the probability simplex Δ_m = {x ≥ 0, Σx = 1}, the proximal operator of its
 * indicator. The vector and column forms live in linalg/simplex.ts (sort-exact and the
 * references' Newton scheme) and are re-exported here so every prox sits in one place; this
 * file adds the row form the graph methods need (each sample's affinities, MVGL's S rows).
 */
import { projectSimplexNewtonAt, projectSimplex } from '../linalg/simplex';
import type { Mat } from '../linalg/types';

export {
  projectColumnsToSimplex,
  projectSimplex,
  projectSimplexNewton,
  projectSimplexNewtonAt,
  type SimplexMethod,
} from '../linalg/simplex';

/**
 * Projects every row of M (n, m) onto Δ_m: out[i, :] = P(M[i, :]), by the references' Newton
 * scheme (default) or exactly by sorting. `out` may be M. No allocation per row on the Newton
 * path; one scratch row on the sort path.
 */
export function projectRowsToSimplex(
  M: Mat,
  out: Mat = { rows: M.rows, cols: M.cols, data: new Float64Array(M.rows * M.cols) },
  method: 'sort' | 'newton' = 'newton',
): Mat {
  const { rows: n, cols: m } = M;
  if (m < 1) throw new RangeError('projectRowsToSimplex: M has no columns');
  if (out.rows !== n || out.cols !== m) {
    throw new RangeError(
      `projectRowsToSimplex: out is ${out.rows}x${out.cols}, expected ${n}x${m}`,
    );
  }
  const row = method === 'sort' ? new Float64Array(m) : null;
  for (let i = 0; i < n; i++) {
    if (row) {
      projectSimplex(M.data.subarray(i * m, (i + 1) * m), row);
      out.data.set(row, i * m);
    } else projectSimplexNewtonAt(M.data, i * m, m, out.data, i * m);
  }
  return out;
}
