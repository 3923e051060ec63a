/**
 * The synthetic generator: determinism in the seed, balanced classes, the reference
 * missing-view protocol (exactly round(p·n) complete samples; every other sample misses 1..V−1
 * views; none misses all), option errors, and cluster structure that a method can find.
 */
import { describe, expect, it } from 'vitest';
import { classSizes, samplesByViewCount } from '../../src/core/dataset';
import { clusteringMetrics } from '../../src/core/metrics';
import { evaluate } from '../../src/core/protocol';
import { imvcCbg } from '../../src/core/solvers/imvc-cbg';
import { validateParams } from '../../src/core/solvers/params';
import { synthesize } from '../../src/core/synth';

describe('synthesize', () => {
  it('is a function of the seed', () => {
    const a = synthesize({ n: 300, k: 3, dims: [5, 7], completeFraction: 0.4, seed: 11 });
    const b = synthesize({ n: 300, k: 3, dims: [5, 7], completeFraction: 0.4, seed: 11 });
    const c = synthesize({ n: 300, k: 3, dims: [5, 7], completeFraction: 0.4, seed: 12 });
    expect(Array.from(a.views[1]!.values.data)).toEqual(Array.from(b.views[1]!.values.data));
    expect(Array.from(a.views[0]!.present)).toEqual(Array.from(b.views[0]!.present));
    expect(Array.from(a.labels!.codes)).toEqual(Array.from(b.labels!.codes));
    expect(Array.from(a.labels!.codes)).not.toEqual(Array.from(c.labels!.codes));
  });

  it('follows the reference missing-view protocol', () => {
    for (const [n, dims, p] of [
      [1000, [3, 4, 5, 6, 7], 0.1],
      [999, [2, 2, 2], 0.5],
      [500, [4, 4], 0.9],
      [200, [4, 4, 4], 1],
      [200, [4, 4, 4], 0],
    ] as const) {
      const ds = synthesize({ n, k: 4, dims, completeFraction: p, seed: 2 });
      const V = dims.length;
      const { byCount, none } = samplesByViewCount(ds);
      expect(none).toBe(0);
      expect(byCount[V - 1]).toBe(Math.round(p * n));
      expect(byCount.reduce((s, x) => s + x, 0)).toBe(n);
      ds.views.forEach((v, i) => {
        expect(v.d).toBe(dims[i]);
        expect(v.values.rows).toBe(v.present.length);
        for (let r = 1; r < v.present.length; r++)
          expect(v.present[r]!).toBeGreaterThan(v.present[r - 1]!);
      });
      // With V > 2 every count 1..V−1 occurs among the incomplete samples.
      if (V > 2 && p < 1) for (let c = 0; c < V - 1; c++) expect(byCount[c]).toBeGreaterThan(0);
    }
  });

  it('balances classes and names its provenance', () => {
    const ds = synthesize({ n: 103, k: 5, dims: [3], completeFraction: 1, seed: 4 });
    expect(classSizes(ds.labels!).sort()).toEqual([20, 20, 21, 21, 21]);
    expect(ds.provenance.format).toBe('synthetic');
    expect(ds.provenance.missingness).toBe('complete');
    expect(ds.provenance.decisions.map((d) => d.topic)).toEqual(['generator', 'missingness']);
  });

  it('refuses bad options with a message naming them', () => {
    const base = { n: 10, k: 2, dims: [3, 3], completeFraction: 0.5, seed: 1 };
    expect(() => synthesize({ ...base, n: 0 })).toThrow(
      'synth: n must be a whole number of at least 1, got 0',
    );
    expect(() => synthesize({ ...base, k: 11 })).toThrow(
      'synth: k = 11 classes exceeds n = 10 samples',
    );
    expect(() => synthesize({ ...base, dims: [3, 0] })).toThrow(
      'synth: dims[1] (view 2) must be a whole number',
    );
    expect(() => synthesize({ ...base, completeFraction: 1.5 })).toThrow(
      'synth: completeFraction must be from 0 to 1',
    );
    expect(() => synthesize({ ...base, dims: [3] })).toThrow(
      'with one view every sample is complete',
    );
    expect(() => synthesize({ ...base, n: 1e6, dims: [1000], completeFraction: 1 })).toThrow(
      'exceeds the limit',
    );
    expect(() => synthesize({ ...base, noise: -1 })).toThrow(
      'synth: noise must be a finite number ≥ 0',
    );
  });

  it('has cluster structure IMVC-CBG recovers (separation 8, p = 0.5, 4 views)', () => {
    const ds = synthesize({
      n: 1200,
      k: 4,
      dims: [30, 30, 30, 30],
      completeFraction: 0.5,
      seed: 6,
      separation: 8,
    });
    const gen = evaluate(ds, imvcCbg, validateParams(imvcCbg.schema, { restarts: 3 }), 4, {
      protocol: 'single',
      seed: 1,
      replicates: 10,
    });
    let r = gen.next();
    while (!r.done) r = gen.next();
    expect(clusteringMetrics(ds.labels!.codes, r.value.labels).ACC).toBeGreaterThan(0.9);
  });
});
