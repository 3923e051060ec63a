/**
 * The mean-filled view operator against the dense filled matrix of `unitMeanFilled`
 * (incomplete-input.ts, itself tested against the reference fixture): X̂·B, X̂ᵀ·A and the row
 * norms, for a dense view, a CSR view, and a dense view sparse enough to be held as CSR.
 */
import { describe, expect, it } from 'vitest';
import type { View } from '../../../src/core/dataset';
import { matmul, matmulTA } from '../../../src/core/linalg/kernels';
import type { Mat } from '../../../src/core/linalg/types';
import { createRng } from '../../../src/core/random';
import { unitMeanFilled } from '../../../src/core/views/incomplete-input';
import {
  filledTimes,
  filledTimesT,
  filledWork,
  meanFilledOp,
} from '../../../src/core/views/mean-filled-op';
import { denseView, handViews } from '../../helpers/toy';

const n = 9;
const k = 3;
const rng = createRng(21);
const random = (rows: number, cols: number): Mat => ({
  rows,
  cols,
  data: Float64Array.from({ length: rows * cols }, () => rng.next() - 0.5),
});
const present = [0, 2, 3, 5, 8];
const sparseRows = present.map((_, r) => [0, 0, r === 1 ? 0 : r + 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);

const cases: [string, View, number][] = [
  [
    'dense',
    denseView(
      'd',
      present,
      present.map(() => [rng.next(), rng.next(), rng.next(), 0]),
    ),
    n,
  ],
  ['CSR', handViews().csr, 3],
  ['dense held as CSR', denseView('s', present, sparseRows), n],
];

describe('mean-filled operator = the dense filled matrix', () => {
  it.each(cases)('%s view', (_, view, rows) => {
    const op = meanFilledOp(view, rows);
    const dense = unitMeanFilled(view, rows).filled;
    expect(op.view.values.kind).toBe(_ === 'dense' ? 'dense' : 'csr');
    const B = random(view.d, k);
    const A = random(rows, k);
    const work = filledWork(op, k);
    const XB = filledTimes(op, B, { rows, cols: k, data: new Float64Array(rows * k) }, work);
    const XtA = filledTimesT(
      op,
      A,
      { rows: view.d, cols: k, data: new Float64Array(view.d * k) },
      work,
    );
    const close = (a: Float64Array, b: Float64Array): void =>
      a.forEach((x, i) => expect(Math.abs(x - b[i]!)).toBeLessThan(1e-13));
    close(XB.data, matmul(dense, B).data);
    close(XtA.data, matmulTA(dense, A).data);
    const norms = Array.from({ length: rows }, (_, i) => {
      let s = 0;
      for (let j = 0; j < view.d; j++) s += dense.data[i * view.d + j]! ** 2;
      return s;
    });
    close(op.rowSqNorms, Float64Array.from(norms));
    expect(Array.from(op.missing)).toEqual(
      Array.from({ length: rows }, (_, i) => i).filter((i) => !view.present.includes(i)),
    );
  });
});
