/**
 * External metrics against the reference MATLAB code's outputs (../shared/reference/metrics.json,
 * Octave) and scikit-learn (test/fixtures/metrics/make.py -> sklearn.json); silhouette against
 * scikit-learn; the assignment solver against brute force; hand-checked toys and edge rules.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  CGL_ORDER,
  IMPROVED_ORDER,
  adjustedRandIndex,
  assignment,
  clusteringMetrics,
  contingency,
  silhouette,
  silhouetteSamples,
  type ClusteringMetrics,
} from '../../../src/core/metrics';
import type { Mat } from '../../../src/core/linalg/types';
import { createRng } from '../../../src/core/random';
import { readReferenceJson } from '../../helpers/reference';

const here = dirname(fileURLToPath(import.meta.url));

interface ReferenceCase {
  id: number;
  name: string;
  true: number[];
  pred: number[];
  improved: Record<string, number>;
  cgl_order_vector: number[];
}
interface Reference {
  produced_by: { output_order: string[] };
  second_vector: { output_order: string[] };
  cases: ReferenceCase[];
}
interface SklearnFixture {
  labels: { name: string; truth: number[]; pred: number[]; NMI: number; ARI: number }[];
  silhouette: { name: string; X: number[][]; labels: number[]; score: number; samples: number[] }[];
}

const reference = readReferenceJson('metrics') as unknown as Reference;
const sk = JSON.parse(
  readFileSync(join(here, '../../fixtures/metrics/sklearn.json'), 'utf8'),
) as SklearnFixture;

const toMat = (rows: number[][]): Mat => ({
  rows: rows.length,
  cols: rows[0]!.length,
  data: Float64Array.from(rows.flat()),
});

/** |a − b| ≤ tol · max(1, |b|): all these metrics are O(1) (entropies up to log2 #clusters). */
const TOL = 1e-12;
const close = (a: number, b: number): boolean => Math.abs(a - b) <= TOL * Math.max(1, Math.abs(b));

describe('clusteringMetrics against the reference MATLAB code (24 Octave cases)', () => {
  it('uses the reference output orders, with the two entropies told apart', () => {
    expect(reference.produced_by.output_order).toEqual([...IMPROVED_ORDER.slice(0, 7), 'Entropy']);
    expect(reference.second_vector.output_order).toEqual(CGL_ORDER);
  });

  it.each(reference.cases.map((c) => [c.id, c.name, c] as const))(
    'case %i %s: every metric of both vectors to 1e-12',
    (_id, _name, c) => {
      const m = clusteringMetrics(c.true, c.pred);
      const improved = Object.values(c.improved);
      const bad: string[] = [];
      IMPROVED_ORDER.forEach((key, i) => {
        if (!close(m[key], improved[i]!)) bad.push(`improved ${key}: ${m[key]} vs ${improved[i]}`);
      });
      CGL_ORDER.forEach((key, i) => {
        const ref = c.cgl_order_vector[i]!;
        if (!close(m[key], ref)) bad.push(`cgl ${key}: ${m[key]} vs ${ref}`);
      });
      expect(bad).toEqual([]);
    },
  );
});

describe('clusteringMetrics against scikit-learn', () => {
  it.each(sk.labels.map((c) => [c.name, c] as const))('%s: NMI and ARI to 1e-12', (_n, c) => {
    const m = clusteringMetrics(c.truth, c.pred);
    expect(Math.abs(m.NMI - c.NMI)).toBeLessThanOrEqual(TOL);
    expect(Math.abs(m.ARI - c.ARI)).toBeLessThanOrEqual(TOL);
  });

  it.each(sk.labels.map((c) => [c.name, c] as const))(
    '%s: adjustedRandIndex alone equals scikit-learn, both ways round',
    (_n, c) => {
      expect(Math.abs(adjustedRandIndex(c.truth, c.pred) - c.ARI)).toBeLessThanOrEqual(TOL);
      expect(Math.abs(adjustedRandIndex(c.pred, c.truth) - c.ARI)).toBeLessThanOrEqual(TOL);
    },
  );
});

describe('hand-checked toy and edge rules', () => {
  it('truth [0,0,1,1], pred [0,1,1,1]: G = [[1,1],[0,2]]', () => {
    const m = clusteringMetrics([0, 0, 1, 1], [0, 1, 1, 1]);
    const h = (p: number[]): number => p.reduce((s, x) => s - (x > 0 ? x * Math.log2(x) : 0), 0);
    const expected: ClusteringMetrics = {
      ACC: 3 / 4, // cluster 0 -> class 0 (1), cluster 1 -> class 1 (2)
      Purity: 3 / 4,
      Precision: 1 / 3, // TP = C(2,2) = 1; same-cluster pairs C(1,2) + C(3,2) = 3
      Recall: 1 / 2, // same-class pairs 1 + 1
      Fscore: 0.4,
      ARI: 0, // E = 2·3/6 = 1 = TP
      NMI:
        (2 * (h([1 / 2, 1 / 2]) + h([1 / 4, 3 / 4]) - h([1 / 4, 1 / 4, 2 / 4]))) /
        (1 + h([1 / 4, 3 / 4])),
      Entropy: (3 / 4) * h([1 / 3, 2 / 3]),
      EntropyPred: h([1 / 4, 3 / 4]),
    };
    for (const key of Object.keys(expected) as (keyof ClusteringMetrics)[]) {
      expect(m[key], key).toBeCloseTo(expected[key], 14);
    }
  });

  it('depends only on the partitions: relabelling, {0,2,3} (which crashes the reference), order', () => {
    const r = createRng(4);
    const truth = Array.from({ length: 300 }, () => r.int(4));
    const pred = truth.map((t) => (r.next() < 0.3 ? r.int(5) : t));
    const base = clusteringMetrics(truth, pred);
    const code = [0, 2, 3, 17, -4];
    const relabelled = clusteringMetrics(
      truth.map((t) => [10, 3, 7, 9]![t]!),
      pred.map((p) => code[p]!),
    );
    const perm = r.shuffle(Array.from({ length: 300 }, (_, i) => i));
    const shuffled = clusteringMetrics(
      perm.map((i) => truth[i]!),
      perm.map((i) => pred[i]!),
    );
    for (const key of Object.keys(base) as (keyof ClusteringMetrics)[]) {
      expect(close(relabelled[key], base[key]), key).toBe(true);
      expect(close(shuffled[key], base[key]), key).toBe(true);
    }
    expect(clusteringMetrics(Float64Array.of(0.5, 0.5, 2.25), Int32Array.of(0, 0, 1)).ACC).toBe(1);
  });

  it('one class and one cluster: P = R = F = 1, ARI = 0 (reference rule), NMI = 1 (scikit-learn)', () => {
    const m = clusteringMetrics([3, 3, 3, 3], [1, 1, 1, 1]);
    expect(m).toEqual({
      ACC: 1,
      NMI: 1,
      Purity: 1,
      Fscore: 1,
      Precision: 1,
      Recall: 1,
      ARI: 0,
      Entropy: 0,
      EntropyPred: 0,
    });
  });

  it('all singletons on both sides, and n = 1', () => {
    const m = clusteringMetrics([1, 2, 3], [9, 8, 7]);
    expect([m.Precision, m.Recall, m.Fscore, m.ARI, m.ACC, m.NMI]).toEqual([1, 1, 1, 0, 1, 1]);
    const one = clusteringMetrics([5], [2]);
    expect([one.ACC, one.ARI, one.Fscore]).toEqual([1, 0, 1]);
  });

  it('contingency identities: cells sum to n, rows to class sizes, columns to cluster sizes', () => {
    const r = createRng(6);
    const truth = Array.from({ length: 1000 }, () => r.int(7));
    const pred = Array.from({ length: 1000 }, () => 100 + r.int(12));
    const G = contingency(truth, pred);
    const cols = new Float64Array(G.nClusters);
    for (let i = 0; i < G.nClasses; i++) {
      let row = 0;
      for (let p = G.rowPtr[i]!; p < G.rowPtr[i + 1]!; p++) {
        row += G.count[p]!;
        cols[G.cluster[p]!]! += G.count[p]!;
      }
      expect(row).toBe(G.classSizes[i]);
      expect(row).toBe(truth.filter((t) => t === i).length);
    }
    expect(Array.from(cols)).toEqual(Array.from(G.clusterSizes));
    expect(G.count.reduce((s, x) => s + x, 0)).toBe(1000);
  });

  it('rejects bad input with clear messages', () => {
    expect(() => clusteringMetrics([1, 2], [1])).toThrow(/truth has 2 labels but pred has 1/);
    expect(() => clusteringMetrics([], [])).toThrow(/empty/);
    expect(() => clusteringMetrics([1, NaN], [1, 1])).toThrow(/truth\[1\] is NaN/);
    expect(() => clusteringMetrics([1, 2], [1, Infinity])).toThrow(/pred\[1\] is Infinity/);
  });
});

describe('assignment (Hungarian)', () => {
  /** Minimum over all injective maps of the shorter side, by brute force. */
  function brute(C: Mat): number {
    const { rows: r, cols: c } = C;
    const small = Math.min(r, c);
    const big = Math.max(r, c);
    const at = (s: number, b: number): number => (r <= c ? C.data[s * c + b]! : C.data[b * c + s]!);
    let best = Infinity;
    const used = new Array<boolean>(big).fill(false);
    const walk = (s: number, acc: number): void => {
      if (s === small) {
        best = Math.min(best, acc);
        return;
      }
      for (let b = 0; b < big; b++) {
        if (used[b]) continue;
        used[b] = true;
        walk(s + 1, acc + at(s, b));
        used[b] = false;
      }
    };
    walk(0, 0);
    return best;
  }

  it('finds the optimum on 150 random matrices up to 6 × 7, either orientation', () => {
    const r = createRng(12);
    for (let t = 0; t < 150; t++) {
      const rows = 1 + r.int(6);
      const cols = 1 + r.int(7);
      const C: Mat = {
        rows,
        cols,
        data: Float64Array.from({ length: rows * cols }, () => (t % 2 ? r.int(5) : r.normal())),
      };
      const sigma = assignment(C);
      const matched = Array.from(sigma).filter((j) => j >= 0);
      expect(new Set(matched).size).toBe(Math.min(rows, cols));
      const cost = Array.from(sigma).reduce(
        (s, j, i) => (j >= 0 ? s + C.data[i * cols + j]! : s),
        0,
      );
      expect(cost).toBeCloseTo(brute(C), 12);
    }
  });
});

describe('silhouette against scikit-learn', () => {
  it.each(sk.silhouette.map((c) => [c.name, c] as const))('%s: score and every s(i)', (_n, c) => {
    const X = toMat(c.X);
    const s = silhouetteSamples(X, c.labels);
    let worst = 0;
    s.forEach((v, i) => (worst = Math.max(worst, Math.abs(v - c.samples[i]!))));
    expect(worst).toBeLessThan(1e-12);
    const res = silhouette(X, c.labels, createRng(1));
    expect(res).toMatchObject({ exact: true, sampleSize: c.labels.length, n: c.labels.length });
    expect(Math.abs(res.score - c.score)).toBeLessThan(1e-12);
  });

  it('samples above maxExact: seeded, sized as asked, close to the exact score', () => {
    const c = sk.silhouette[1]!;
    const X = toMat(c.X);
    const a = silhouette(X, c.labels, createRng(5), { maxExact: 100, sampleSize: 150 });
    const b = silhouette(X, c.labels, createRng(5), { maxExact: 100, sampleSize: 150 });
    expect(a).toEqual(b);
    expect(a).toMatchObject({ exact: false, sampleSize: 150, n: 300 });
    expect(Math.abs(a.score - c.score)).toBeLessThan(0.05);
  });

  it('gives s = 0 to singleton clusters and rejects 1 or n labels', () => {
    const X: Mat = { rows: 4, cols: 1, data: Float64Array.of(0, 1, 10, 30) };
    const s = silhouetteSamples(X, [0, 0, 1, 2]);
    expect(s[2]).toBe(0);
    expect(s[3]).toBe(0);
    expect(s[0]).toBeCloseTo((10 - 1) / 10, 14); // a = 1, b = min(10, 30)
    expect(() => silhouetteSamples(X, [0, 0, 0, 0])).toThrow(/1 distinct labels for 4 samples/);
    expect(() => silhouetteSamples(X, [0, 1, 2, 3])).toThrow(/valid is 2 to n − 1/);
    expect(() => silhouette(X, [0, 1], createRng(1))).toThrow(/2 labels for 4 samples/);
  });
});
