/**
 * Selection (`linalg/median.ts`) against the sorted array it stands in for: the same k-th value
 * and the same median, on random data with many ties, sorted and reversed input, and the
 * smallest lengths.
 */
import { describe, expect, it } from 'vitest';
import { medianInPlace, selectInPlace } from '../../../src/core/linalg/median';
import { createRng } from '../../../src/core/random';

function sortedMedian(a: Float64Array): number {
  const s = Float64Array.from(a).sort();
  const h = s.length >> 1;
  return s.length % 2 === 1 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
}

describe('selection and median', () => {
  const r = createRng(5);
  const rng = (): number => r.next();
  const cases: [string, Float64Array][] = [
    ['one value', Float64Array.of(3.5)],
    ['two values', Float64Array.of(2, -1)],
    ['all equal', new Float64Array(101).fill(0.25)],
    ['ascending', Float64Array.from({ length: 1000 }, (_, i) => i / 7)],
    ['descending', Float64Array.from({ length: 999 }, (_, i) => -i)],
    [
      'few distinct values (ties)',
      Float64Array.from({ length: 5000 }, () => Math.floor(rng() * 4)),
    ],
    ['uniform, odd length', Float64Array.from({ length: 4097 }, () => rng())],
    ['uniform, even length', Float64Array.from({ length: 4096 }, () => rng() - 0.5)],
    [
      'zeros and a spread',
      Float64Array.from({ length: 2000 }, (_, i) => (i % 3 ? 0 : rng() * 1e6)),
    ],
  ];
  it.each(cases)('%s: the median of the sorted array', (_, a) => {
    expect(medianInPlace(Float64Array.from(a))).toBe(sortedMedian(a));
  });
  it.each(cases)('%s: every probed order statistic, with the partition around it', (_, a) => {
    const sorted = Float64Array.from(a).sort();
    const m = a.length;
    for (const k of new Set([0, m - 1, m >> 1, Math.floor(m / 3), Math.floor((2 * m) / 3)])) {
      const b = Float64Array.from(a);
      const x = selectInPlace(b, k);
      expect(x).toBe(sorted[k]);
      for (let i = 0; i < k; i++) expect(b[i]!).toBeLessThanOrEqual(x);
      for (let i = k + 1; i < m; i++) expect(b[i]!).toBeGreaterThanOrEqual(x);
      expect(Float64Array.from(b).sort()).toEqual(sorted); // a permutation of the input
    }
  });
  it('refuses an empty array', () => {
    expect(() => medianInPlace(new Float64Array(0))).toThrow(/empty/);
  });
});
