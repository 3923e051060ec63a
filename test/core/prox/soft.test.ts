/**
 * Soft thresholding against numpy's sign(A)·max(|A| − t, 0) (test/fixtures/prox/make.py):
 * bit for bit (both are one subtraction per entry), for one threshold and one per row.
 */
import { describe, expect, it } from 'vitest';
import { softThreshold } from '../../../src/core/prox/soft';
import { jsonMat, readFixture, type JsonMat } from '../../helpers/json-fixture';

const ref = readFixture<{
  soft: { A: JsonMat; t: number; scalar: JsonMat; t_rows: number[]; rows: JsonMat };
}>('prox', 'prox.json').soft;

describe('prox/soft', () => {
  it('equals numpy for a scalar and a per-row threshold', () => {
    const A = jsonMat(ref.A);
    expect(Array.from(softThreshold(A, ref.t).data)).toEqual(ref.scalar.data);
    expect(Array.from(softThreshold(A, Float64Array.from(ref.t_rows)).data)).toEqual(ref.rows.data);
    softThreshold(A, ref.t, A);
    expect(Array.from(A.data)).toEqual(ref.scalar.data);
  });

  it('is the identity at t = 0 and refuses bad thresholds', () => {
    const A = jsonMat(ref.A);
    expect(Array.from(softThreshold(A, 0).data)).toEqual(Array.from(A.data));
    expect(() => softThreshold(A, -1)).toThrow(/threshold -1 \(row 0\)/);
    expect(() => softThreshold(A, new Float64Array(2))).toThrow(/2 thresholds for 5 rows/);
  });
});
