/**
 * Batched transforms: contiguous batches (with gaps) and the columns of a row-major n × c
 * matrix (CGL's F̄_v), each checked against transforming the signals one at a time.
 */
import { describe, expect, it } from 'vitest';
import {
  createFftPlan,
  createRealFftPlan,
  fftBatch,
  fftColumns,
  irfftBatch,
  irfftColumns,
  rfftBatch,
  rfftColumns,
} from '../../../src/core/fft';
import { maxAbsDiff, naiveDft, randomReal } from '../../helpers/fft-naive';

/** max_q |a_q − b_q|. */
function maxDiff(a: Float64Array, b: Float64Array): number {
  let m = 0;
  for (let q = 0; q < a.length; q++) m = Math.max(m, Math.abs(a[q]! - b[q]!));
  return m;
}

/** Row i, column j of a row-major matrix with `cols` columns. */
const at = (a: Float64Array, cols: number, i: number, j: number): number => a[i * cols + j]!;

describe('fftBatch', () => {
  it.each([false, true])('count signals at distance dist, gaps untouched (inverse: %s)', (inv) => {
    const [n, count, dist] = [12, 5, 15];
    const plan = createFftPlan(n);
    const re = randomReal(count * dist, 1);
    const im = randomReal(count * dist, 2);
    const [re0, im0] = [re.slice(), im.slice()];
    fftBatch(plan, re, im, count, dist, inv);
    for (let b = 0; b < count; b++) {
      const one = { re: re0.slice(b * dist, b * dist + n), im: im0.slice(b * dist, b * dist + n) };
      if (inv) plan.inverse(one.re, one.im);
      else plan.forward(one.re, one.im);
      const got = { re: re.slice(b * dist, b * dist + n), im: im.slice(b * dist, b * dist + n) };
      expect(maxAbsDiff(got, one)).toBe(0);
      for (let q = b * dist + n; q < (b + 1) * dist; q++) expect(re[q]).toBe(re0[q]);
    }
  });

  it('refuses a distance shorter than the length', () => {
    const plan = createFftPlan(8);
    expect(() => fftBatch(plan, new Float64Array(64), new Float64Array(64), 8, 4)).toThrow(
      /fftBatch: need an integer count ≥ 0 and dist ≥ 8/,
    );
  });
});

describe('fftColumns', () => {
  it('transforms each column of a row-major n × c matrix, and back', () => {
    const [n, c] = [45, 7];
    const plan = createFftPlan(n);
    const re = randomReal(n * c, 3);
    const im = randomReal(n * c, 4);
    const [re0, im0] = [re.slice(), im.slice()];
    fftColumns(plan, re, im, c);
    for (let j = 0; j < c; j++) {
      const col = {
        re: Float64Array.from({ length: n }, (_, i) => at(re0, c, i, j)),
        im: Float64Array.from({ length: n }, (_, i) => at(im0, c, i, j)),
      };
      const want = naiveDft(col);
      const got = {
        re: Float64Array.from({ length: n }, (_, s) => at(re, c, s, j)),
        im: Float64Array.from({ length: n }, (_, s) => at(im, c, s, j)),
      };
      expect(maxAbsDiff(got, want)).toBeLessThan(1e-12);
    }
    fftColumns(plan, re, im, c, true);
    expect(maxDiff(re, re0)).toBeLessThan(1e-14);
    expect(maxDiff(im, im0)).toBeLessThan(1e-14);
  });

  it('refuses a matrix of the wrong size', () => {
    const plan = createFftPlan(10);
    expect(() => fftColumns(plan, new Float64Array(29), new Float64Array(30), 3)).toThrow(
      'fftColumns: a 10 × 3 matrix needs 30 elements, got 29',
    );
  });
});

describe('real batches and columns', () => {
  it.each([2000, 2003])('rfftBatch / irfftBatch of contiguous signals (n = %i)', (n) => {
    const count = 2;
    const plan = createRealFftPlan(n);
    const x = randomReal(count * n, 5);
    const re = new Float64Array(count * plan.bins);
    const im = new Float64Array(count * plan.bins);
    rfftBatch(plan, x, count, re, im);
    for (let b = 0; b < count; b++) {
      const want = naiveDft({ re: x.slice(b * n, (b + 1) * n), im: new Float64Array(n) });
      const got = {
        re: re.slice(b * plan.bins, (b + 1) * plan.bins),
        im: im.slice(b * plan.bins, (b + 1) * plan.bins),
      };
      expect(maxAbsDiff(got, want, plan.bins)).toBeLessThan(1e-11);
    }
    const back = new Float64Array(count * n);
    irfftBatch(plan, re, im, count, back);
    expect(maxDiff(back, x)).toBeLessThan(1e-14);
  });

  it.each([60, 61])('rfftColumns / irfftColumns of a row-major n × c matrix (n = %i)', (n) => {
    const c = 4;
    const plan = createRealFftPlan(n);
    const x = randomReal(n * c, 6);
    const re = new Float64Array(plan.bins * c);
    const im = new Float64Array(plan.bins * c);
    rfftColumns(plan, x, c, re, im);
    for (let j = 0; j < c; j++) {
      const col = Float64Array.from({ length: n }, (_, i) => at(x, c, i, j));
      const want = naiveDft({ re: col, im: new Float64Array(n) });
      for (let s = 0; s < plan.bins; s++) {
        expect(at(re, c, s, j)).toBeCloseTo(want.re[s]!, 12);
        expect(at(im, c, s, j)).toBeCloseTo(want.im[s]!, 12);
      }
    }
    const back = new Float64Array(n * c);
    irfftColumns(plan, re, im, c, back);
    expect(maxDiff(back, x)).toBeLessThan(1e-14);
  });

  it('a complex column transform of real data matches the real one (CGL: g_{v,s})', () => {
    const [n, c] = [169, 3];
    const x = randomReal(n * c, 8);
    const cplx = { re: x.slice(), im: new Float64Array(n * c) };
    fftColumns(createFftPlan(n), cplx.re, cplx.im, c);
    const plan = createRealFftPlan(n);
    const re = new Float64Array(plan.bins * c);
    const im = new Float64Array(plan.bins * c);
    rfftColumns(plan, x, c, re, im);
    expect(maxDiff(re, cplx.re.subarray(0, plan.bins * c))).toBeLessThan(1e-12);
    expect(maxDiff(im, cplx.im.subarray(0, plan.bins * c))).toBeLessThan(1e-12);
  });
});
