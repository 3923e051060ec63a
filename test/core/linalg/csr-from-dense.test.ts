/**
 * csrFromDense: the stored entries are exactly the nonzeros of the dense matrix, in row-major
 * order, and products through it equal the dense product (identities, no oracle needed).
 */
import { describe, expect, it } from 'vitest';
import { csrFromDense, matmul, spmm, spmmTA, matmulTA } from '../../../src/core/linalg/kernels';
import type { Mat } from '../../../src/core/linalg/types';
import { createRng } from '../../../src/core/random';

const sparseMat = (rows: number, cols: number, seed: number): Mat => {
  const rng = createRng(seed);
  const data = new Float64Array(rows * cols);
  for (let p = 0; p < data.length; p++) data[p] = rng.next() < 0.2 ? rng.normal() : 0;
  return { rows, cols, data };
};

describe('csrFromDense', () => {
  it('keeps exactly the nonzeros, columns ascending per row', () => {
    const M: Mat = {
      rows: 3,
      cols: 4,
      data: Float64Array.from([0, 2, 0, -1, 0, 0, 0, 0, 5, 0, 0, 7]),
    };
    const S = csrFromDense(M);
    expect(Array.from(S.indptr)).toEqual([0, 2, 2, 4]);
    expect(Array.from(S.indices)).toEqual([1, 3, 0, 3]);
    expect(Array.from(S.data)).toEqual([2, -1, 5, 7]);
  });

  it('S·B and Sᵀ·B equal the dense products to rounding', () => {
    const M = sparseMat(57, 31, 3);
    const S = csrFromDense(M);
    const B = sparseMat(31, 5, 4);
    const C = sparseMat(57, 6, 5);
    const a = spmm(S, B);
    const b = matmul(M, B);
    a.data.forEach((x, i) => expect(x).toBeCloseTo(b.data[i]!, 13));
    const c = spmmTA(S, C);
    const d = matmulTA(M, C);
    c.data.forEach((x, i) => expect(x).toBeCloseTo(d.data[i]!, 13));
  });

  it('an all-zero matrix has no entries', () => {
    const S = csrFromDense({ rows: 2, cols: 3, data: new Float64Array(6) });
    expect(S.indices.length).toBe(0);
    expect(Array.from(S.indptr)).toEqual([0, 0, 0]);
  });
});
