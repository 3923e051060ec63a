/**
 * Centring H·K·H and normalisation K_ij/√(K_ii K_jj) against numpy (test/fixtures/kernels/
 * make.py) to 1e-13 relative; identities (centred rows sum to 0, normalised diagonal is 1,
 * both in place); and the zero-diagonal policy.
 */
import { describe, expect, it } from 'vitest';
import { centreKernel, normaliseKernel } from '../../../src/core/kernels/transform';
import { jsonMat, readFixture, relDiff, type JsonMat } from '../../helpers/json-fixture';

const ref = readFixture<{ transform: { K: JsonMat; centred: JsonMat; normalised: JsonMat } }>(
  'kernels',
  'kernels.json',
).transform;

describe('kernels/transform', () => {
  it('centres as H·K·H, exactly symmetric, rows summing to 0', () => {
    const K = jsonMat(ref.K);
    const C = centreKernel(K);
    expect(relDiff(C, jsonMat(ref.centred))).toBeLessThanOrEqual(1e-13);
    const n = K.rows;
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let j = 0; j < n; j++) {
        s += C.data[i * n + j]!;
        expect(C.data[i * n + j]).toBe(C.data[j * n + i]);
      }
      expect(Math.abs(s)).toBeLessThanOrEqual(1e-13 * n);
    }
    centreKernel(K, K);
    expect(Array.from(K.data)).toEqual(Array.from(C.data));
  });

  it('normalises to a unit diagonal as numpy, in place too', () => {
    const C = jsonMat(ref.centred);
    const N = normaliseKernel(C);
    expect(relDiff(N, jsonMat(ref.normalised))).toBeLessThanOrEqual(1e-13);
    for (let i = 0; i < N.rows; i++)
      expect(Math.abs(N.data[i * N.cols + i]! - 1)).toBeLessThanOrEqual(1e-15);
    normaliseKernel(C, C);
    expect(Array.from(C.data)).toEqual(Array.from(N.data));
  });

  it('refuses a sample with no direction unless told to zero it', () => {
    const K = { rows: 2, cols: 2, data: Float64Array.from([4, 0, 0, 0]) };
    expect(() => normaliseKernel(K)).toThrow(/K\[1, 1\] = 0, so sample 1/);
    expect(Array.from(normaliseKernel(K, undefined, { zeroDiagonal: 'zero' }).data)).toEqual([
      1, 0, 0, 0,
    ]);
    expect(() => centreKernel({ rows: 2, cols: 3, data: new Float64Array(6) })).toThrow(
      /not square/,
    );
  });
});
