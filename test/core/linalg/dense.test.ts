/** The vector helpers and the tiled transpose. */
import { describe, expect, it } from 'vitest';
import { dot, nrm2, transposeInto } from '../../../src/core/linalg/kernels';
import type { Mat } from '../../../src/core/linalg/types';
import { maxDiff, randMat, transpose } from '../../helpers/mat';

describe('transposeInto', () => {
  it.each([
    [1, 1],
    [3, 5],
    [37, 70],
  ])('%i×%i, exactly', (m, n) => {
    const A = randMat(m, n, m * n);
    expect(maxDiff(transposeInto(A), transpose(A))).toBe(0);
  });

  it('writes into a given out and checks its shape', () => {
    const A = randMat(4, 6, 1);
    const out: Mat = { rows: 6, cols: 4, data: new Float64Array(24).fill(NaN) };
    expect(transposeInto(A, out)).toBe(out);
    expect(maxDiff(out, transpose(A))).toBe(0);
    expect(() => transposeInto(A, randMat(4, 6, 2))).toThrow(/out is 4x6, expected 6x4/);
  });
});

describe('dot, nrm2', () => {
  it('dot over strided views', () => {
    const x = Float64Array.of(1, 2, 3, 4, 5, 6);
    // (x[1], x[3], x[5]) · (x[0], x[1], x[2]) = 2·1 + 4·2 + 6·3
    expect(dot(3, x, 1, 2, x, 0, 1)).toBe(28);
    expect(dot(0, x, 0, 1, x, 0, 1)).toBe(0);
  });

  it('nrm2 neither overflows nor underflows', () => {
    expect(nrm2(2, Float64Array.of(3e200, 4e200), 0, 1)).toBeCloseTo(5e200, -186);
    expect(nrm2(2, Float64Array.of(3e-200, 4e-200), 0, 1) / 5e-200).toBeCloseTo(1, 14);
    expect(nrm2(3, Float64Array.of(0, 9, 0, 9, 0, 0), 0, 2)).toBe(0);
    expect(nrm2(2, Float64Array.of(1, 0, 1), 0, 2)).toBeCloseTo(Math.SQRT2, 15);
  });
});
