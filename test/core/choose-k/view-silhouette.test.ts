/**
 * The view silhouette: against metrics/silhouette.ts's exact silhouette (itself checked
 * against scikit-learn in test/core/metrics), sparse views against their dense copy, the
 * presence weighting by hand, undefined views dropped, and the seeded sample of a large view.
 */
import { describe, expect, it } from 'vitest';
import {
  silhouetteOfDistances,
  viewDistances,
  viewSilhouette,
} from '../../../src/core/choose-k/view-silhouette';
import type { View } from '../../../src/core/dataset';
import { silhouetteSamples } from '../../../src/core/metrics';
import { createRng } from '../../../src/core/random';
import { denseView } from '../../helpers/toy';

const mean = (xs: Float64Array): number => xs.reduce((a, x) => a + x, 0) / xs.length;

function randomRows(count: number, d: number, seed: number): number[][] {
  const rng = createRng(seed);
  return Array.from({ length: count }, (_, i) =>
    Array.from({ length: d }, (_, f) => rng.normal() + (f === 0 ? 3 * (i % 3) : 0)),
  );
}

/** The dense view as CSR (zeros dropped). */
function asCsr(v: View): View {
  if (v.values.kind !== 'dense') throw new Error('dense expected');
  const { rows, cols, data } = v.values;
  const indptr = new Int32Array(rows + 1);
  const indices: number[] = [];
  const values: number[] = [];
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const x = data[i * cols + j]!;
      if (x !== 0) {
        indices.push(j);
        values.push(x);
      }
    }
    indptr[i + 1] = indices.length;
  }
  return {
    ...v,
    values: {
      kind: 'csr',
      rows,
      cols,
      indptr,
      indices: Int32Array.from(indices),
      data: Float64Array.from(values),
    },
  };
}

describe('silhouetteOfDistances', () => {
  it('equals the exact silhouette of the view’s present samples (relative 1e-6: float32)', () => {
    const n = 40;
    const present = Array.from({ length: n }, (_, i) => i).filter((i) => i % 5 !== 0);
    const rows = randomRows(present.length, 4, 11);
    const view = denseView('v', present, rows);
    const labels = Int32Array.from({ length: n }, (_, i) => i % 3);
    const [vd] = viewDistances([view], createRng(0));
    const got = silhouetteOfDistances(vd!, labels)!;
    const X = { rows: rows.length, cols: 4, data: Float64Array.from(rows.flat()) };
    const want = mean(
      silhouetteSamples(
        X,
        present.map((i) => labels[i]!),
      ),
    );
    expect(Math.abs(got - want)).toBeLessThan(1e-6 * Math.abs(want));
  });

  it('a sparse view gives the dense view’s distances', () => {
    const rows = randomRows(25, 6, 5).map((r) => r.map((x) => (Math.abs(x) < 0.5 ? 0 : x)));
    const present = Array.from({ length: 25 }, (_, i) => i);
    const dense = denseView('v', present, rows);
    const [a, b] = viewDistances([dense, asCsr(dense)], createRng(0));
    for (let p = 0; p < a!.dist.length; p++) {
      expect(Math.abs(a!.dist[p]! - b!.dist[p]!)).toBeLessThan(1e-5 * (1 + a!.dist[p]!));
    }
  });

  it('is null with one label among the samples, and counts singletons as 0', () => {
    const view = denseView('v', [0, 1, 2, 3], [[0], [1], [10], [30]]);
    const [vd] = viewDistances([view], createRng(0));
    expect(silhouetteOfDistances(vd!, [1, 1, 1, 1])).toBeNull();
    // Labels {0,1}, {10}, {30}: s(0) = (10 − 1)/10 (b = 10, nearest other cluster {10}),
    // s(1) = (9 − 1)/9, singletons 0. Mean over 4 samples.
    const s = silhouetteOfDistances(vd!, [0, 0, 1, 2])!;
    expect(s).toBeCloseTo((9 / 10 + 8 / 9) / 4, 6);
  });
});

describe('viewSilhouette', () => {
  it('weights each view by its present samples and drops a view where it is undefined', () => {
    // View a: samples 0..3 (n_a = 4); view b: 2 samples (left out: fewer than 3); view c:
    // samples 0, 1, 4..7 (n_c = 6), where the first labels put everything in one cluster.
    const a = denseView('a', [0, 1, 2, 3], [[0], [1], [10], [11]]);
    const c = denseView('c', [0, 1, 4, 5, 6, 7], [[0], [0.5], [4], [5], [6], [20]]);
    const b = denseView('b', [0, 1], [[0], [1]]);
    const labels = [0, 0, 1, 1, 0, 0, 0, 0];
    const d = viewDistances([a, b, c], createRng(0));
    expect(d.map((x) => x.name)).toEqual(['a', 'c']);
    const sa = silhouetteOfDistances(d[0]!, labels)!;
    expect(silhouetteOfDistances(d[1]!, labels)).toBeNull(); // view c: one label only
    const r = viewSilhouette(d, labels);
    expect(r.score).toBeCloseTo(sa, 12);
    expect(r.perView).toEqual([sa, null]);
    const both = viewSilhouette(d, [0, 0, 1, 1, 1, 1, 0, 0]);
    const sa2 = silhouetteOfDistances(d[0]!, [0, 0, 1, 1, 1, 1, 0, 0])!;
    const sc2 = silhouetteOfDistances(d[1]!, [0, 0, 1, 1, 1, 1, 0, 0])!;
    expect(both.score).toBeCloseTo((4 * sa2 + 6 * sc2) / 10, 12);
  });

  it('keeps a seeded sample of a view above maxSamples, the same for the same seed', () => {
    const present = Array.from({ length: 50 }, (_, i) => i);
    const view = denseView('v', present, randomRows(50, 2, 1));
    const [x] = viewDistances([view], createRng(4), 20);
    const [y] = viewDistances([view], createRng(4), 20);
    expect(x!.samples).toHaveLength(20);
    expect(x!.present).toBe(50);
    expect(Array.from(x!.samples)).toEqual(Array.from(y!.samples));
  });
});
