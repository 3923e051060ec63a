/**
 * The common input layer of the incomplete-view baselines: a hand-checked toy (dense and CSR,
 * the 1e-12 guard, the mean fill, the presence matrix), the presence matrix against a direct
 * search of every sample in every view's list (the reference's findindex, quadratic) on the real
 * files, and the fixture's per-view checks (sum of the mean vector, Frobenius norm of the filled
 * matrix) of ../shared/reference/baselines-incomplete.json for every recorded BSV run.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { View } from '../../../src/core/dataset';
import {
  incompleteInput,
  unitMeanFilled,
  unitRowScales,
  unitRowsView,
} from '../../../src/core/views/incomplete-input';
import { loadDataset } from '../../../src/io/load';
import { DATASETS } from '../../helpers/paths';
import { readReference } from '../../helpers/reference';
import { dataset, denseView } from '../../helpers/toy';

// Samples 0, 2, 3 of n = 4: (3, 4) → (0.6, 0.8); (0, 0) stays 0; (1e-13, 0) is divided by the
// floor 1e-12, not by its norm: (0.1, 0).
const dense = denseView(
  'a',
  [0, 2, 3],
  [
    [3, 4],
    [0, 0],
    [1e-13, 0],
  ],
);
const csr: View = {
  name: 'b',
  d: 2,
  present: Int32Array.from([0, 2, 3]),
  values: {
    kind: 'csr',
    rows: 3,
    cols: 2,
    indptr: Int32Array.from([0, 2, 2, 3]),
    indices: Int32Array.from([0, 1, 0]),
    data: Float64Array.from([3, 4, 1e-13]),
  },
};

describe('views/incomplete-input on a toy', () => {
  it('scales each present sample by 1 / max(1e-12, its norm)', () => {
    expect(Array.from(unitRowScales(dense))).toEqual([0.2, 1e12, 1e12]);
    const d = unitRowsView(dense).values.data;
    expect(Array.from(d).map((x) => +x.toFixed(15))).toEqual([0.6, 0.8, 0, 0, 0.1, 0]);
    const c = unitRowsView(csr);
    expect(c.values.kind).toBe('csr');
    expect(Array.from(c.values.data).map((x) => +x.toFixed(15))).toEqual([0.6, 0.8, 0.1]);
    // The dataset's arrays are not written.
    expect(Array.from(dense.values.data)).toEqual([3, 4, 0, 0, 1e-13, 0]);
  });

  it('fills the missing sample with the mean of the normalised present ones', () => {
    for (const view of [dense, csr]) {
      const { mean, filled } = unitMeanFilled(unitRowsView(view), 4);
      expect(mean[0]).toBeCloseTo(0.7 / 3, 15);
      expect(mean[1]).toBeCloseTo(0.8 / 3, 15);
      expect([filled.rows, filled.cols]).toEqual([4, 2]);
      const rows = Array.from(filled.data).map((x) => +x.toFixed(12));
      expect(rows).toEqual([
        0.6,
        0.8,
        +(0.7 / 3).toFixed(12),
        +(0.8 / 3).toFixed(12),
        0,
        0,
        0.1,
        0,
      ]);
    }
  });

  it('builds the presence matrix (n, V) from the present lists', () => {
    const other = denseView('c', [1, 2], [[1], [2]]);
    const input = incompleteInput(dataset(4, [dense, other]));
    expect([input.presence.rows, input.presence.cols]).toEqual([4, 2]);
    expect(Array.from(input.presence.data)).toEqual([1, 0, 0, 1, 1, 1, 1, 0]);
    expect(input.views.map((v) => v.name)).toEqual(['a', 'c']);
  });

  it('refuses views a protocol fill has completed', () => {
    const filled = { ...dataset(4, [dense]), observed: [dense.present] };
    expect(() => incompleteInput(filled)).toThrow(/filled already/);
  });
});

/** The reference's findindex: each sample searched in each view's list, O(n·Σ n_v). */
function presenceBySearch(n: number, presents: readonly Int32Array[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) for (const p of presents) out.push(p.includes(i) ? 1 : 0);
  return out;
}

describe('views/incomplete-input against the BSV fixture checks', () => {
  const runs = readReference('baselines-incomplete').runs.filter((r) => r.method === 'BSV');

  it('has the 4 recorded BSV runs', () => expect(runs.length).toBe(4));

  for (const run of runs) {
    it(`${run.file}: presence, mean-vector sums and filled-matrix norms per view`, async () => {
      const ds = await loadDataset(join(DATASETS, run.file));
      const input = incompleteInput(ds);
      expect(ds.views.map((v) => v.present.length)).toEqual(run.raw['present_per_view']);
      expect(Array.from(input.presence.data)).toEqual(
        presenceBySearch(
          ds.n,
          ds.views.map((v) => v.present),
        ),
      );
      const perView = run.raw['per_view'] as {
        view: number;
        mean_vector_sum: number;
        filled_matrix_fro: number;
      }[];
      for (const ref of perView) {
        const { mean, filled } = unitMeanFilled(input.views[ref.view - 1]!, ds.n);
        const sum = mean.reduce((a, x) => a + x, 0);
        const fro = Math.sqrt(filled.data.reduce((a, x) => a + x * x, 0));
        expect(Math.abs(sum - ref.mean_vector_sum) / ref.mean_vector_sum).toBeLessThan(1e-12);
        expect(Math.abs(fro - ref.filled_matrix_fro) / ref.filled_matrix_fro).toBeLessThan(1e-12);
      }
    });
  }
});
