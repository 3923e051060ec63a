import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  chiSquareSf,
  fSf,
  normalSf,
  rangeCdf,
} from '../../../../src/core/study/report/distributions';
import {
  averageRanks,
  cdCliques,
  friedman,
  nemenyiCd,
  nemenyiQ,
  wilcoxon,
} from '../../../../src/core/study/report/stats';
import { REPO } from '../../../helpers/paths';

/** Written by test/fixtures/study/stats.py (scipy). */
interface Fixture {
  friedman: { scores: number[][]; chiSquare: number; pChiSquare: number; f: number; pF: number }[];
  wilcoxon: { x: number[]; y: number[]; statistic: number; p: number }[];
  nemenyi: Record<'0.05' | '0.1', number[]>;
  tails: { chiSquare: number[][]; f: number[][]; normal: number[][] };
}
const fx = JSON.parse(
  readFileSync(join(REPO, 'test/fixtures/study/stats.json'), 'utf8'),
) as Fixture;

const close = (actual: number, expected: number, rel: number): void => {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(
    rel * Math.max(Math.abs(expected), 1e-300),
  );
};

describe('average ranks', () => {
  it('ranks the largest first and gives ties the mean of their ranks (hand-checked)', () => {
    expect(averageRanks([0.5, 0.9, 0.7])).toEqual([3, 1, 2]);
    expect(averageRanks([0.8, 0.8, 0.6, 0.8])).toEqual([2, 2, 4, 2]);
    expect(averageRanks([1, 2, 2, 3, 3])).toEqual([5, 3.5, 3.5, 1.5, 1.5]);
  });
});

describe('distribution tails against scipy', () => {
  it('χ², F and normal survival functions to 1e-12 relative', () => {
    for (const [x, df, p] of fx.tails.chiSquare) close(chiSquareSf(x!, df!), p!, 1e-12);
    for (const [x, d1, d2, p] of fx.tails.f) close(fSf(x!, d1!, d2!), p!, 1e-12);
    for (const [z, p] of fx.tails.normal) close(normalSf(z!), p!, 1e-12);
  });

  it('the range of two normals is |Z1 − Z2| = √2 |Z| (identity)', () => {
    close(rangeCdf(Math.SQRT2 * 1.959963984540054, 2), 0.95, 1e-9);
  });
});

describe('Friedman and Iman–Davenport against scipy.stats.friedmanchisquare', () => {
  it.each(fx.friedman.map((c, i) => [i, c] as const))('case %i', (_, c) => {
    const r = friedman(c.scores);
    close(r.chiSquare, c.chiSquare, 1e-12);
    close(r.pChiSquare, c.pChiSquare, 1e-10);
    close(r.f, c.f, 1e-12);
    close(r.pF, c.pF, 1e-10);
    expect(r.df1).toBe(r.k - 1);
    expect(r.df2).toBe((r.k - 1) * (r.n - 1));
    // Average ranks sum to k(k + 1)/2.
    close(
      r.avgRanks.reduce((s, v) => s + v, 0),
      (r.k * (r.k + 1)) / 2,
      1e-12,
    );
  });

  it('names the shape it needs', () => {
    expect(() => friedman([[1, 2, 3]])).toThrow(/at least 2 datasets × 3 methods, got 1 × 3/);
    expect(() =>
      friedman([
        [1, 2, 3],
        [1, 2],
      ]),
    ).toThrow(/scores\[1\]: expected 3 methods/);
    expect(() =>
      friedman([
        [1, 2, NaN],
        [1, 2, 3],
      ]),
    ).toThrow(/scores\[0\]\[2\]/);
  });
});

describe('Wilcoxon signed-rank against scipy.stats.wilcoxon', () => {
  // The fixture's cases: n = 6, 12, 30 without ties; n = 8, 11 with ties or zeros (scipy's
  // permutation test, exact here); n = 20 with ties and n = 60 (normal approximation).
  const METHODS = ['exact', 'exact', 'exact', 'exact', 'exact', 'normal', 'normal'];
  it.each(fx.wilcoxon.map((c, i) => [i, c] as const))('case %i', (i, c) => {
    const r = wilcoxon(c.x, c.y);
    expect(r.statistic).toBeCloseTo(c.statistic, 9);
    close(r.p, c.p, 1e-9);
    expect(r.method).toBe(METHODS[i]);
  });

  it('is exact on a hand-checkable toy: 4 positive differences give p = 2/16', () => {
    const r = wilcoxon([2, 3, 4, 5], [1, 1, 1, 1]);
    expect(r).toMatchObject({ n: 4, rPlus: 10, rMinus: 0, statistic: 0, method: 'exact' });
    expect(r.p).toBe(0.125);
  });

  it('gives p = 1 when every difference is zero', () => {
    expect(wilcoxon([1, 2], [1, 2]).p).toBe(1);
  });
});

describe('Nemenyi q_α', () => {
  it('equals scipy studentized_range.ppf / √2 for k = 2…20 to 1e-6', () => {
    for (const alpha of [0.05, 0.1] as const) {
      fx.nemenyi[String(alpha) as '0.05' | '0.1'].forEach((q, i) => {
        close(nemenyiQ(i + 2, alpha), q, 1e-6);
      });
    }
  });

  it("matches Demšar's printed Table 5a (k = 2…10, three decimals, some truncated)", () => {
    const q05 = [1.96, 2.343, 2.569, 2.728, 2.85, 2.949, 3.031, 3.102, 3.164];
    const q10 = [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.78, 2.855, 2.92];
    q05.forEach((q, i) => expect(Math.abs(nemenyiQ(i + 2, 0.05) - q)).toBeLessThan(1e-3));
    q10.forEach((q, i) => expect(Math.abs(nemenyiQ(i + 2, 0.1) - q)).toBeLessThan(1e-3));
  });

  it('CD = q √(k(k+1)/6N): Demšar §3.2.2 example, k = 4, N = 14 gives 1.25 at α = 0.05', () => {
    expect(nemenyiCd(4, 14, 0.05)).toBeCloseTo(1.25, 2);
  });

  it('refuses an unsupported α or k', () => {
    expect(() => nemenyiQ(1, 0.05)).toThrow(/k: expected an integer number of methods in 2…50/);
    expect(() => nemenyiQ(3, 0.01 as 0.05)).toThrow(/alpha: expected 0.05 or 0.1/);
  });
});

describe('critical-difference cliques', () => {
  it('groups runs of ranks within CD, dropping runs inside earlier ones (hand-checked)', () => {
    // Sorted ranks 1.0 (m2), 1.5 (m0), 2.6 (m3), 3.7 (m1) with CD 1.2.
    expect(cdCliques([1.5, 3.7, 1.0, 2.6], 1.2)).toEqual([
      [2, 0],
      [0, 3],
      [3, 1],
    ]);
    expect(cdCliques([1, 2, 3], 0.5)).toEqual([]);
    expect(cdCliques([1, 2, 3], 5)).toEqual([[0, 1, 2]]);
  });
});
