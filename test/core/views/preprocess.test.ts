import { describe, expect, it } from 'vitest';
import type { View } from '../../../src/core/dataset';
import { checkPreprocess, preprocessViews } from '../../../src/core/views/preprocess';
import { SolverInputError } from '../../../src/core/solvers/params';

// Expected values printed by test/fixtures/preprocess/toy.py (numpy).
const Z = [
  [-0.63245553, 0, 1.17669681],
  [0.63245553, 0, -1.17669681],
  [-1.26491106, 0, 0.78446454],
  [1.26491106, 0, -0.78446454],
];
const L2 = [
  [0.6, 0.8],
  [0, 0],
  [0.4472136, -0.89442719],
];

function dense(name: string, rows: number[][], present: number[]): View {
  const d = rows[0]!.length;
  return {
    name,
    d,
    present: Int32Array.from(present),
    values: { kind: 'dense', rows: rows.length, cols: d, data: Float64Array.from(rows.flat()) },
  };
}

const X = [
  [1, 2, 5],
  [3, 2, -1],
  [0, 2, 4],
  [4, 2, 0],
];

describe('preprocessViews', () => {
  it("'none' returns the views themselves and no note", () => {
    const views = [dense('a', X, [0, 1, 2, 3])];
    const r = preprocessViews(views, 'none');
    expect(r.views).toBe(views);
    expect(r.note).toBeNull();
  });

  it("'zscore' per feature equals numpy (population std; a constant feature is 0, said)", () => {
    const v = dense('a', X, [0, 2, 3, 5]);
    const r = preprocessViews([v], 'zscore');
    const out = r.views[0]!.values;
    Z.flat().forEach((z, p) => expect(out.data[p]).toBeCloseTo(z, 7));
    expect(r.views[0]!.present).toBe(v.present);
    expect(v.values.data[0]).toBe(1); // the input is not written
    expect(r.note).toMatch(/zscore.*constant features left at 0 per view: 1/);
  });

  it("'l2-rows' equals numpy on dense and CSR views (a zero row stays 0, said)", () => {
    const r = preprocessViews(
      [
        dense(
          'a',
          L2.map(() => [0, 0]),
          [0, 1, 2],
        ),
      ],
      'l2-rows',
    );
    expect(Array.from(r.views[0]!.values.data)).toEqual([0, 0, 0, 0, 0, 0]);
    const d = preprocessViews(
      [
        dense(
          'y',
          [
            [3, 4],
            [0, 0],
            [1, -2],
          ],
          [0, 1, 2],
        ),
      ],
      'l2-rows',
    );
    L2.flat().forEach((z, p) => expect(d.views[0]!.values.data[p]).toBeCloseTo(z, 7));
    expect(d.note).toMatch(/l2-rows.*zero rows left at 0 per view: 1/);
    const csr: View = {
      name: 's',
      d: 2,
      present: Int32Array.from([0, 1, 2]),
      values: {
        kind: 'csr',
        rows: 3,
        cols: 2,
        indptr: Int32Array.from([0, 2, 2, 4]),
        indices: Int32Array.from([0, 1, 0, 1]),
        data: Float64Array.from([3, 4, 1, -2]),
      },
    };
    const s = preprocessViews([csr], 'l2-rows').views[0]!.values;
    expect(s.kind).toBe('csr');
    [0.6, 0.8, 0.4472136, -0.89442719].forEach((z, p) => expect(s.data[p]).toBeCloseTo(z, 7));
  });

  it('zscore of a CSR view densifies it, with the same values as the dense view', () => {
    const csr: View = {
      name: 's',
      d: 2,
      present: Int32Array.from([0, 1]),
      values: {
        kind: 'csr',
        rows: 2,
        cols: 2,
        indptr: Int32Array.from([0, 1, 2]),
        indices: Int32Array.from([0, 1]),
        data: Float64Array.from([2, 6]),
      },
    };
    const out = preprocessViews([csr], 'zscore').views[0]!.values;
    expect(out.kind).toBe('dense');
    expect(Array.from(out.data)).toEqual([1, -1, -1, 1]);
  });

  it('refuses an unknown mode naming the option and its values', () => {
    expect(() => checkPreprocess('whiten')).toThrow(SolverInputError);
    expect(() => checkPreprocess('whiten')).toThrow(
      "preprocess must be one of 'none', 'l2-rows', 'zscore', got 'whiten'",
    );
    expect(checkPreprocess('zscore')).toBe('zscore');
  });
});
