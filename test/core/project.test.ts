/** The results view's data made in core/project.ts: PCA to 2-D and the aligned confusion matrix. */
import { describe, expect, it } from 'vitest';
import { alignedConfusion, pca2 } from '../../src/core/project';

describe('pca2', () => {
  it('finds the axes of a stretched cloud, exact and by subspace iteration alike', () => {
    // Points along (1, 1, 0, ...) with spread 10 and along (1, -1, 0, ...) with spread 1.
    for (const cols of [3, 300]) {
      const n = 40;
      const data = new Float64Array(n * cols);
      for (let i = 0; i < n; i++) {
        const a = (i - n / 2) * 10;
        const b = i % 4 === 0 || i % 4 === 3 ? 1 : -1; // uncorrelated with a, mean 0
        data[i * cols] = a + b + 5;
        data[i * cols + 1] = a - b - 2;
      }
      const p = pca2({ rows: n, cols, data });
      expect(p.exact).toBe(cols <= 256);
      // First coordinate = projection on (1,1)/√2 of the centred point: a·√2 (sign fixed).
      for (let i = 0; i < n; i++) {
        expect(Math.abs(p.x[i]!)).toBeCloseTo(Math.abs(((i - n / 2) * 10 + 5) * Math.SQRT2), 6);
        expect(Math.abs(p.y[i]!)).toBeCloseTo(Math.SQRT2, 6);
      }
      expect(p.explained[0] + p.explained[1]).toBeCloseTo(1, 10);
    }
  });

  it('gives y = 0 for one column', () => {
    const p = pca2({ rows: 3, cols: 1, data: Float64Array.from([1, 2, 3]) });
    expect(Array.from(p.x).map(Math.abs)).toEqual([1, 0, 1]);
    expect(Array.from(p.y)).toEqual([0, 0, 0]);
  });
});

describe('alignedConfusion', () => {
  it('puts the matched cluster of each class on the diagonal (by hand)', () => {
    // Class 0 mostly in cluster 2, class 1 in cluster 0, class 2 in cluster 1.
    const truth = [0, 0, 0, 1, 1, 2, 2, 2];
    const labels = [2, 2, 0, 0, 0, 1, 1, 2];
    const c = alignedConfusion(truth, labels, 3, 3);
    expect(c.clusterOrder).toEqual([2, 0, 1]);
    expect(c.counts).toEqual([
      [2, 1, 0],
      [0, 2, 0],
      [1, 0, 2],
    ]);
  });

  it('appends unmatched clusters when k > c', () => {
    const c = alignedConfusion([0, 0, 1, 1], [3, 3, 1, 0], 2, 4);
    expect(c.clusterOrder[0]).toBe(3);
    expect([...c.clusterOrder].sort()).toEqual([0, 1, 2, 3]);
    expect(c.counts[0]![0]! + c.counts[1]![1]!).toBe(3);
    expect(c.counts.flat().reduce((a, b) => a + b)).toBe(4);
  });
});
