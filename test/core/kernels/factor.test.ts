/**
 * The implicit centred, normalised linear kernel (kernels/factor.ts) against the explicit route
 * it replaces: K = normaliseKernel(centreKernel(X·Xᵀ)) (transform.ts and gram.ts, themselves
 * tested against numpy in transform.test.ts), to 1e-13 relative, for a dense view, a CSR view
 * and a dense view sparse enough to be multiplied as CSR; the zero-padded sum operator against
 * Σ_v w_v·expandKernel(K_v); the error for a sample equal to the mean.
 */
import { describe, expect, it } from 'vitest';
import type { View } from '../../../src/core/dataset';
import {
  centredUnitFactor,
  factorKernelOp,
  factorMatrix,
  paddedKernelSumOp,
  SPARSE_BELOW,
} from '../../../src/core/kernels/factor';
import { linearKernel } from '../../../src/core/kernels/gram';
import { expandKernel } from '../../../src/core/kernels/incomplete';
import { centreKernel, normaliseKernel } from '../../../src/core/kernels/transform';
import { matmul, matmulTB } from '../../../src/core/linalg/kernels';
import type { Mat } from '../../../src/core/linalg/types';
import { createRng } from '../../../src/core/random';
import { denseRows } from '../../../src/core/views/present';

const rng = createRng(21);

/** A view of `present` samples with d features, a share `density` of them nonzero. */
function randomView(present: number[], d: number, density: number, csr: boolean): View {
  const m = present.length;
  const data = new Float64Array(m * d);
  for (let i = 0; i < data.length; i++) if (rng.next() < density) data[i] = rng.next() - 0.3;
  const dense = { kind: 'dense' as const, rows: m, cols: d, data };
  const view: View = { name: 'v', d, present: Int32Array.from(present), values: dense };
  if (!csr) return view;
  const indptr = new Int32Array(m + 1);
  const indices: number[] = [];
  const vals: number[] = [];
  for (let r = 0; r < m; r++) {
    for (let j = 0; j < d; j++) {
      if (data[r * d + j] !== 0) {
        indices.push(j);
        vals.push(data[r * d + j]!);
      }
    }
    indptr[r + 1] = indices.length;
  }
  return {
    ...view,
    values: {
      kind: 'csr',
      rows: m,
      cols: d,
      indptr,
      indices: Int32Array.from(indices),
      data: Float64Array.from(vals),
    },
  };
}

const explicitKernel = (view: View): Mat =>
  normaliseKernel(centreKernel(linearKernel(denseRows(view))));

function relDiff(a: Mat, b: Mat): number {
  let num = 0;
  let den = 0;
  for (let i = 0; i < a.data.length; i++) {
    num = Math.max(num, Math.abs(a.data[i]! - b.data[i]!));
    den = Math.max(den, Math.abs(b.data[i]!));
  }
  return num / den;
}

const block = (rows: number, cols: number): Mat => ({
  rows,
  cols,
  data: Float64Array.from({ length: rows * cols }, () => rng.next() - 0.5),
});

const apply = (op: { n: number; apply(X: Mat, Y: Mat): void }, B: Mat): Mat => {
  const Y = { rows: op.n, cols: B.cols, data: new Float64Array(op.n * B.cols) };
  op.apply(B, Y);
  return Y;
};

const present = Array.from({ length: 40 }, (_, i) => i);
const cases = [
  ['dense', randomView(present, 12, 1, false), 'dense'],
  ['CSR', randomView(present, 30, 0.2, true), 'csr'],
  ['dense but sparse', randomView(present, 30, 0.1, false), 'csr'],
] as const;

describe('kernels/factor', () => {
  it.each(cases)('%s view: Y·Yᵀ is knorm(kcenter(X·Xᵀ)), multiplied as %s', (_, view, kind) => {
    const f = centredUnitFactor(view);
    expect(f.X.kind).toBe(kind);
    const K = explicitKernel(view);
    const Y = factorMatrix(f);
    expect(relDiff(matmulTB(Y, Y), K)).toBeLessThanOrEqual(1e-13);
    const B = block(40, 7);
    expect(relDiff(apply(factorKernelOp(f), B), matmul(K, B))).toBeLessThanOrEqual(1e-13);
  });

  it('stores a dense view as CSR exactly when at most SPARSE_BELOW of it is nonzero', () => {
    expect(centredUnitFactor(randomView(present, 50, 0.5, false)).X.kind).toBe('dense');
    expect(SPARSE_BELOW).toBeLessThan(0.5);
  });

  it('the zero-padded sum Σ w_v·G_vᵀ·K_v·G_v equals the expanded kernels', () => {
    const n = 30;
    const p1 = [0, 2, 3, 5, 7, 8, 11, 13, 17, 19, 20, 23, 24, 28, 29];
    const p2 = Array.from({ length: 20 }, (_, i) => i + 10);
    const v1 = randomView(p1, 9, 1, false);
    const v2 = randomView(p2, 25, 0.2, true);
    const w = [0.7, 1.3];
    const dense: Mat = { rows: n, cols: n, data: new Float64Array(n * n) };
    [v1, v2].forEach((v, i) => {
      const E = expandKernel(explicitKernel(v), v.present, n);
      for (let j = 0; j < n * n; j++) dense.data[j]! += w[i]! * E.data[j]!;
    });
    const op = paddedKernelSumOp(
      n,
      [v1, v2].map((v, i) => ({ factor: centredUnitFactor(v), present: v.present, weight: w[i]! })),
    );
    for (const b of [1, 6]) {
      const B = block(n, b);
      expect(relDiff(apply(op, B), matmul(dense, B))).toBeLessThanOrEqual(1e-13);
    }
  });

  it('refuses a sample equal to the mean of the view, naming it', () => {
    const view: View = {
      name: 'X{2}',
      d: 2,
      present: Int32Array.from([0, 4, 6]),
      values: { kind: 'dense', rows: 3, cols: 2, data: Float64Array.from([1, 2, 0, 0, -1, -2]) },
    };
    expect(() => centredUnitFactor(view)).toThrow(
      /view 'X\{2\}', present sample 1 \(sample 5\) equals the mean/,
    );
  });

  it('refuses operands of the wrong shape', () => {
    const f = centredUnitFactor(randomView(present, 12, 1, false));
    expect(() => paddedKernelSumOp(50, [{ factor: f, present: null, weight: 1 }])).toThrow(
      /a factor has 40 rows for 50 samples/,
    );
    const op = factorKernelOp(f);
    expect(() => op.apply(block(39, 2), block(40, 2))).toThrow(/operator is 40x40/);
  });
});
