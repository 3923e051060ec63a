/**
 * The k-means scan modules give back their memory when a call on a large X ends (wasm memory
 * never shrinks, so a module that kept X would hold it for the rest of the process), and keep
 * it after a small one.
 */
import { describe, expect, it } from 'vitest';
import { distMemoryBytes } from '../../../src/core/cluster/dist-kernel';
import { hamerlyMemoryBytes } from '../../../src/core/cluster/hamerly-kernel';
import { kmeans, kmeansSteps } from '../../../src/core/cluster/kmeans';
import { createRng } from '../../../src/core/random';

const KEEP = 64 * 2 ** 20;

function blobs(n: number, d: number): { rows: number; cols: number; data: Float64Array } {
  const rng = createRng(7n);
  const data = new Float64Array(n * d);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < d; j++) data[i * d + j] = (i % 2) * 10 + rng.next();
  return { rows: n, cols: d, data };
}

describe('k-means module memory', () => {
  it('is dropped after a call on an X above 64 MiB, not before the call ends', () => {
    // 500,000 × 20 doubles = 80 MB: above what a module keeps.
    const X = blobs(500_000, 20);
    const steps = kmeansSteps(X, 2, { replicates: 1, maxIterations: 4 }, createRng(1n));
    let s = steps.next();
    let grown = 0;
    while (!s.done) {
      grown = Math.max(grown, distMemoryBytes(), hamerlyMemoryBytes());
      s = steps.next();
    }
    expect(grown).toBeGreaterThan(KEEP);
    expect(distMemoryBytes()).toBeLessThanOrEqual(KEEP);
    expect(hamerlyMemoryBytes()).toBeLessThanOrEqual(KEEP);
    expect(new Set(s.value.labels).size).toBe(2);
  });

  it('is kept after a small call', () => {
    const X = blobs(2000, 20);
    kmeans(X, 2, { replicates: 1, maxIterations: 4 }, createRng(1n));
    const before = Math.max(distMemoryBytes(), hamerlyMemoryBytes());
    kmeans(X, 2, { replicates: 1, maxIterations: 4 }, createRng(2n));
    expect(Math.max(distMemoryBytes(), hamerlyMemoryBytes())).toBe(before);
    expect(before).toBeGreaterThan(0);
  });
});
