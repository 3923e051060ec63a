/**
 * referencePknGraph and referenceNeighbours against the CGL reference's constructW_PKN done
 * literally in numpy (test/fixtures/graph/reference_pkn.py): every row of the distance matrix
 * sorted with the sample itself, the first entry dropped. Two rows are exact copies of earlier
 * ones, so they keep themselves as a neighbour, where the plain `pknGraph` does not.
 */
import { describe, expect, it } from 'vitest';
import { knn } from '../../../src/core/graph/knn';
import { pknGraph, referenceNeighbours, referencePknGraph } from '../../../src/core/graph/pkn';
import type { Csr } from '../../../src/core/linalg/types';
import { referencePknFixture } from '../../helpers/reference-pkn-fixture';

const f = referencePknFixture().pkn;
const X = { rows: f.n, cols: f.d, data: Float64Array.from(f.X) };

const diagonal = (S: Csr, i: number): number => {
  for (let p = S.indptr[i]!; p < S.indptr[i + 1]!; p++) if (S.indices[p] === i) return S.data[p]!;
  return 0;
};

describe('referencePknGraph', () => {
  it('equals constructW_PKN: the same pattern, weights to 1e-15', () => {
    const W = referencePknGraph(X, f.k);
    expect(Array.from(W.indptr)).toEqual(f.W.indptr);
    expect(Array.from(W.indices)).toEqual(f.W.indices);
    for (let p = 0; p < W.data.length; p++)
      expect(Math.abs(W.data[p]! - f.W.data[p]!)).toBeLessThanOrEqual(1e-15);
  });

  it('a copy of an earlier sample keeps itself as a neighbour; pknGraph excludes it', () => {
    const W = referencePknGraph(X, f.k);
    expect(diagonal(W, 17)).toBeGreaterThan(0);
    expect(diagonal(W, 33)).toBeGreaterThan(0);
    expect(diagonal(W, 5)).toBe(0);
    expect(diagonal(pknGraph(X, f.k), 17)).toBe(0);
  });

  it('referenceNeighbours on a hand toy: ties by index, the sample itself merged in', () => {
    // Points 0, 0, 1, 3 on a line (0 and 1 coincide), distances |x_i − x_j|².
    const x = [0, 0, 1, 3];
    const dist = (i: number, j: number): number => (x[i]! - x[j]!) ** 2;
    const nn = referenceNeighbours(knn({ rows: 4, cols: 1, data: Float64Array.from(x) }, 2), dist);
    // Row 0: sorted [0 (self), 1, 2], first dropped → 1, 2. Row 1: [0, 1 (self), 2] → 1, 2.
    // Row 3: [3 (self), 2, 0] (0 and 1 tie at 9: the lower index) → 2, 0.
    expect(Array.from(nn.indices)).toEqual([1, 2, 1, 2, 0, 1, 2, 0]);
    expect(Array.from(nn.distances)).toEqual([0, 1, 0, 1, 1, 1, 4, 9]);
  });

  it('names the neighbour count it cannot serve', () => {
    expect(() => referencePknGraph(X, f.n - 1)).toThrow(/39 neighbours need at least 41 samples/);
    expect(() => referencePknGraph(X, 0)).toThrow(/0 neighbours/);
  });
});
