/**
 * Real transforms of many columns at once (`forwardColumns` / `inverseColumns`, on a panel in a
 * `ColumnWork` (`src/core/fft/panel.ts`) or column by column without one): bit for bit the
 * single-column transforms, for even and odd lengths, every radix, Bluestein lengths (also
 * split into sub-panels) and length 1; columns with offsets inside wider matrices (the rest
 * untouched); a work object reused across lengths and counts; argument checks.
 */
import { describe, expect, it } from 'vitest';
import { ColumnWork, createRealFftPlan } from '../../../src/core/fft';
import { randomReal } from '../../helpers/fft-naive';

/** Lengths through every pass kind: radix 2, 3, 4, 5, 8, generic odd (7, 11, 13, 97), Bluestein. */
const LENGTHS = [1, 2, 3, 4, 5, 7, 8, 12, 13, 16, 22, 30, 49, 60, 61, 97, 121, 169, 257, 1000];
const BIG = [1009, 2000, 2003, 4096];

/** The same arrays, element for element (Object.is: signed zeros and NaN too). */
function sameBits(a: Float64Array, b: Float64Array): boolean {
  return a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
}

/**
 * `count` columns at offset `off` of row-major matrices with `row` ≥ count columns: the panel
 * transforms against one `forward` / `inverse` per column.
 */
function compare(
  n: number,
  count: number,
  off: number,
  row: number,
  seed: number,
  work: ColumnWork | undefined = new ColumnWork(),
): void {
  const plan = createRealFftPlan(n);
  const bins = plan.bins;
  const x = randomReal(n * row + off, seed);
  const yRow = row + 2;
  const one = {
    re: randomReal(bins * yRow + 1, seed + 1),
    im: randomReal(bins * yRow + 1, seed + 2),
  };
  const all = { re: one.re.slice(), im: one.im.slice() };
  for (let b = 0; b < count; b++) plan.forward(x, one.re, one.im, off + b, row, 1 + b, yRow);
  plan.forwardColumns(count, x, off, row, all.re, all.im, 1, yRow, work);
  expect(sameBits(all.re, one.re), `rfft n = ${n}, count = ${count}`).toBe(true);
  expect(sameBits(all.im, one.im), `rfft n = ${n}, count = ${count}`).toBe(true);
  // The inverse of arbitrary (non-Hermitian-consistent) bins: the same reading of them.
  const spec = {
    re: randomReal(bins * yRow + 1, seed + 3),
    im: randomReal(bins * yRow + 1, seed + 4),
  };
  const back1 = randomReal(n * row + off, seed + 5);
  const back2 = back1.slice();
  for (let b = 0; b < count; b++) plan.inverse(spec.re, spec.im, back1, 1 + b, yRow, off + b, row);
  plan.inverseColumns(count, spec.re, spec.im, 1, yRow, back2, off, row, work);
  expect(sameBits(back2, back1), `irfft n = ${n}, count = ${count}`).toBe(true);
}

describe('forwardColumns / inverseColumns', () => {
  it('equal one transform per column, bit for bit (every radix, odd, Bluestein, n = 1)', () => {
    let seed = 1;
    const shared = new ColumnWork();
    for (const n of LENGTHS)
      for (const [count, off, row] of [
        [1, 0, 1],
        [3, 2, 7],
        [10, 0, 10],
      ] as const) {
        compare(n, count, off, row, seed++);
        compare(n, count, off, row, seed++, shared);
        compare(n, count, off, row, seed++, undefined);
      }
    for (const n of BIG) compare(n, 6, 1, 9, seed++, shared);
  });

  it('Bluestein lengths whose panel is split into sub-panels', () => {
    // Length 10007 (prime): its convolution length 32768 fits two signals per sub-panel.
    compare(10007, 5, 1, 6, 90);
    compare(2 * 10007, 5, 0, 5, 91);
  });

  it('round trip: inverseColumns(forwardColumns(x)) = x', () => {
    const [n, c] = [2000, 60];
    const plan = createRealFftPlan(n);
    const x = randomReal(n * c, 7);
    const re = new Float64Array(plan.bins * c);
    const im = new Float64Array(plan.bins * c);
    const work = new ColumnWork();
    plan.forwardColumns(c, x, 0, c, re, im, 0, c, work);
    const back = new Float64Array(n * c);
    plan.inverseColumns(c, re, im, 0, c, back, 0, c, work);
    let err = 0;
    for (let i = 0; i < x.length; i++) err = Math.max(err, Math.abs(back[i]! - x[i]!));
    expect(err).toBeLessThan(1e-14);
  });

  it('refuses columns outside the arrays or overlapping rows; zero columns do nothing', () => {
    const plan = createRealFftPlan(8);
    const x = new Float64Array(8 * 4);
    const re = new Float64Array(5 * 4);
    const im = new Float64Array(5 * 4);
    expect(() => plan.forwardColumns(4, x, 0, 3, re, im, 0, 4)).toThrow(
      'rfft: 4 columns x[0 + j·3 + b], j < 8, need count ≥ 1, rowStride ≥ count and index 24 < 32',
    );
    expect(() => plan.forwardColumns(4, x, 1, 4, re, im, 0, 4)).toThrow(/index 32 < 32/);
    expect(() => plan.inverseColumns(2, re, im, 0, 4, x, 3, 4)).toThrow(
      'irfft: 2 columns x[3 + j·4 + b], j < 8, need count ≥ 1, rowStride ≥ count and index 32 < 32',
    );
    expect(() => plan.inverseColumns(2, re, im.subarray(3), 0, 4, x, 0, 4)).toThrow(
      /irfft: 2 columns im/,
    );
    x.fill(7);
    plan.inverseColumns(0, re, im, 0, 4, x, 0, 4);
    expect(x.every((v) => v === 7)).toBe(true);
  });
});
