/**
 * `packLhs` + `gemmPacked`: a product from a left operand packed once must give exactly the bits
 * of the same product through `gemm` (same packing, same summation order), on both micro-kernel
 * backends, for transposed and plain A, any β, and when several packed operands take turns in
 * the wasm kernel's resident slots (so that a stale slot would show).
 */
import { describe, expect, it } from 'vitest';
import {
  gemm,
  gemmPacked,
  packLhs,
  setGemmBackend,
  type GemmBackend,
} from '../../../src/core/linalg/gemm';
import type { Mat } from '../../../src/core/linalg/types';
import { maxDiff, naiveMul, randMat, transpose } from '../../helpers/mat';

function on<T>(backend: GemmBackend, f: () => T): T {
  expect(setGemmBackend(backend)).toBe(backend);
  try {
    return f();
  } finally {
    setGemmBackend('wasm');
  }
}

/** Entries whose bits differ (Object.is: −0 ≠ 0, NaN = NaN). */
function differing(X: Mat, Y: Mat): number {
  expect([X.rows, X.cols]).toEqual([Y.rows, Y.cols]);
  let d = 0;
  for (let i = 0; i < X.data.length; i++) if (!Object.is(X.data[i], Y.data[i])) d++;
  return d;
}
const zeros = (r: number, c: number): Mat => ({ rows: r, cols: c, data: new Float64Array(r * c) });

/** m, k, n of op(A) (m×k) · op(B) (k×n): edges of MR, MC, KC, KP and NC included. */
const SHAPES: [number, number, number][] = [
  [1, 1, 1],
  [7, 13, 5],
  [130, 2000, 10],
  [2000, 120, 10],
  [129, 257, 3],
  [5, 1100, 9],
  [300, 40, 800],
];

describe.each(['wasm', 'ts'] as const)('gemmPacked on the %s kernel', (backend) => {
  it.each(SHAPES)('equals gemm bit for bit: op(A) %i×%i, B with %i columns', (m, k, n) => {
    on(backend, () => {
      for (const transA of [false, true]) {
        for (const transB of [false, true]) {
          const A = transA ? randMat(k, m, m + k) : randMat(m, k, m + k);
          const B = transB ? randMat(n, k, 7 * n) : randMat(k, n, 7 * n);
          const P = packLhs(A, transA);
          expect([P.m, P.k]).toEqual([m, k]);
          for (const [alpha, beta] of [
            [1, 0],
            [-0.5, 1.5],
          ] as const) {
            const C0 = randMat(m, n, 3);
            const want = gemm(
              A,
              B,
              { ...C0, data: C0.data.slice() },
              { transA, transB, alpha, beta },
            );
            const got = gemmPacked(P, B, { ...C0, data: C0.data.slice() }, { transB, alpha, beta });
            expect(differing(got, want)).toBe(0);
          }
          // And against the triple loop (independent of the packing).
          const ref = naiveMul(transA ? transpose(A) : A, transB ? transpose(B) : B);
          const C = gemmPacked(P, B, zeros(m, n), { transB });
          expect(maxDiff(C, ref)).toBeLessThan(1e-12 * Math.max(1, k));
        }
      }
    });
  });

  it('keeps several packed operands apart when they take turns', () => {
    on(backend, () => {
      // Three operands through two resident slots, in an order that evicts each in turn,
      // two of them of different sizes so a slot is reallocated.
      const As = [randMat(200, 300, 1), randMat(64, 300, 2), randMat(200, 300, 3)];
      const Ps = As.map((A) => packLhs(A));
      const B = randMat(300, 6, 4);
      const want = As.map((A) => gemm(A, B, zeros(A.rows, 6)));
      for (const i of [0, 1, 2, 0, 2, 1, 1, 0]) {
        expect(differing(gemmPacked(Ps[i]!, B, zeros(As[i]!.rows, 6)), want[i]!)).toBe(0);
      }
    });
  });

  it('repacks into old storage: a new handle, the new matrix, no stale resident copy', () => {
    on(backend, () => {
      const B = randMat(300, 10, 8);
      const A1 = randMat(150, 300, 9);
      const A2 = randMat(150, 300, 10);
      const P1 = packLhs(A1);
      gemmPacked(P1, B, zeros(150, 10)); // P1 now resident on the wasm kernel
      const P2 = packLhs(A2, false, P1);
      expect(P2).not.toBe(P1);
      expect(P2.packed.buffer).toBe(P1.packed.buffer);
      const want = gemm(A2, B, zeros(150, 10));
      expect(differing(gemmPacked(P2, B, zeros(150, 10)), want)).toBe(0);
      // Too small to reuse: fresh storage.
      const P3 = packLhs(randMat(400, 300, 11), false, P2);
      expect(P3.packed.buffer).not.toBe(P2.packed.buffer);
    });
  });

  it('rejects mismatched shapes', () => {
    const P = packLhs(randMat(4, 5, 1));
    expect(() => gemmPacked(P, randMat(6, 2, 1), zeros(4, 2))).toThrow(/inner dimensions/);
  });
});
