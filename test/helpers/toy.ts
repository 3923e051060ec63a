/** Small hand-made multi-view datasets for the solver tests. */
import type { MultiViewDataset, View } from '../../src/core/dataset';
import { makeLabels } from '../../src/core/dataset';
import { createRng } from '../../src/core/random';

/** A dense view of the samples `present` (sorted), rows[r] = sample present[r]. */
export function denseView(name: string, present: number[], rows: number[][]): View {
  const d = rows[0]?.length ?? 0;
  return {
    name,
    d,
    present: Int32Array.from(present),
    values: { kind: 'dense', rows: rows.length, cols: d, data: Float64Array.from(rows.flat()) },
  };
}

/** A dataset of n samples from views, with optional 0-based labels. */
export function dataset(n: number, views: View[], labels?: number[]): MultiViewDataset {
  return {
    n,
    views,
    labels: labels ? makeLabels('truth', labels) : null,
    sampleIds: null,
    provenance: {
      file: '(test)',
      format: 'synthetic',
      variables: [],
      orientation: views.map(() => 'n x d' as const),
      missingness: views.every((v) => v.present.length === n) ? 'complete' : 'natural',
      decisions: [],
      warnings: [],
    },
  };
}

/**
 * Three well separated 2-D blobs, `per` samples each, centres (0,0), (10,0), (0,10), jitter
 * uniform in [−0.5, 0.5)²: points (3·per, 2) and truth (3·per,) with codes 0, 1, 2.
 */
export function blobs(per: number, seed = 7): { points: number[][]; truth: number[] } {
  const rng = createRng(seed);
  const centres = [
    [0, 0],
    [10, 0],
    [0, 10],
  ];
  const points: number[][] = [];
  const truth: number[] = [];
  centres.forEach(([cx, cy], c) => {
    for (let i = 0; i < per; i++) {
      points.push([cx! + rng.next() - 0.5, cy! + rng.next() - 0.5]);
      truth.push(c);
    }
  });
  return { points, truth };
}

/** The rows of `points` at the sorted indices `present`. */
export function pick(points: number[][], present: number[]): number[][] {
  return present.map((i) => points[i]!);
}

/** 0..n−1 without `missing`. */
export function without(n: number, missing: number[]): number[] {
  return Array.from({ length: n }, (_, i) => i).filter((i) => !missing.includes(i));
}

/** Runs a solver generator to the end: its steps and its return value. */
export function drain<S, R>(gen: Generator<S, R, void>): { steps: S[]; output: R } {
  const steps: S[] = [];
  for (;;) {
    const r = gen.next();
    if (r.done) return { steps, output: r.value };
    steps.push(r.value);
  }
}

/**
 * Two hand-checkable views of 3 samples: `dense` (d = 2) misses sample 1, its present rows
 * (1, 2) and (3, 6), mean (2, 4); `csr` (d = 3) misses sample 0, its present rows (0, 0, 4) and
 * (2, 0, 8), mean (1, 0, 6).
 */
export function handViews(): { dense: View; csr: View } {
  const dense = denseView(
    'a',
    [0, 2],
    [
      [1, 2],
      [3, 6],
    ],
  );
  const csr: View = {
    name: 'b',
    d: 3,
    present: Int32Array.from([1, 2]),
    values: {
      kind: 'csr',
      rows: 2,
      cols: 3,
      indptr: Int32Array.from([0, 1, 3]),
      indices: Int32Array.from([2, 0, 2]),
      data: Float64Array.from([4, 2, 8]),
    },
  };
  return { dense, csr };
}
