/**
 * The reference's unit-L2 scaling: Octave's scaled norm by hand (exact cases, no overflow or
 * underflow where Σx² would), against Math.hypot within two ulps on random data, and the view
 * scaling (dense and CSR give the same values; the 1e-12 floor; zero rows stay zero).
 */
import { describe, expect, it } from 'vitest';
import { createRng } from '../../../src/core/random';
import { referenceUnitRowsView, scaledNorm2 } from '../../../src/core/views/reference-norm';
import { denseView, handViews } from '../../helpers/toy';

describe('scaledNorm2', () => {
  it('hand cases', () => {
    expect(scaledNorm2(Float64Array.from([3, 4]))).toBe(5);
    expect(scaledNorm2(Float64Array.from([0, 0, 0]))).toBe(0);
    expect(scaledNorm2(Float64Array.from([-2, 0, 2]))).toBe(2 * Math.SQRT2);
    // Σx² overflows (1e600) and underflows (1e-600) here; the scaled sum does not.
    expect(scaledNorm2(Float64Array.from([1e300, 1e300]))).toBeCloseTo(Math.SQRT2 * 1e300, -285);
    expect(scaledNorm2(Float64Array.from([3e-300, 4e-300])) / 5e-300).toBeCloseTo(1, 14);
    expect(scaledNorm2(Float64Array.from([9, 3, 4, 12]), 1, 3)).toBe(5);
  });

  it('equals Math.hypot within two ulps', () => {
    const rng = createRng(3);
    for (let t = 0; t < 200; t++) {
      const x = Float64Array.from({ length: 1 + (t % 37) }, () => rng.next() * 10 - 5);
      const h = Math.hypot(...x);
      expect(Math.abs(scaledNorm2(x) - h)).toBeLessThanOrEqual(4 * Number.EPSILON * h);
    }
  });
});

describe('referenceUnitRowsView', () => {
  it('divides by max(1e-12, ‖x‖); dense and CSR agree; the input is not changed', () => {
    const { dense, csr } = handViews();
    const d = referenceUnitRowsView(dense).values.data;
    expect([...d]).toEqual([
      1 / scaledNorm2(Float64Array.from([1, 2])),
      2 / scaledNorm2(Float64Array.from([1, 2])),
      3 / scaledNorm2(Float64Array.from([3, 6])),
      6 / scaledNorm2(Float64Array.from([3, 6])),
    ]);
    for (let t = 0; t < 4; t++)
      expect(
        Math.abs(d[t]! - dense.values.data[t]! / Math.hypot(...(t < 2 ? [1, 2] : [3, 6]))),
      ).toBeLessThan(1e-15);
    expect([...referenceUnitRowsView(csr).values.data]).toEqual([
      1,
      2 / scaledNorm2(Float64Array.from([2, 8])),
      8 / scaledNorm2(Float64Array.from([2, 8])),
    ]);
    expect(dense.values.data[0]).toBe(1);
    // A zero sample stays 0; a tiny one is divided by the floor 1e-12, not by its norm.
    const tiny = denseView(
      't',
      [0, 1],
      [
        [0, 0],
        [1e-13, 0],
      ],
    );
    expect([...referenceUnitRowsView(tiny).values.data]).toEqual([0, 0, 1e-13 / 1e-12, 0]);
  });
});
