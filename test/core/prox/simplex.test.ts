/**
 * Row projection onto the simplex against numpy's sort rule (test/fixtures/prox/make.py), to
 * 1e-12 for the references' Newton scheme (its stopping rule is |f| ≤ 1e-10 on the sum, met
 * far tighter in practice) and 1e-15 for the sort path; every row ends ≥ 0 summing to 1.
 */
import { describe, expect, it } from 'vitest';
import { projectRowsToSimplex, projectSimplex } from '../../../src/core/prox/simplex';
import { jsonMat, readFixture, relDiff, type JsonMat } from '../../helpers/json-fixture';

const ref = readFixture<{ simplex: { A: JsonMat; X: JsonMat } }>('prox', 'prox.json').simplex;

describe('prox/simplex', () => {
  it('projects every row as numpy, by either method', () => {
    const A = jsonMat(ref.A);
    const Xn = projectRowsToSimplex(A);
    expect(relDiff(Xn, jsonMat(ref.X))).toBeLessThanOrEqual(1e-12);
    expect(relDiff(projectRowsToSimplex(A, undefined, 'sort'), jsonMat(ref.X))).toBeLessThanOrEqual(
      1e-15,
    );
    for (let i = 0; i < A.rows; i++) {
      const row = Xn.data.subarray(i * A.cols, (i + 1) * A.cols);
      expect(Math.min(...row)).toBeGreaterThanOrEqual(0);
      expect(Math.abs(row.reduce((a, b) => a + b, 0) - 1)).toBeLessThanOrEqual(1e-12);
    }
  });

  it('re-exports the vector projection and works in place', () => {
    expect(Array.from(projectSimplex([2, 0]))).toEqual([1, 0]);
    const A = jsonMat(ref.A);
    const X = projectRowsToSimplex(A);
    projectRowsToSimplex(A, A);
    expect(Array.from(A.data)).toEqual(Array.from(X.data));
  });
});
