/** The sign convention of linalg/signs.ts on hand-checked matrices. */
import { describe, expect, it } from 'vitest';
import { fixColumnSigns } from '../../../src/core/linalg/signs';

describe('linalg/signs', () => {
  it('makes each column’s largest-magnitude entry positive, the first one on ties', () => {
    // Column 0: largest |.| is −3 → flipped; column 1: 2 and −2 tie, the first (−2) → flipped;
    // column 2: 0.5 and −0.5 tie, the first (0.5) is positive → kept.
    const M = { rows: 3, cols: 3, data: Float64Array.from([1, -2, 0.5, -3, 2, -0.5, 2, 1, 0]) };
    fixColumnSigns(M);
    expect(Array.from(M.data)).toEqual([-1, 2, 0.5, 3, -2, -0.5, -2, -1, 0]);
  });

  it('leaves a zero column and an empty matrix alone, and is idempotent', () => {
    const M = { rows: 2, cols: 2, data: Float64Array.from([0, -1, 0, 0.5]) };
    fixColumnSigns(M);
    expect(Array.from(M.data)).toEqual([0, 1, 0, -0.5]);
    fixColumnSigns(M);
    expect(Array.from(M.data)).toEqual([0, 1, 0, -0.5]);
    expect(() => fixColumnSigns({ rows: 0, cols: 3, data: new Float64Array(0) })).not.toThrow();
  });
});
