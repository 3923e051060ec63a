/**
 * trsmLeft's and trsmRight's substitution leaves (n ≤ 32, no GEMM) against a plain one-row-per-pass substitution
 * written here, bit for bit: the left leaf subtracts four solved rows per pass over the right-hand
 * sides, the right leaf solves four rows of B together, but both keep each multiply and subtract,
 * and their order, so the bits must not move. Zero
 * coefficients are skipped (a NaN in a skipped row's x does not spread), and every storage /
 * transposition / unit-diagonal combination is covered. Above the leaf (GEMM updates) the
 * solve is checked by its residual ‖op(T)·X − B‖_F ≤ 8n·ε·‖T‖_F‖X‖_F.
 */
import { describe, expect, it } from 'vitest';
import { trsmLeft, trsmRight, type Tri } from '../../../src/core/linalg/trsm';
import { createRng } from '../../../src/core/random';

const EPS = Number.EPSILON;

/** A random triangle in storage (both triangles filled: trsm must read only one). */
function randTri(n: number, seed: number, zeros: boolean): Float64Array {
  const rng = createRng(seed);
  const t = new Float64Array(n * n);
  for (let k = 0; k < n * n; k++) t[k] = rng.next() - 0.5;
  for (let i = 0; i < n; i++) t[i * n + i] = 1 + rng.next();
  // Every third off-diagonal entry zero, so groups with and without zeros both occur.
  if (zeros) for (let k = 0; k < n * n; k += 3) if (k % (n + 1) !== 0) t[k] = 0;
  return t;
}

/** op(T)[i, j] for storage t (n×n row-major). */
const opT = (t: Float64Array, n: number, T: Omit<Tri, 'data' | 'offset' | 'ld'>) => {
  return (i: number, j: number): number => {
    const lowerOp = T.lower !== T.trans;
    if (i === j) return T.unit ? 1 : t[i * n + i]!;
    if (lowerOp ? j > i : j < i) return 0;
    return T.trans ? t[j * n + i]! : t[i * n + j]!;
  };
};

/** The reference: x_i = (b_i − Σ_p op(T)[i, p]·x_p, one p per pass, ascending) · (1/op(T)[i, i]). */
function reference(
  t: Float64Array,
  n: number,
  r: number,
  T: Omit<Tri, 'data' | 'offset' | 'ld'>,
  b: Float64Array,
): void {
  const op = opT(t, n, T);
  const forward = T.lower !== T.trans;
  for (let s = 0; s < n; s++) {
    const i = forward ? s : n - 1 - s;
    const [p0, p1] = forward ? [0, i] : [i + 1, n];
    for (let p = p0; p < p1; p++) {
      const u = op(i, p);
      if (u === 0) continue;
      for (let c = 0; c < r; c++) b[i * r + c]! -= u * b[p * r + c]!;
    }
    if (!T.unit) {
      const d = 1 / op(i, i);
      for (let c = 0; c < r; c++) b[i * r + c]! *= d;
    }
  }
}

/** x_k = (b_k − Σ_p x_p·op(T)[p, k], p ascending) / op(T)[k, k], row by row, k in solve order. */
function referenceRight(
  t: Float64Array,
  n: number,
  m: number,
  T: Omit<Tri, 'data' | 'offset' | 'ld'>,
  b: Float64Array,
): void {
  const op = opT(t, n, T);
  const upper = T.lower === T.trans;
  for (let i = 0; i < m; i++) {
    for (let s = 0; s < n; s++) {
      const k = upper ? s : n - 1 - s;
      let acc = b[i * n + k]!;
      const [p0, p1] = upper ? [0, k] : [k + 1, n];
      for (let p = p0; p < p1; p++) acc -= b[i * n + p]! * op(p, k);
      b[i * n + k] = T.unit ? acc : acc / op(k, k);
    }
  }
}

const kinds = [false, true].flatMap((lower) =>
  [false, true].flatMap((trans) => [false, true].map((unit) => ({ lower, trans, unit }))),
);

describe('trsmLeft', () => {
  it.each(kinds.flatMap((k) => [1, 3, 4, 7, 29, 32].map((n) => [n, k] as const)))(
    'the leaf equals the one-row substitution bit for bit: n = %i, %o',
    (n, kind) => {
      const r = 13;
      for (const zeros of [false, true]) {
        const t = randTri(n, 100 + n, zeros);
        const rng = createRng(7 + n);
        const b = Float64Array.from({ length: n * r }, () => rng.next() - 0.5);
        const want = b.slice();
        reference(t, n, r, kind, want);
        trsmLeft(n, r, { data: t, offset: 0, ld: n, ...kind }, { data: b, offset: 0, ld: r });
        for (let k = 0; k < n * r; k++) expect(Object.is(b[k], want[k])).toBe(true);
      }
    },
  );

  it.each(kinds.flatMap((k) => [1, 5, 32].map((n) => [n, k] as const)))(
    'trsmRight: the leaf equals the one-row substitution bit for bit: n = %i, %o',
    (n, kind) => {
      for (const m of [1, 4, 11]) {
        const t = randTri(n, 200 + n, true);
        const rng = createRng(9 + m);
        const b = Float64Array.from({ length: m * n }, () => rng.next() - 0.5);
        const want = b.slice();
        referenceRight(t, n, m, kind, want);
        trsmRight(m, n, { data: t, offset: 0, ld: n, ...kind }, { data: b, offset: 0, ld: n });
        for (let k = 0; k < m * n; k++) expect(Object.is(b[k], want[k])).toBe(true);
      }
    },
  );

  it('skips zero coefficients: a NaN row of x reaches only the rows that use it', () => {
    // op(T) lower, 8×8, unit; x_0 = NaN and op(T)[i, 0] = 0 for i ≥ 1, so only x_0 is NaN.
    const n = 8;
    const r = 3;
    const t = randTri(n, 5, false);
    for (let i = 1; i < n; i++) t[i * n] = 0;
    const b = Float64Array.from({ length: n * r }, (_, k) => (k < r ? NaN : k));
    trsmLeft(
      n,
      r,
      { data: t, offset: 0, ld: n, lower: true, trans: false, unit: true },
      { data: b, offset: 0, ld: r },
    );
    for (let k = 0; k < n * r; k++) expect(Number.isNaN(b[k])).toBe(k < r);
  });

  it.each(kinds.filter((k) => !k.unit).map((k) => [k] as const))(
    'residual above the leaf (n = 150, r = 40): %o',
    (kind) => {
      const n = 150;
      const r = 40;
      const t = randTri(n, 11, false);
      // Keep op(T) well conditioned: off-diagonal entries scaled by 1/n.
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i !== j) t[i * n + j]! /= n;
      const rng = createRng(3);
      const b = Float64Array.from({ length: n * r }, () => rng.next() - 0.5);
      const x = b.slice();
      trsmLeft(n, r, { data: t, offset: 0, ld: n, ...kind }, { data: x, offset: 0, ld: r });
      const op = opT(t, n, kind);
      let res = 0;
      let tn = 0;
      let xn = 0;
      for (let i = 0; i < n; i++) {
        for (let c = 0; c < r; c++) {
          let s = -b[i * r + c]!;
          for (let p = 0; p < n; p++) s += op(i, p) * x[p * r + c]!;
          res += s * s;
        }
        for (let j = 0; j < n; j++) tn += op(i, j) ** 2;
      }
      for (const v of x) xn += v * v;
      expect(Math.sqrt(res)).toBeLessThanOrEqual(8 * n * EPS * Math.sqrt(tn) * Math.sqrt(xn));
    },
  );
});
