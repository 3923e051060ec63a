/**
 * ℓ2,1 row shrinkage against numpy (test/fixtures/prox/make.py) to 1e-15 relative: a zero row
 * stays 0, a row shorter than t becomes 0, the others shrink toward 0 along themselves.
 */
import { describe, expect, it } from 'vitest';
import { l21Norm, l21Shrink } from '../../../src/core/prox/l21';
import { jsonMat, readFixture, relDiff, type JsonMat } from '../../helpers/json-fixture';

const ref = readFixture<{ l21: { A: JsonMat; t: number; X: JsonMat; norm: number } }>(
  'prox',
  'prox.json',
).l21;

describe('prox/l21', () => {
  it('shrinks rows as numpy and sums row norms', () => {
    const A = jsonMat(ref.A);
    const X = l21Shrink(A, ref.t);
    expect(relDiff(X, jsonMat(ref.X))).toBeLessThanOrEqual(1e-15);
    expect(X.data.subarray(3, 6).every((x) => x === 0)).toBe(true);
    expect(X.data.subarray(9, 12).every((x) => x === 0)).toBe(true);
    expect(Math.abs(l21Norm(A) - ref.norm)).toBeLessThanOrEqual(1e-15 * ref.norm);
    l21Shrink(A, ref.t, A);
    expect(Array.from(A.data)).toEqual(Array.from(X.data));
    expect(() => l21Shrink(A, -0.1)).toThrow(/threshold -0.1/);
  });
});
