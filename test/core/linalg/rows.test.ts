import { describe, expect, it } from 'vitest';
import {
  concatColumns,
  gatherRows,
  rowSquaredNorms,
  scatterRows,
} from '../../../src/core/linalg/rows';
import type { Mat } from '../../../src/core/linalg/types';

const M: Mat = { rows: 3, cols: 2, data: Float64Array.from([1, 2, 3, 4, 5, 6]) };

describe('linalg/rows', () => {
  it('gathers rows by index, repeats allowed', () => {
    const g = gatherRows(M, Int32Array.from([2, 0, 2]));
    expect([g.rows, g.cols]).toEqual([3, 2]);
    expect(Array.from(g.data)).toEqual([5, 6, 1, 2, 5, 6]);
  });

  it('scatter undoes gather for a permutation', () => {
    const perm = Int32Array.from([1, 2, 0]);
    const back = scatterRows(gatherRows(M, perm), perm);
    expect(Array.from(back.data)).toEqual(Array.from(M.data));
  });

  it('scatters a subset into a larger matrix with a fill value', () => {
    const s = scatterRows(
      { rows: 2, cols: 2, data: Float64Array.from([1, 2, 3, 4]) },
      Int32Array.from([0, 3]),
      4,
      -1,
    );
    expect(Array.from(s.data)).toEqual([1, 2, -1, -1, -1, -1, 3, 4]);
  });

  it('concatenates columns and refuses mismatched rows', () => {
    const c = concatColumns([M, { rows: 3, cols: 1, data: Float64Array.from([7, 8, 9]) }]);
    expect([c.rows, c.cols]).toEqual([3, 3]);
    expect(Array.from(c.data)).toEqual([1, 2, 7, 3, 4, 8, 5, 6, 9]);
    expect(() => concatColumns([M, { rows: 2, cols: 1, data: new Float64Array(2) }])).toThrow(
      /2 rows, expected 3/,
    );
  });

  it('sums the squares of each row', () => {
    expect(Array.from(rowSquaredNorms(M))).toEqual([5, 25, 61]);
  });
});
