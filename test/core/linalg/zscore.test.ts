/**
 * zscoreRows against scipy.stats.zscore(·, axis=1, ddof=1) (test/fixtures/graph/reference_pkn.py),
 * a constant row (std 0 → eps: zeros) included; a hand toy and the identities mean 0, std 1.
 */
import { describe, expect, it } from 'vitest';
import { zscoreRows } from '../../../src/core/linalg/zscore';
import { referencePknFixture } from '../../helpers/reference-pkn-fixture';

const z = referencePknFixture().zscore;

describe('zscoreRows', () => {
  it('matches scipy to 1e-14 relative', () => {
    const out = zscoreRows({ rows: z.n, cols: z.d, data: Float64Array.from(z.Y) });
    for (let p = 0; p < z.Z.length; p++)
      expect(Math.abs(out.data[p]! - z.Z[p]!)).toBeLessThanOrEqual(
        1e-14 * Math.max(1, Math.abs(z.Z[p]!)),
      );
    // Row means 0, sample standard deviations 1 (the constant row 4 excepted: zeros).
    for (let i = 0; i < z.n; i++) {
      const row = Array.from(out.data.subarray(i * z.d, (i + 1) * z.d));
      const mean = row.reduce((a, b) => a + b, 0) / z.d;
      const sd = Math.sqrt(row.reduce((a, b) => a + (b - mean) ** 2, 0) / (z.d - 1));
      expect(Math.abs(mean)).toBeLessThan(1e-15 * z.d);
      if (i === 4) expect(row).toEqual(new Array<number>(z.d).fill(0));
      else expect(Math.abs(sd - 1)).toBeLessThan(1e-14);
    }
  });

  it('hand toy: [1, 2, 3] → [−1, 0, 1]; one column → 0', () => {
    const t = zscoreRows({ rows: 1, cols: 3, data: Float64Array.from([1, 2, 3]) });
    expect(Array.from(t.data)).toEqual([-1, 0, 1]);
    const one = zscoreRows({ rows: 2, cols: 1, data: Float64Array.from([5, -2]) });
    expect(Array.from(one.data)).toEqual([0, 0]);
  });
});
