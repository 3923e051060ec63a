/**
 * The linear assignment problem: given a cost matrix C (r × c), a one-to-one map σ from rows to
 * columns (r ≤ c: every row matched) minimising Σ_i C[i, σ(i)].
 *
 * Method: the Hungarian algorithm in its shortest-augmenting-path form with dual potentials
 * (Kuhn 1955, Munkres 1957; the O(r²c) variant of Jonker & Volgenant 1987 without their
 * initialisation heuristics). Row i is added by a Dijkstra-like search over columns on the reduced
 * costs C[i, j] − u_i − v_j ≥ 0, then the path is augmented. With integer costs (contingency
 * counts) all arithmetic is exact.
 *
 * A non-square problem is the padded square one of the reference (`bestMap` pads the contingency
 * to max(#classes, #clusters) with zero rows or columns): padding with a constant changes every
 * full assignment's cost by the same amount, so solving the rectangular problem directly on the
 * shorter side is equivalent and cheaper.
 */
import type { Mat } from '../linalg/types';

/**
 * Solves min Σ_i C[i, σ(i)] for C (r × c, r ≤ c, row-major). Returns σ as an Int32Array (r,).
 * Private: the caller guarantees r ≤ c and finite costs.
 */
function solveRowsLeCols(C: Float64Array, r: number, c: number): Int32Array {
  // 1-based as in the textbook form: column 0 is the virtual start, p[j] the row matched to j.
  const u = new Float64Array(r + 1);
  const v = new Float64Array(c + 1);
  const p = new Int32Array(c + 1);
  const way = new Int32Array(c + 1);
  const minv = new Float64Array(c + 1);
  const used = new Uint8Array(c + 1);
  for (let i = 1; i <= r; i++) {
    p[0] = i;
    let j0 = 0;
    minv.fill(Infinity);
    used.fill(0);
    do {
      used[j0] = 1;
      const i0 = p[j0]!;
      const row = (i0 - 1) * c - 1;
      let delta = Infinity;
      let j1 = 0;
      for (let j = 1; j <= c; j++) {
        if (used[j]) continue;
        const cur = C[row + j]! - u[i0]! - v[j]!;
        if (cur < minv[j]!) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j]! < delta) {
          delta = minv[j]!;
          j1 = j;
        }
      }
      for (let j = 0; j <= c; j++) {
        if (used[j]) {
          u[p[j]!]! += delta;
          v[j]! -= delta;
        } else minv[j]! -= delta;
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do {
      const j1 = way[j0]!;
      p[j0] = p[j1]!;
      j0 = j1;
    } while (j0 !== 0);
  }
  const sigma = new Int32Array(r);
  for (let j = 1; j <= c; j++) if (p[j]! > 0) sigma[p[j]! - 1] = j - 1;
  return sigma;
}

/**
 * Minimum-cost assignment for a cost matrix (r × c, any shape, finite entries). Returns, for
 * each row, its column (r ≤ c), or −1 for the r − c rows left unmatched when r > c.
 * O(min(r,c)² · max(r,c)) time, O(r·c) memory when r > c (the transpose), else O(r + c).
 */
export function assignment(cost: Mat): Int32Array {
  const { rows: r, cols: c, data } = cost;
  if (data.length !== r * c)
    throw new RangeError(`assignment: data has ${data.length} entries, not ${r}x${c}`);
  for (let k = 0; k < data.length; k++) {
    if (!Number.isFinite(data[k]!))
      throw new RangeError(`assignment: cost entry ${k} is ${data[k]}`);
  }
  if (r <= c) return solveRowsLeCols(data, r, c);
  const t = new Float64Array(r * c);
  for (let i = 0; i < r; i++) for (let j = 0; j < c; j++) t[j * r + i] = data[i * c + j]!;
  const colToRow = solveRowsLeCols(t, c, r);
  const sigma = new Int32Array(r).fill(-1);
  colToRow.forEach((i, j) => (sigma[i] = j));
  return sigma;
}
