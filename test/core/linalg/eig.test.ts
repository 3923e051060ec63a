/**
 * symEig by its identities: A·V = V·Λ and VᵀV = I (relative to ‖A‖_F, tolerance 1e-13, about
 * 50·n·ε for these sizes), values ascending; hand-checkable 2×2; repeated eigenvalues, diagonal
 * and zero matrices. The numpy comparison lives in reference.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { qr, symEig, symEigValues } from '../../../src/core/linalg/kernels';
import type { Mat } from '../../../src/core/linalg/types';
import {
  at,
  fro,
  maxDiff,
  naiveMul,
  orthoError,
  randMat,
  randSym,
  scaleCols,
  transpose,
} from '../../helpers/mat';

const TOL = 1e-13;

function expectEigenpairs(A: Mat): { values: Float64Array; vectors: Mat } {
  const { values, vectors: V } = symEig(A);
  const n = A.rows;
  expect(values.length).toBe(n);
  expect([V.rows, V.cols]).toEqual([n, n]);
  expect(values.every((x, i) => i === 0 || x >= values[i - 1]!)).toBe(true);
  const scale = Math.max(fro(A), Number.MIN_VALUE);
  expect(maxDiff(naiveMul(A, V), scaleCols(V, values)) / scale).toBeLessThanOrEqual(TOL);
  expect(orthoError(V)).toBeLessThanOrEqual(TOL);
  return { values, vectors: V };
}

/** Q·diag(λ)·Qᵀ with Q = I − 2uuᵀ/uᵀu, an exactly orthogonal reflector up to rounding. */
function withSpectrum(lambda: number[], seed: number): Mat {
  const n = lambda.length;
  const u = randMat(n, 1, seed).data;
  const uu = u.reduce((s, x) => s + x * x, 0);
  const Q: Mat = { rows: n, cols: n, data: new Float64Array(n * n) };
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) Q.data[i * n + j] = (i === j ? 1 : 0) - (2 * u[i]! * u[j]!) / uu;
  }
  return naiveMul(scaleCols(Q, lambda), transpose(Q));
}

describe('symEig', () => {
  it('2×2 by hand: [[2, 1], [1, 2]] has 1 with (1, −1)/√2 and 3 with (1, 1)/√2', () => {
    const { values, vectors: V } = expectEigenpairs({
      rows: 2,
      cols: 2,
      data: Float64Array.of(2, 1, 1, 2),
    });
    expect(values[0]).toBeCloseTo(1, 14);
    expect(values[1]).toBeCloseTo(3, 14);
    expect(Math.abs(at(V, 0, 0) + at(V, 1, 0))).toBeLessThan(1e-15);
    expect(Math.abs(at(V, 0, 1) - at(V, 1, 1))).toBeLessThan(1e-15);
  });

  it.each([1, 3, 17, 64, 150])('random symmetric %i×%i', (n) => {
    expectEigenpairs(randSym(n, n));
  });

  it('repeated eigenvalues: the values come back and the eigenvectors stay orthonormal', () => {
    const lambda = [3, -1, 3, 3, 0.5, -1, 3, 2, 2, 0.5, 3, -1];
    const { values } = expectEigenpairs(withSpectrum(lambda, 9));
    const sorted = [...lambda].sort((a, b) => a - b);
    sorted.forEach((l, i) => expect(Math.abs(values[i]! - l)).toBeLessThanOrEqual(1e-14 * 12));
  });

  it('a diagonal matrix: sorted diagonal, and a permutation of the identity', () => {
    const d = [4, -2, 0, 4, 1e-3, -7];
    const A: Mat = { rows: 6, cols: 6, data: new Float64Array(36) };
    d.forEach((x, i) => (A.data[i * 6 + i] = x));
    const { values, vectors: V } = expectEigenpairs(A);
    expect(Array.from(values)).toEqual([...d].sort((a, b) => a - b));
    for (const x of V.data) expect([0, 1]).toContain(Math.abs(x));
  });

  it('the zero matrix: zero eigenvalues and V = I', () => {
    const { values, vectors: V } = expectEigenpairs({
      rows: 5,
      cols: 5,
      data: new Float64Array(25),
    });
    expect(Array.from(values)).toEqual([0, 0, 0, 0, 0]);
    for (let i = 0; i < 5; i++)
      for (let j = 0; j < 5; j++) expect(at(V, i, j)).toBe(i === j ? 1 : 0);
  });

  it.each([
    [300, 10],
    [200, 3],
    [400, 100],
  ])(
    'low rank (n = %i, rank %i): the null space is rounding noise after tridiagonalisation, and converges',
    (n, rank) => {
      // A = Q_r·diag(λ)·Q_rᵀ with Q_r (n×r) orthonormal from a QR of a random matrix: the n − r
      // zero eigenvalues leave a tridiagonal block of ~1e-17 couplings that only a norm-relative
      // split test ends (it once failed "QL did not converge").
      const G = randMat(n, rank, n + rank);
      const { Q } = qr(G);
      const lambda = Array.from({ length: rank }, (_, i) => (i % 2 ? -1 : 1) * (1 + i));
      const QL = scaleCols(Q, Float64Array.from(lambda));
      const A = naiveMul(QL, transpose(Q));
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < i; j++) {
          const m = 0.5 * (A.data[i * n + j]! + A.data[j * n + i]!);
          A.data[i * n + j] = m;
          A.data[j * n + i] = m;
        }
      }
      const { values } = expectEigenpairs(A);
      const want = [...lambda, ...new Array<number>(n - rank).fill(0)].sort((a, b) => a - b);
      expect(
        maxDiff(
          { rows: 1, cols: n, data: values },
          { rows: 1, cols: n, data: Float64Array.from(want) },
        ),
      ).toBeLessThan(1e-12 * rank);
    },
  );

  it('the empty matrix', () => {
    const { values, vectors } = symEig({ rows: 0, cols: 0, data: new Float64Array(0) });
    expect(values.length).toBe(0);
    expect(vectors.data.length).toBe(0);
  });

  it('tiny and huge scales: no underflow or overflow', () => {
    for (const s of [1e-300, 1e300]) {
      const A = randSym(8, 4);
      const B: Mat = { rows: 8, cols: 8, data: A.data.map((x) => x * s) };
      const { values } = expectEigenpairs(B);
      const ref = symEig(A).values;
      ref.forEach((l, i) => expect(Math.abs(values[i]! / s - l)).toBeLessThanOrEqual(1e-14 * 8));
    }
  });

  it('uses the symmetric part ½(A + Aᵀ): adding an antisymmetric K changes nothing', () => {
    const S = randSym(10, 21);
    const R = randMat(10, 10, 22);
    const Rt = transpose(R);
    const A: Mat = { rows: 10, cols: 10, data: S.data.map((x, k) => x + R.data[k]! - Rt.data[k]!) };
    const a = symEig(A).values;
    const b = symEig(S).values;
    a.forEach((x, i) => expect(Math.abs(x - b[i]!)).toBeLessThanOrEqual(1e-14 * fro(S)));
  });

  it('rejects a non-square or non-finite A', () => {
    expect(() => symEig(randMat(2, 3, 1))).toThrow(/symEig: A is 2x3, not square/);
    const A = randSym(3, 1);
    A.data[4] = NaN;
    expect(() => symEig(A)).toThrow(/symEig: A\[1, 1\] is not finite/);
  });
});

describe('symEigValues', () => {
  it('equals the values of symEig', () => {
    const A = randSym(40, 3);
    const all = symEig(A).values;
    const only = symEigValues(A);
    all.forEach((x, i) => expect(Math.abs(x - only[i]!)).toBeLessThanOrEqual(1e-13 * fro(A)));
  });
});
