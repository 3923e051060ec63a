/**
 * Squared distances against scipy's cdist('sqeuclidean') (test/fixtures/kernels/make.py), to
 * 1e-13 of the largest distance: the expansion ‖x‖² + ‖y‖² − 2x·y loses only that much on
 * these unit-scale points. Plus the self form's promises: exact symmetry, zero diagonal, ≥ 0.
 */
import { describe, expect, it } from 'vitest';
import { squaredDistances } from '../../../src/core/kernels/distances';
import { jsonMat, readFixture, relDiff, type JsonMat } from '../../helpers/json-fixture';
import { randMat } from '../../helpers/mat';

const ref = readFixture<{ X: JsonMat; Y: JsonMat; Dxx: JsonMat; Dxy: JsonMat }>(
  'kernels',
  'kernels.json',
);
const X = jsonMat(ref.X);
const Y = jsonMat(ref.Y);

describe('kernels/distances', () => {
  it('matches cdist among the rows of X and against the rows of Y', () => {
    expect(relDiff(squaredDistances(X), jsonMat(ref.Dxx))).toBeLessThanOrEqual(1e-13);
    const Dxy = squaredDistances(X, Y);
    expect([Dxy.rows, Dxy.cols]).toEqual([X.rows, Y.rows]);
    expect(relDiff(Dxy, jsonMat(ref.Dxy))).toBeLessThanOrEqual(1e-13);
  });

  it('gives an exactly symmetric, non-negative matrix with a zero diagonal', () => {
    const A = randMat(40, 7, 3);
    // Duplicate rows: the expansion rounds their distance to a tiny value or to 0, never below.
    A.data.copyWithin(7, 0, 7);
    const D = squaredDistances(A);
    for (let i = 0; i < 40; i++) {
      expect(D.data[i * 40 + i]).toBe(0);
      for (let j = 0; j < 40; j++) {
        expect(D.data[i * 40 + j]).toBe(D.data[j * 40 + i]);
        expect(D.data[i * 40 + j]).toBeGreaterThanOrEqual(0);
      }
    }
    expect(D.data[1]).toBeLessThanOrEqual(1e-14);
  });

  it('refuses mismatched widths', () => {
    expect(() => squaredDistances(X, randMat(2, 4, 1))).toThrow(/3 columns, Y has 4/);
  });
});
