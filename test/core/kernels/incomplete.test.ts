/**
 * The kernel of an incomplete view against numpy (test/fixtures/kernels/make.py): the present
 * block K_PP to 1e-13 relative, its n × n forms (zeros, the block's mean) with the same
 * tolerance; blocks read and written back by index; a CSR view gives the dense view's kernel.
 */
import { describe, expect, it } from 'vitest';
import type { View } from '../../../src/core/dataset';
import {
  expandKernel,
  kernelBlock,
  presentKernel,
  setKernelBlock,
} from '../../../src/core/kernels/incomplete';
import { gatherRows } from '../../../src/core/linalg/rows';
import { jsonMat, readFixture, relDiff, type JsonMat } from '../../helpers/json-fixture';

interface Ref {
  X: JsonMat;
  incomplete: { n: number; present: number[]; Kpp: JsonMat; zero: JsonMat; mean: JsonMat };
}
const ref = readFixture<Ref>('kernels', 'kernels.json');
const present = Int32Array.from(ref.incomplete.present);
const Xp = gatherRows(jsonMat(ref.X), present);
const view: View = { name: 'v', d: Xp.cols, present, values: { kind: 'dense', ...Xp } };

describe('kernels/incomplete', () => {
  it('the present block, then the n × n forms, as numpy', () => {
    const { K } = presentKernel(view, { type: 'linear' });
    expect(relDiff(K, jsonMat(ref.incomplete.Kpp))).toBeLessThanOrEqual(1e-13);
    const { n } = ref.incomplete;
    expect(relDiff(expandKernel(K, present, n), jsonMat(ref.incomplete.zero))).toBeLessThanOrEqual(
      1e-13,
    );
    expect(
      relDiff(expandKernel(K, present, n, 'mean'), jsonMat(ref.incomplete.mean)),
    ).toBeLessThanOrEqual(1e-13);
  });

  it('reads and writes blocks by sample index', () => {
    const { K } = presentKernel(view, { type: 'linear' });
    const full = expandKernel(K, present, ref.incomplete.n);
    expect(Array.from(kernelBlock(full, present, present).data)).toEqual(Array.from(K.data));
    const missing = Int32Array.from([1, 4]);
    const B = { rows: 2, cols: 4, data: Float64Array.from([1, 2, 3, 4, 5, 6, 7, 8]) };
    setKernelBlock(full, missing, present, B);
    expect(Array.from(kernelBlock(full, missing, present).data)).toEqual(Array.from(B.data));
    expect(() => expandKernel(K, missing, 6)).toThrow(/K_PP is 4x4 for 2 present/);
  });

  it('densifies a CSR view first', () => {
    const d = Xp.cols;
    const indptr = Int32Array.from({ length: Xp.rows + 1 }, (_, r) => r * d);
    const indices = Int32Array.from({ length: Xp.rows * d }, (_, p) => p % d);
    const csr: View = {
      ...view,
      values: { kind: 'csr', rows: Xp.rows, cols: d, indptr, indices, data: Xp.data },
    };
    const g = { type: 'gaussian', bandwidth: { rule: 'median' } } as const;
    expect(presentKernel(csr, g).K.data).toEqual(presentKernel(view, g).K.data);
  });
});
