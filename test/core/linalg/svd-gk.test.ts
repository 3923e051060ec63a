/**
 * svd (QR + Golub–Kahan bidiagonalisation + bidiagonal divide and conquer) against numpy's
 * dgesdd singular values (svd-gk.py → svd-gk.json; the matrices are closed formulas rebuilt
 * here) and by identities: ‖A·V − U·Σ‖_F/‖A‖_F ≤ 2e-15·n, ‖UᵀU − I‖ and ‖VᵀV − I‖ ≤ 2e-15·n
 * (max entry), s descending and non-negative, |σ − σ_np| ≤ 1e-13·σ_max (both are backward
 * stable: absolute accuracy ≈ n·ε·‖A‖) on square, tall (QR first), wide, graded (κ ≈ 1e14),
 * rank-deficient, clustered and Hilbert (κ > 1/ε) matrices; the bidiagonal solver alone on
 * bidiagonals with zero entries, equal entries and a graded diagonal.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bidiagSvd } from '../../../src/core/linalg/bidiag-dc';
import { svd, svdTop, thinSvd } from '../../../src/core/linalg/kernels';
import type { Mat } from '../../../src/core/linalg/types';
import { fro, maxDiff, naiveMul, orthoError, randMat, scaleCols } from '../../helpers/mat';

const fixture = JSON.parse(
  readFileSync(join(__dirname, '../../fixtures/linalg/svd-gk.json'), 'utf8'),
) as { cases: { kind: string; rows: number; cols: number; s: number[] }[] };

/** The formulas of svd-gk.py. */
function build(kind: string, m: number, n: number): Mat {
  const A: Mat = { rows: m, cols: n, data: new Float64Array(m * n) };
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      const f = Math.sin(1 + 0.7 * i + 1.3 * j + 0.01 * i * j);
      let v: number;
      if (kind === 'sin') v = f;
      else if (kind === 'graded') v = f * 10 ** ((-14 * j) / (n - 1));
      else if (kind === 'rank5') {
        v = 0;
        for (let p = 0; p < 5; p++)
          v += Math.sin(1 + 0.3 * i * p + 0.2 * p) * Math.cos(0.5 + 0.17 * j * p + 0.1 * p);
      } else if (kind === 'cluster') v = (i === j ? 1 : 0) + 1e-9 * f;
      else v = 1 / (i + j + 1);
      A.data[i * n + j] = v;
    }
  }
  return A;
}

function expectSvd(A: Mat): ReturnType<typeof svd> {
  const r = Math.min(A.rows, A.cols);
  const out = svd(A);
  const { U, s, V } = out;
  expect([U.rows, U.cols, V.rows, V.cols, s.length]).toEqual([A.rows, r, A.cols, r, r]);
  for (let i = 0; i < r; i++) {
    expect(s[i]!).toBeGreaterThanOrEqual(0);
    if (i > 0) expect(s[i]!).toBeLessThanOrEqual(s[i - 1]!);
  }
  const n = Math.max(A.rows, A.cols);
  const AV = naiveMul(A, V);
  const US = scaleCols(U, s);
  expect(
    fro({ rows: AV.rows, cols: AV.cols, data: AV.data.map((x, k) => x - US.data[k]!) }),
  ).toBeLessThanOrEqual(2e-15 * n * Math.max(fro(A), Number.MIN_VALUE));
  expect(orthoError(U)).toBeLessThanOrEqual(2e-15 * n);
  expect(orthoError(V)).toBeLessThanOrEqual(2e-15 * n);
  return out;
}

describe('svd', () => {
  it.each(fixture.cases.map((c) => [`${c.kind} ${c.rows}×${c.cols}`, c] as const))(
    'matches numpy: %s',
    (_, c) => {
      const { s } = expectSvd(build(c.kind, c.rows, c.cols));
      const smax = c.s[0]!;
      for (let i = 0; i < c.s.length; i++)
        expect(Math.abs(s[i]! - c.s[i]!)).toBeLessThanOrEqual(1e-13 * smax);
    },
  );

  it.each([
    [65, 65],
    [97, 203],
    [260, 100],
    [161, 150],
  ])('random %i×%i', (m, n) => {
    expectSvd(randMat(m, n, m + 3 * n));
  });

  it.each([
    [500, 40],
    [30, 200],
    [2000, 64],
    [100, 1],
  ])('tall or wide and thin (QR, then thinSvd of R) %i×%i', (m, n) => {
    const A = randMat(m, n, 7 * m + n);
    const { s } = expectSvd(A);
    const ref = thinSvd(A).s;
    for (let i = 0; i < s.length; i++)
      expect(Math.abs(s[i]! - ref[i]!)).toBeLessThanOrEqual(1e-13 * ref[0]!);
  });

  it('small problems that are not tall are thinSvd exactly', () => {
    const A = randMat(40, 30, 4);
    const a = svd(A);
    const b = thinSvd(A);
    expect(Array.from(a.s)).toEqual(Array.from(b.s));
    expect(maxDiff(a.U, b.U)).toBe(0);
  });

  it('zero matrix and huge or tiny scales', () => {
    const Z: Mat = { rows: 90, cols: 70, data: new Float64Array(6300) };
    const { s } = expectSvd(Z);
    expect(Array.from(s).every((x) => x === 0)).toBe(true);
    const A = build('sin', 100, 80);
    const ref = svd(A).s;
    for (const f of [1e300, 1e-300]) {
      const { s: sf } = expectSvd({ rows: 100, cols: 80, data: A.data.map((x) => x * f) });
      for (let i = 0; i < 80; i++)
        expect(Math.abs(sf[i]! / f - ref[i]!)).toBeLessThanOrEqual(1e-13 * ref[0]!);
    }
  });

  it('non-finite input throws', () => {
    const A = randMat(70, 70, 1);
    A.data[5] = NaN;
    expect(() => svd(A)).toThrow(/non-finite/);
  });
});

describe('svdTop', () => {
  /** The first r columns of M (n×q), row-major. */
  const lead = (M: Mat, r: number): number[] => {
    const out: number[] = [];
    for (let i = 0; i < M.rows; i++) for (let j = 0; j < r; j++) out.push(M.data[i * M.cols + j]!);
    return out;
  };

  it.each([
    [169, 0],
    [169, 1],
    [169, 17],
    [169, 84],
    [169, 169],
    [210, 5],
    [210, 209],
    [65, 33],
    [40, 7],
  ])('n = %i, r = %i: the first r columns of svd, bit for bit', (n, r) => {
    const A = randMat(n, n, 11 * n + r);
    const full = svd(A);
    let seen: number[] = [];
    const top = svdTop(A, (s) => {
      seen = Array.from(s);
      return r;
    });
    expect(seen).toEqual(Array.from(full.s));
    expect(Array.from(top.s)).toEqual(Array.from(full.s));
    expect([top.U.rows, top.U.cols, top.V.rows, top.V.cols]).toEqual([n, r, n, r]);
    expect(Array.from(top.U.data)).toEqual(lead(full.U, r));
    expect(Array.from(top.V.data)).toEqual(lead(full.V, r));
  });

  it('the kept count is clamped to 0…n; a non-square A throws', () => {
    const A = randMat(70, 70, 2);
    expect(svdTop(A, () => 99).U.cols).toBe(70);
    expect(svdTop(A, () => -3).U.cols).toBe(0);
    expect(() => svdTop(randMat(70, 60, 3), () => 1)).toThrow(/square/);
  });
});

describe('bidiagSvd (divide and conquer)', () => {
  function check(d: Float64Array, e: Float64Array): Float64Array {
    const n = d.length;
    const { u, s, v } = bidiagSvd(d, e, n);
    let bn = 0;
    for (let i = 0; i < n; i++) bn = Math.max(bn, Math.abs(d[i]!) + Math.abs(e[i] ?? 0));
    let res = 0;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const bv = d[i]! * v[i * n + j]! + (i + 1 < n ? e[i]! * v[(i + 1) * n + j]! : 0);
        res = Math.max(res, Math.abs(bv - u[i * n + j]! * s[j]!));
      }
    }
    expect(res).toBeLessThanOrEqual(2e-15 * n * Math.max(bn, Number.MIN_VALUE));
    expect(orthoError({ rows: n, cols: n, data: u })).toBeLessThanOrEqual(2e-15 * n);
    expect(orthoError({ rows: n, cols: n, data: v })).toBeLessThanOrEqual(2e-15 * n);
    for (let i = 1; i < n; i++) expect(s[i]!).toBeLessThanOrEqual(s[i - 1]!);
    return s;
  }
  const n = 150;
  const r = randMat(2, n, 9).data;
  it.each([
    ['random', (i: number) => r[i]!, (i: number) => r[n + i]!],
    ['zeros on the diagonal', (i: number) => (i % 3 === 0 ? 0 : r[i]!), (i: number) => r[n + i]!],
    ['zeros off the diagonal', (i: number) => r[i]!, (i: number) => (i % 5 === 0 ? 0 : r[n + i]!)],
    ['all ones', () => 1, () => 1],
    ['graded', (i: number) => 10 ** ((-14 * i) / n), (i: number) => 10 ** ((-14 * i) / n)],
    ['diagonal', (i: number) => Math.abs(r[i]!), () => 0],
    ['equal pairs', (i: number) => 1 + (i % 2) * 1e-15, () => 1e-9],
  ])('%s', (_, fd, fe) => {
    check(
      Float64Array.from({ length: n }, (_x, i) => fd(i)),
      Float64Array.from({ length: n - 1 }, (_x, i) => fe(i)),
    );
  });

  it('2×2 by hand: [3 4; 0 5] has singular values 3√5 and √5', () => {
    const s = check(Float64Array.of(3, 5), Float64Array.of(4));
    expect(s[0]).toBeCloseTo(3 * Math.sqrt(5), 14);
    expect(s[1]).toBeCloseTo(Math.sqrt(5), 14);
  });
});
