/**
 * The large-n route of symEig (blocked tridiagonalisation, divide and conquer, back-transformation
 * in GEMM; `symEigLargeRoute` forces it at small n) and symEigSelect, against numpy/scipy
 * (test/fixtures/linalg/eigh.py → eigh.json) and by identities. Tolerances, with n the order and
 * ‖A‖₂ = max |λ|:
 * - residual ‖A·V − V·Λ‖_F/‖A‖_F ≤ 1e-13·n and orthogonality ‖VᵀV − I‖_F ≤ 1e-13·n (a backward
 *   stable method gives a few n·ε; 1e-13·n leaves room for ~450·ε per row);
 * - eigenvalues vs numpy's: |λ − λ_np| ≤ 1e-13·n·‖A‖₂ (both backward stable: Weyl's bound);
 * - eigenvectors vs numpy's (distinct eigenvalues): ‖v ∓ v_np‖ ≤ 1e-13·n·‖A‖₂/gap (Davis–Kahan);
 * - selected eigenvectors vs the full decomposition, as subspaces (signs and bases of repeated
 *   values are not unique): ‖V_s·V_sᵀ − V_f·V_fᵀ‖_F ≤ 1e-13·n·‖A‖₂/gap, gap the distance from the
 *   selected eigenvalues to the others.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LARGE_N, symEigLargeRoute } from '../../../src/core/linalg/eig';
import { tridiagonalDC } from '../../../src/core/linalg/eigh-dc';
import { symEig, symEigSelect, symEigValues } from '../../../src/core/linalg/kernels';
import type { Mat } from '../../../src/core/linalg/types';
import { fro, naiveMul, randMat, randSym, scaleCols, transpose } from '../../helpers/mat';

const TOL = 1e-13;

interface DenseCase {
  name: string;
  n: number;
  values: number[];
  A?: number[];
  vectorColumns?: number[];
  vectors?: number[];
}
interface TriCase {
  name: string;
  d: number[];
  e: number[];
  values: number[];
}
const ref = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../fixtures/linalg/eigh.json'), 'utf8'),
) as { dense: DenseCase[]; tridiagonal: TriCase[] };

const M31 = 2147483647;
/** eigh.py's hash_sym(n), bit for bit: integer arithmetic below 2⁵³ and one division. */
function hashSym(n: number): Mat {
  const data = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const s = Math.min(i, j) * n + Math.max(i, j) + 1;
      data[i * n + j] = ((s * 48271) % M31) / M31 - 0.5;
    }
  }
  return { rows: n, cols: n, data };
}

function denseOf(c: DenseCase): Mat {
  return c.A
    ? { rows: c.n, cols: c.n, data: Float64Array.from(c.A) }
    : c.name.startsWith('hash')
      ? hashSym(c.n)
      : (() => {
          throw new Error(`no matrix for ${c.name}`);
        })();
}

/** ‖VᵀV − I‖_F. */
function orthoFro(V: Mat): number {
  const G = naiveMul(transpose(V), V);
  let s = 0;
  for (let i = 0; i < G.rows; i++)
    for (let j = 0; j < G.cols; j++) s += (G.data[i * G.cols + j]! - (i === j ? 1 : 0)) ** 2;
  return Math.sqrt(s);
}

/** ‖A·V − V·Λ‖_F / ‖A‖_F (V n×k, Λ = diag(values)). */
function residual(A: Mat, values: Float64Array, V: Mat): number {
  const R = naiveMul(A, V);
  const VL = scaleCols(V, values);
  const D: Mat = { rows: R.rows, cols: R.cols, data: R.data.map((x, i) => x - VL.data[i]!) };
  return fro(D) / Math.max(fro(A), Number.MIN_VALUE);
}

function expectPairs(A: Mat, values: Float64Array, V: Mat): void {
  const n = A.rows;
  expect(values.every((x, i) => i === 0 || x >= values[i - 1]!)).toBe(true);
  expect(residual(A, values, V)).toBeLessThanOrEqual(TOL * Math.max(n, 1));
  expect(orthoFro(V)).toBeLessThanOrEqual(TOL * Math.max(n, 1));
}

function expectValuesNear(got: ArrayLike<number>, want: ArrayLike<number>, tol: number): void {
  expect(got.length).toBe(want.length);
  let worst = 0;
  for (let i = 0; i < want.length; i++) worst = Math.max(worst, Math.abs(got[i]! - want[i]!));
  expect(worst).toBeLessThanOrEqual(tol);
}

function column(V: Mat, j: number): Float64Array {
  return Float64Array.from({ length: V.rows }, (_, i) => V.data[i * V.cols + j]!);
}

/** ‖P − Q‖_F for the orthogonal projectors onto the column spans of U and W (same n). */
function projectorDistance(U: Mat, W: Mat): number {
  const n = U.rows;
  const P = naiveMul(U, transpose(U));
  const Q = naiveMul(W, transpose(W));
  let s = 0;
  for (let i = 0; i < n * n; i++) s += (P.data[i]! - Q.data[i]!) ** 2;
  return Math.sqrt(s);
}

function columns(V: Mat, from: number, count: number): Mat {
  const data = new Float64Array(V.rows * count);
  for (let r = 0; r < V.rows; r++)
    data.set(V.data.subarray(r * V.cols + from, r * V.cols + from + count), r * count);
  return { rows: V.rows, cols: count, data };
}

function tridiagonal(d: ArrayLike<number>, e: ArrayLike<number>): Mat {
  const n = d.length;
  const T: Mat = { rows: n, cols: n, data: new Float64Array(n * n) };
  for (let i = 0; i < n; i++) {
    T.data[i * n + i] = d[i]!;
    if (i + 1 < n) {
      T.data[i * n + i + 1] = e[i]!;
      T.data[(i + 1) * n + i] = e[i]!;
    }
  }
  return T;
}

describe('symEig, large-n route, against numpy (eigh.json)', () => {
  it.each(ref.dense.map((c) => [c.name, c] as const))('%s', (_, c) => {
    const A = denseOf(c);
    const n = c.n;
    const norm = Math.max(...c.values.map(Math.abs));
    const routes = n >= LARGE_N ? [symEig(A), symEigLargeRoute(A)] : [symEigLargeRoute(A)];
    for (const { values, vectors } of routes) {
      expectPairs(A, values, vectors);
      expectValuesNear(values, c.values, TOL * n * norm);
      if (c.vectors && c.vectorColumns) {
        c.vectorColumns.forEach((j, t) => {
          const want = Float64Array.from(c.vectors!.slice(t * n, (t + 1) * n));
          const got = column(vectors, j);
          const dotp = got.reduce((s, x, i) => s + x * want[i]!, 0);
          const sgn = dotp < 0 ? -1 : 1;
          const dist = Math.hypot(...Array.from(got, (x, i) => x - sgn * want[i]!));
          const gap = Math.min(
            j > 0 ? c.values[j]! - c.values[j - 1]! : Infinity,
            j < n - 1 ? c.values[j + 1]! - c.values[j]! : Infinity,
          );
          expect(dist).toBeLessThanOrEqual((TOL * n * norm) / gap);
        });
      }
    }
  });

  it('the 4 zero eigenvalues of the disconnected Laplacian span the components’ indicators', () => {
    const c = ref.dense.find((x) => x.name === 'laplacian120')!;
    const A = denseOf(c);
    const { values, vectors } = symEigLargeRoute(A);
    for (let j = 0; j < 4; j++) expect(Math.abs(values[j]!)).toBeLessThanOrEqual(TOL * 120 * 16);
    expect(values[4]!).toBeGreaterThan(0.01);
    // Each null vector is constant on each component: A·v = 0 ⇔ v_i = v_j for every edge (i, j).
    const V0 = columns(vectors, 0, 4);
    for (let i = 0; i < 120; i++) {
      for (let j = i + 1; j < 120; j++) {
        if (A.data[i * 120 + j] === 0) continue;
        for (let t = 0; t < 4; t++)
          expect(Math.abs(V0.data[i * 4 + t]! - V0.data[j * 4 + t]!)).toBeLessThan(1e-12);
      }
    }
  });

  it('a diagonal matrix comes back as its sorted diagonal with unit-vector eigenvectors', () => {
    const c = ref.dense.find((x) => x.name === 'diagonal65')!;
    const { values, vectors } = symEigLargeRoute(denseOf(c));
    expect(Array.from(values)).toEqual(c.values);
    for (const x of vectors.data) expect([0, 1]).toContain(Math.abs(x));
  });
});

describe('tridiagonalDC against scipy.linalg.eigh_tridiagonal (eigh.json)', () => {
  it.each(ref.tridiagonal.flatMap((c) => [[c.name, 32, c] as const, [c.name, 4, c] as const]))(
    '%s, QL leaves of ≤ %i rows',
    (_, leaf, c) => {
      const n = c.d.length;
      const d = Float64Array.from(c.d);
      const z = tridiagonalDC(d, Float64Array.from(c.e), n, leaf);
      const T = tridiagonal(c.d, c.e);
      expectPairs(T, d, { rows: n, cols: n, data: z });
      const norm = Math.max(...c.values.map(Math.abs));
      expectValuesNear(d, c.values, TOL * n * norm);
    },
  );

  it('(1, 2, 1) Toeplitz: eigenvalues 2 − 2cos(kπ/(n+1)) by hand', () => {
    const n = 257;
    const d = new Float64Array(n).fill(2);
    tridiagonalDC(d, new Float64Array(n - 1).fill(1), n);
    const want = Array.from(
      { length: n },
      (_, k) => 2 - 2 * Math.cos(((k + 1) * Math.PI) / (n + 1)),
    );
    expectValuesNear(d, want, TOL * n * 4);
  });

  it.each([1, 2, 3, 31, 32, 33, 63, 64, 65, 97])(
    'random tridiagonal of order %i around the leaf size (32)',
    (n) => {
      const r = randMat(2, n, n + 5).data;
      const d = r.slice(0, n);
      const e = r.slice(n, 2 * n - 1);
      const dd = d.slice();
      const z = tridiagonalDC(dd, e.slice(), n);
      expectPairs(tridiagonal(d, e), dd, { rows: n, cols: n, data: z });
    },
  );
});

describe('symEig across the route threshold and block sizes', () => {
  it.each([LARGE_N - 1, LARGE_N, LARGE_N + 1, 161, 193, 255])(
    'random of order %i: pairs by identity, values equal to the unblocked QL route’s',
    (n) => {
      const A = randSym(n, 1000 + n);
      const { values, vectors } = symEig(A);
      expectPairs(A, values, vectors);
      const large = symEigLargeRoute(A);
      const norm = Math.max(Math.abs(values[0]!), Math.abs(values[n - 1]!));
      expectValuesNear(large.values, values, TOL * n * norm);
      expectValuesNear(symEigValues(A), values, TOL * n * norm);
    },
  );

  it('n = 1 and n = 2 by hand on the large-n route', () => {
    const one = symEigLargeRoute({ rows: 1, cols: 1, data: Float64Array.of(-3) });
    expect(Array.from(one.values)).toEqual([-3]);
    expect(Math.abs(one.vectors.data[0]!)).toBe(1);
    const two = symEigLargeRoute({ rows: 2, cols: 2, data: Float64Array.of(2, 1, 1, 2) });
    expectValuesNear(two.values, [1, 3], 4e-16 * 3);
    const v = two.vectors.data;
    expect(Math.abs(v[0]! + v[2]!)).toBeLessThan(1e-15); // (1, −1)/√2 for λ = 1
    expect(Math.abs(v[1]! - v[3]!)).toBeLessThan(1e-15); // (1, 1)/√2 for λ = 3
  });

  it('many equal eigenvalues (heavy deflation): 150 × 1, 100 × −2, 50 distinct', () => {
    const n = 300;
    // A = H·diag(λ)·H with H = I − 2uuᵀ/uᵀu, formed entrywise.
    const lambda = Float64Array.from({ length: n }, (_, i) =>
      i < 150 ? 1 : i < 250 ? -2 : 3 + (i - 250) / 10,
    );
    const u = randMat(n, 1, 77).data;
    const uu = u.reduce((s, x) => s + x * x, 0);
    const H: Mat = { rows: n, cols: n, data: new Float64Array(n * n) };
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) H.data[i * n + j] = (i === j ? 1 : 0) - (2 * u[i]! * u[j]!) / uu;
    const A = naiveMul(scaleCols(H, lambda), H);
    const { values, vectors } = symEig(A);
    expectPairs(A, values, vectors);
    expectValuesNear(
      values,
      Array.from(lambda).sort((x, y) => x - y),
      TOL * n * 8,
    );
  });

  it('the zero matrix: zero values, orthonormal vectors', () => {
    const n = 140;
    const { values, vectors } = symEig({ rows: n, cols: n, data: new Float64Array(n * n) });
    expect(values.every((x) => x === 0)).toBe(true);
    expect(orthoFro(vectors)).toBeLessThanOrEqual(TOL);
  });
});

describe('symEigSelect', () => {
  const n = 260;
  const A = randSym(n, 4242);
  const full = symEig(A);
  const norm = Math.max(Math.abs(full.values[0]!), Math.abs(full.values[n - 1]!));

  it.each([
    [1, 'lowest'],
    [10, 'lowest'],
    [10, 'highest'],
    [50, 'highest'],
    [n, 'lowest'],
  ] as const)('k = %i %s: the same values and subspace as the full decomposition', (k, which) => {
    const { values, vectors } = symEigSelect(A, k, which);
    expect([vectors.rows, vectors.cols]).toEqual([n, k]);
    const first = which === 'lowest' ? 0 : n - k;
    expectValuesNear(values, full.values.slice(first, first + k), TOL * n * norm);
    expectPairs(A, values, vectors);
    const below = first > 0 ? full.values[first]! - full.values[first - 1]! : Infinity;
    const above = first + k < n ? full.values[first + k]! - full.values[first + k - 1]! : Infinity;
    const gap = Math.min(below, above);
    expect(projectorDistance(vectors, columns(full.vectors, first, k))).toBeLessThanOrEqual(
      Number.isFinite(gap) ? (TOL * n * norm) / gap : TOL * n,
    );
  });

  it('the 4 null vectors of the disconnected Laplacian as a subspace, and small n', () => {
    const c = ref.dense.find((x) => x.name === 'laplacian120')!;
    const L = denseOf(c);
    const sel = symEigSelect(L, 4, 'lowest');
    const all = symEigLargeRoute(L);
    expect(projectorDistance(sel.vectors, columns(all.vectors, 0, 4))).toBeLessThanOrEqual(
      (TOL * 120 * 16) / c.values[4]!,
    );
    const small = randSym(12, 3);
    const top = symEigSelect(small, 3, 'highest');
    expectValuesNear(top.values, symEig(small).values.slice(9), TOL * 12 * fro(small));
    expect(symEigSelect(small, 0, 'lowest').vectors.cols).toBe(0);
  });

  it('rejects a non-square A or k out of range', () => {
    expect(() => symEigSelect(randMat(2, 3, 1), 1, 'lowest')).toThrow(
      /symEigSelect: A is 2x3, not square/,
    );
    expect(() => symEigSelect(randSym(4, 1), 5, 'lowest')).toThrow(
      /symEigSelect: k = 5 is not an integer in 0..4/,
    );
  });
});

describe('symEigSelect by bisection and inverse iteration (k ≪ n)', () => {
  it('20 of the 100-fold eigenvalue −2: orthonormal vectors inside its eigenspace', () => {
    const n = 300;
    const lambda = Float64Array.from({ length: n }, (_, i) => (i < 100 ? -2 : 1 + i / 100));
    const u = randMat(n, 1, 78).data;
    const uu = u.reduce((s, x) => s + x * x, 0);
    const H: Mat = { rows: n, cols: n, data: new Float64Array(n * n) };
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) H.data[i * n + j] = (i === j ? 1 : 0) - (2 * u[i]! * u[j]!) / uu;
    const A = naiveMul(scaleCols(H, lambda), H);
    const { values, vectors } = symEigSelect(A, 20, 'lowest');
    expectValuesNear(values, new Array<number>(20).fill(-2), TOL * n * 4);
    expectPairs(A, values, vectors);
  });

  it('4 path components of 50 nodes: the lowest 4 span the component indicators', () => {
    // L = Laplacian of 4 disjoint paths on shuffled nodes; its null space is spanned by the
    // (normalised) indicator vectors of the components, the next eigenvalue is 2 − 2cos(π/50).
    const n = 200;
    const perm = Array.from({ length: n }, (_, i) => (i * 37) % n);
    const L: Mat = { rows: n, cols: n, data: new Float64Array(n * n) };
    for (let c = 0; c < 4; c++) {
      for (let t = 0; t + 1 < 50; t++) {
        const i = perm[c * 50 + t]!;
        const j = perm[c * 50 + t + 1]!;
        L.data[i * n + j] = -1;
        L.data[j * n + i] = -1;
        L.data[i * n + i]! += 1;
        L.data[j * n + j]! += 1;
      }
    }
    const { values, vectors } = symEigSelect(L, 5, 'lowest');
    expectPairs(L, values, vectors);
    for (let j = 0; j < 4; j++) expect(Math.abs(values[j]!)).toBeLessThanOrEqual(TOL * n * 4);
    expect(Math.abs(values[4]! - (2 - 2 * Math.cos(Math.PI / 50)))).toBeLessThanOrEqual(
      TOL * n * 4,
    );
    const ind: Mat = { rows: n, cols: 4, data: new Float64Array(n * 4) };
    for (let c = 0; c < 4; c++)
      for (let t = 0; t < 50; t++) ind.data[perm[c * 50 + t]! * 4 + c] = 1 / Math.sqrt(50);
    const gap = values[4]!;
    expect(projectorDistance(columns(vectors, 0, 4), ind)).toBeLessThanOrEqual((TOL * n * 4) / gap);
  });
});
