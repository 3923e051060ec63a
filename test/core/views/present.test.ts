/**
 * Between all n samples and a view's present ones, by the identities of the indicator G_v
 * (n_v, n): G_v·M equals gatherPresent(M), G_vᵀ·Y equals scatterPresent(Y) with fill 0,
 * G_v·G_vᵀ = I, and a toy checked by hand for the mask, the missing list, the presence matrix
 * and a mean-row fill.
 */
import { describe, expect, it } from 'vitest';
import type { View } from '../../../src/core/dataset';
import type { Mat } from '../../../src/core/linalg/types';
import {
  checkPresent,
  denseRows,
  gatherPresent,
  indicatorMatrix,
  missingIndex,
  presenceMask,
  presenceMatrix,
  scatterPresent,
} from '../../../src/core/views/present';
import { naiveMul, randMat, transpose } from '../../helpers/mat';

const present = Int32Array.from([1, 2, 4]);
const n = 6;

describe('views/present', () => {
  it('gather and scatter are products with the indicator', () => {
    const G = indicatorMatrix(present, n);
    const M = randMat(n, 3, 5);
    expect(Array.from(gatherPresent(M, present).data)).toEqual(Array.from(naiveMul(G, M).data));
    const Y = randMat(3, 2, 6);
    expect(Array.from(scatterPresent(Y, present, n).data)).toEqual(
      Array.from(naiveMul(transpose(G), Y).data),
    );
    expect(Array.from(naiveMul(G, transpose(G)).data)).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1]);
  });

  it('mask, missing samples and the presence matrix of a toy', () => {
    expect(Array.from(presenceMask(present, n))).toEqual([0, 1, 1, 0, 1, 0]);
    expect(Array.from(missingIndex(present, n))).toEqual([0, 3, 5]);
    const A = presenceMatrix(4, [Int32Array.from([0, 1, 3]), Int32Array.from([1, 2])]);
    expect([A.rows, A.cols]).toEqual([4, 2]);
    expect(Array.from(A.data)).toEqual([1, 0, 1, 1, 0, 1, 1, 0]);
  });

  it('fills missing rows with a number or a row', () => {
    const Y: Mat = { rows: 3, cols: 2, data: Float64Array.from([1, 2, 3, 4, 5, 6]) };
    expect(Array.from(scatterPresent(Y, present, n, -1).data)).toEqual([
      -1, -1, 1, 2, 3, 4, -1, -1, 5, 6, -1, -1,
    ]);
    const mean = Float64Array.from([3, 4]);
    expect(Array.from(scatterPresent(Y, present, n, mean).data)).toEqual([
      3, 4, 1, 2, 3, 4, 3, 4, 5, 6, 3, 4,
    ]);
    expect(() => scatterPresent(Y, present, n, new Float64Array(3))).toThrow(/3 entries, not 2/);
    expect(() => scatterPresent(Y, Int32Array.from([1, 2]), n)).toThrow(/3 rows for 2 present/);
  });

  it('densifies a CSR view', () => {
    const view: View = {
      name: 'v',
      d: 3,
      present: Int32Array.from([0, 2]),
      values: {
        kind: 'csr',
        rows: 2,
        cols: 3,
        indptr: Int32Array.from([0, 1, 3]),
        indices: Int32Array.from([2, 0, 1]),
        data: Float64Array.from([7, 8, 9]),
      },
    };
    expect(Array.from(denseRows(view).data)).toEqual([0, 0, 7, 8, 9, 0]);
  });

  it('refuses unsorted, repeated or out-of-range indices', () => {
    expect(() => checkPresent(Int32Array.from([2, 1]), 3)).toThrow(/present\[1\] = 1/);
    expect(() => checkPresent(Int32Array.from([1, 1]), 3)).toThrow(/sorted, distinct/);
    expect(() => gatherPresent(randMat(3, 1, 1), Int32Array.from([0, 3]))).toThrow(/in 0..2/);
  });
});
