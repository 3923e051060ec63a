/**
 * Exact kNN against numpy brute force and scikit-learn (test/fixtures/graph/make.py), and
 * against an in-test brute force on integer data full of ties (lower index first), for dense
 * and CSR input and several tile sizes. The dense path is also checked bit for bit against the
 * contract written out plainly (`plainKnn`), with and without its bounds, on both GEMM backends.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { knn, type KnnOptions } from '../../../src/core/graph/knn';
import { transposeCsr } from '../../../src/core/linalg/sparse';
import { setGemmBackend } from '../../../src/core/linalg/gemm';
import { csrFromDense, matmulTB } from '../../../src/core/linalg/kernels';
import type { Mat } from '../../../src/core/linalg/types';
import { prng } from '../../helpers/prng';
import { graphFixture, mat, maxRelDiff } from '../../helpers/linalg';

const fx = graphFixture();

/** Brute force: all other rows sorted by (squared distance, index). */
function brute(X: Mat, k: number): { indices: number[]; distances: number[] } {
  const indices: number[] = [];
  const distances: number[] = [];
  for (let i = 0; i < X.rows; i++) {
    const row: [number, number][] = [];
    for (let j = 0; j < X.rows; j++) {
      if (j === i) continue;
      let d = 0;
      for (let p = 0; p < X.cols; p++)
        d += (X.data[i * X.cols + p]! - X.data[j * X.cols + p]!) ** 2;
      row.push([d, j]);
    }
    row.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    for (const [d, j] of row.slice(0, k)) {
      indices.push(j);
      distances.push(d);
    }
  }
  return { indices, distances };
}

/** Small integers on a coarse grid, with duplicate rows: many exactly tied distances. */
function tiedData(n: number, d: number, seed: number): Mat {
  const r = prng(seed);
  const X = mat(
    n,
    d,
    new Float64Array(n * d).map(() => Math.floor(r() * 4)),
  );
  X.data.copyWithin(5 * d, 0, d); // row 5 duplicates row 0
  return X;
}

describe('knn', () => {
  const m = fx.mixture;
  const X = mat(m.n, m.d, m.X);

  it('matches numpy brute force (indices exactly, distances to 1e-12 relative)', () => {
    const r = knn(X, m.knn.k, { tile: 64 });
    expect(Array.from(r.indices)).toEqual(m.knn.indices);
    expect(maxRelDiff(r.distances, m.knn.distances)).toBeLessThan(1e-12);
  });

  it.runIf(fx.mixture.sklearnKnn !== null)('matches sklearn NearestNeighbors index sets', () => {
    const r = knn(X, m.knn.k);
    const sk = m.sklearnKnn!;
    for (let i = 0; i < m.n; i++) {
      const ours = Array.from(r.indices.subarray(i * m.knn.k, (i + 1) * m.knn.k)).sort(
        (a, b) => a - b,
      );
      expect(ours).toEqual([...sk[i]!].sort((a, b) => a - b));
    }
  });

  it('breaks ties by the lower index, excludes self, keeps duplicates at distance 0', () => {
    const T = tiedData(97, 3, 11);
    const ref = brute(T, 7);
    for (const tile of [1, 8, 33, 256]) {
      const r = knn(T, 7, { tile });
      expect(Array.from(r.indices)).toEqual(ref.indices);
      expect(Array.from(r.distances)).toEqual(ref.distances);
    }
    const r = knn(T, 7);
    expect(r.indices[0]).toBe(5); // the duplicate of row 0
    expect(r.distances[0]).toBe(0);
    for (let i = 0; i < T.rows; i++)
      expect(Array.from(r.indices.subarray(i * 7, i * 7 + 7))).not.toContain(i);
  });

  it('CSR input gives the same neighbours without densifying', () => {
    const T = tiedData(80, 6, 12);
    for (let p = 0; p < T.data.length; p += 3) T.data[p] = 0; // make it sparse
    const ref = brute(T, 5);
    const r = knn(csrFromDense(T), 5);
    expect(Array.from(r.indices)).toEqual(ref.indices);
    expect(Array.from(r.distances)).toEqual(ref.distances);
  });

  it('clamps cancellation to 0: far-off identical points', () => {
    const Y = mat(4, 2, [1e8, 1e8, 1e8, 1e8, 1e8 + 1, 1e8, -3, 2]);
    const r = knn(Y, 1);
    expect(r.distances[0]).toBe(0);
    for (const d of r.distances) expect(d).toBeGreaterThanOrEqual(0);
  });

  it('rejects k outside 1..n−1', () => {
    expect(() => knn(X, 0)).toThrow(/k = 0 must be an integer in 1\.\.299/);
    expect(() => knn(X, 300)).toThrow(/k = 300/);
  });

  it('transpose of a CSR matrix', () => {
    const S = csrFromDense(mat(2, 3, [1, 0, 2, 0, 3, 4]));
    const T = transposeCsr(S);
    expect([T.rows, T.cols]).toEqual([3, 2]);
    expect(Array.from(T.indptr)).toEqual([0, 1, 2, 4]);
    expect(Array.from(T.indices)).toEqual([0, 1, 0, 1]);
    expect(Array.from(T.data)).toEqual([1, 3, 2, 4]);
  });
});

/**
 * The contract written out: squared norms and dot products summed over the features in order,
 * d(i, j) = max(0, ‖x_i‖² + ‖x_j‖² − 2·x_i·x_j), and for each row the k lexicographically
 * smallest (d, j), j ≠ i, picked one at a time. With `gram`, the dot products are read from it
 * instead (for d > 256, where the GEMM sums in blocks and knn's distances are defined by it).
 */
function plainKnn(
  X: Mat,
  k: number,
  gram?: Float64Array,
): { indices: Int32Array; distances: Float64Array } {
  const { rows: n, cols: d, data } = X;
  const sq = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let p = 0; p < d; p++) s += data[i * d + p]! * data[i * d + p]!;
    sq[i] = s;
  }
  const dist = new Float64Array(n);
  const indices = new Int32Array(n * k);
  const distances = new Float64Array(n * k);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let g = 0;
      if (gram) g = gram[i * n + j]!;
      else for (let p = 0; p < d; p++) g += data[i * d + p]! * data[j * d + p]!;
      dist[j] = Math.max(0, sq[i]! + sq[j]! - 2 * g);
    }
    let pd = -Infinity;
    let pj = -1;
    for (let r = 0; r < k; r++) {
      let bd = Infinity;
      let bj = -1;
      for (let j = 0; j < n; j++) {
        const v = dist[j]!;
        if (j === i || v < pd || (v === pd && j <= pj)) continue;
        if (bj < 0 || v < bd || (v === bd && j < bj)) {
          bd = v;
          bj = j;
        }
      }
      indices[i * k + r] = bj;
      distances[i * k + r] = bd;
      pd = bd;
      pj = bj;
    }
  }
  return { indices, distances };
}

/** The bits of each distance, so that the comparison is exact (−0 ≠ 0, no tolerance). */
const bits = (x: Float64Array): bigint[] =>
  Array.from(new BigUint64Array(x.buffer, x.byteOffset, x.length));

function expectSame(
  r: { indices: Int32Array; distances: Float64Array },
  ref: { indices: Int32Array; distances: Float64Array },
): void {
  expect(Array.from(r.indices)).toEqual(Array.from(ref.indices));
  expect(bits(r.distances)).toEqual(bits(ref.distances));
}

/**
 * Test data: Gaussian, small integers (ties everywhere), or tight far-apart clusters (where the
 * bounds skip most pairs); each with an eighth of its rows overwritten by copies of others.
 */
function dataset(kind: 'gauss' | 'ints' | 'clusters', n: number, d: number, seed: number): Mat {
  const r = prng(seed);
  const gauss = (): number => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
  const X = mat(n, d, new Float64Array(n * d));
  const centres = Array.from({ length: 7 }, () => Array.from({ length: d }, () => 20 * gauss()));
  for (let i = 0; i < n; i++) {
    const c = centres[Math.floor(r() * 7)]!;
    for (let p = 0; p < d; p++) {
      X.data[i * d + p] =
        kind === 'gauss' ? gauss() : kind === 'ints' ? Math.floor(r() * 4) : c[p]! + 0.3 * gauss();
    }
  }
  for (let t = 0; t < n / 8; t++) {
    const a = Math.floor(r() * n);
    const b = Math.floor(r() * n);
    X.data.copyWithin(a * d, b * d, (b + 1) * d);
  }
  return X;
}

describe('knn: dense path bit for bit against the plain contract', () => {
  afterEach(() => {
    setGemmBackend('wasm');
  });

  const variants: KnnOptions[] = [
    {},
    { bounds: true, tile: 16 },
    { bounds: true, tile: 5 },
    { bounds: false, tile: 37 },
  ];
  const cases: ['gauss' | 'ints' | 'clusters', number, number, number][] = [
    ['gauss', 300, 3, 5],
    ['gauss', 700, 20, 16],
    ['gauss', 260, 64, 7],
    ['ints', 500, 2, 16],
    ['ints', 400, 6, 9],
    ['ints', 257, 30, 1],
    ['clusters', 900, 12, 16],
    ['clusters', 600, 40, 16],
    ['clusters', 150, 256, 4],
  ];

  it.each(cases)('%s n = %i, d = %i, k = %i, d ≤ 256: the sequential sums', (kind, n, d, k) => {
    const X = dataset(kind, n, d, n + d);
    const ref = plainKnn(X, k);
    for (const options of variants) expectSame(knn(X, k, options), ref);
  });

  it('the same on the TypeScript GEMM backend (d ≤ 256: it sums in order too)', () => {
    expect(setGemmBackend('ts')).toBe('ts');
    for (const [kind, n, d, k] of [cases[1]!, cases[4]!, cases[7]!]) {
      const X = dataset(kind, n, d, n + d);
      const ref = plainKnn(X, k);
      for (const options of variants) expectSame(knn(X, k, options), ref);
    }
  });

  it('d > 256: the distances of the GEMM dot products, on both backends', () => {
    for (const backend of ['wasm', 'ts'] as const) {
      setGemmBackend(backend);
      for (const [kind, n, d, k] of [
        ['gauss', 200, 300, 8],
        ['clusters', 160, 1100, 5],
        ['ints', 120, 600, 3],
      ] as const) {
        const X = dataset(kind, n, d, n + d);
        const ref = plainKnn(X, k, matmulTB(X, X).data);
        for (const options of variants) expectSame(knn(X, k, options), ref);
      }
    }
  });

  it('k = n − 1, tiles larger than n, one row per tile', () => {
    const X = dataset('ints', 40, 3, 3);
    const ref = plainKnn(X, 39);
    for (const options of [{ bounds: true, tile: 1 }, { tile: 100 }, { bounds: true, tile: 3 }])
      expectSame(knn(X, 39, options), ref);
  });

  it('clamps and keeps exact ties far from the origin (cancellation in the Gram form)', () => {
    const X = dataset('ints', 300, 4, 21);
    for (let p = 0; p < X.data.length; p++) X.data[p]! += 1e6;
    const ref = plainKnn(X, 10);
    for (const options of variants) expectSame(knn(X, 10, options), ref);
  });

  it('bounds on by default from 32 tiles: the same neighbours as without them', () => {
    const X = dataset('clusters', 4200, 10, 4);
    const plain = knn(X, 16, { bounds: false });
    expectSame(knn(X, 16), plain);
    const G = dataset('gauss', 4200, 5, 5);
    expectSame(knn(G, 16), knn(G, 16, { bounds: false }));
  });
});
