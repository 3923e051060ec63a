/**
 * k-means++ seeding (kmeans-seed.ts) with its triangle-inequality skip chooses the rows, and
 * leaves the assignment, of MATLAB's 'plus' written out here with every distance computed:
 * first centre rng.int(n), each next one the first row whose cumulative D² exceeds
 * rng.next() · Σ D² (rows of weight 0 skipped), then every row at its first nearest centre.
 */
import { describe, expect, it } from 'vitest';
import { seedPlusPlus } from '../../../src/core/cluster/kmeans-seed';
import { newWork } from '../../../src/core/cluster/kmeans-work';
import type { Mat } from '../../../src/core/linalg/types';
import { createRng } from '../../../src/core/random';

function blobs(n: number, d: number, k: number, spread: number, seed: number): Mat {
  const r = createRng(seed);
  const c = Array.from({ length: k * d }, () => r.normal() * spread);
  return {
    rows: n,
    cols: d,
    data: Float64Array.from(
      { length: n * d },
      (_, t) => c[(Math.floor(t / d) % k) * d + (t % d)]! + r.normal(),
    ),
  };
}

/** The plain seeding: chosen rows and the first-nearest labels. */
function plainPlus(X: Mat, k: number, seed: number): { rows: number[]; labels: number[] } {
  const { rows: n, cols: d, data } = X;
  const rng = createRng(seed);
  const dist = (i: number, r: number): number => {
    let s = 0;
    for (let p = 0; p < d; p++) {
      const t = data[i * d + p]! - data[r * d + p]!;
      s += t * t;
    }
    return s;
  };
  const rows = [rng.int(n)];
  const min = new Float64Array(n).fill(Infinity);
  const labels = new Array<number>(n).fill(0);
  for (let j = 0; j < k; j++) {
    let total = 0;
    for (let i = 0; i < n; i++) {
      const s = dist(i, rows[j]!);
      if (s < min[i]!) {
        min[i] = s;
        labels[i] = j;
      }
      total += min[i]!;
    }
    if (j === k - 1) break;
    const u = rng.next() * total;
    let cum = 0;
    let chosen = -1;
    for (let i = 0; i < n; i++) {
      if (min[i] === 0) continue;
      chosen = i;
      cum += min[i]!;
      if (cum > u) break;
    }
    rows.push(chosen);
  }
  return { rows, labels };
}

describe('k-means++ seeding', () => {
  it.each([
    ['separated blobs, d = 5', blobs(3000, 5, 12, 20, 1), 12],
    ['overlapping blobs, d = 30', blobs(2000, 30, 8, 1, 2), 8],
    [
      'small integers, d = 4 (ties)',
      {
        ...blobs(1500, 4, 3, 1, 3),
        data: Float64Array.from(blobs(1500, 4, 3, 1, 3).data, Math.round),
      },
      9,
    ],
  ] as const)('chooses the rows and the assignment of the plain draw: %s', (_, X, k) => {
    for (const seed of [1, 2, 3]) {
      const ref = plainPlus(X, k, seed);
      const w = newWork(X, k);
      expect(seedPlusPlus(w, createRng(seed))).toBe(true);
      const d = X.cols;
      ref.rows.forEach((r, j) =>
        expect(Array.from(w.C.subarray(j * d, (j + 1) * d))).toEqual(
          Array.from(X.data.subarray(r * d, (r + 1) * d)),
        ),
      );
      expect(Array.from(w.labels)).toEqual(ref.labels);
    }
  });
});
