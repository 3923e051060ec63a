/**
 * APMC on small data against an oracle written from the spec (baselines-incomplete.md §4) with
 * nothing shared but the distance expansion: per view pair the full distance matrix, a stable
 * sort per row, Z, S_p = Z·diag(1/colsum)·Zᵀ as dense arrays, and the mean over the pairs that
 * contain both samples counted sample by sample. Integer data with repeated rows makes the
 * anchor ranking tie, so the group order (which anchor wins a tie) is compared too. Then the
 * operator against the dense S, the group table of the 3-view code, a toy whose clusters are
 * recovered exactly, 4 views, and the errors.
 */
import { describe, expect, it } from 'vitest';
import type { MultiViewDataset, View } from '../../../../src/core/dataset';
import { evaluate } from '../../../../src/core/protocol';
import { squaredDistances } from '../../../../src/core/kernels/distances';
import type { Mat } from '../../../../src/core/linalg/types';
import { createRng } from '../../../../src/core/random';
import {
  apmc,
  denseSimilarity,
  pairGraphs,
  presenceGroups,
  similarityOp,
  spectrum,
} from '../../../../src/core/solvers/apmc';
import type { SolverInput } from '../../../../src/core/solvers/types';
import { denseRows } from '../../../../src/core/views/present';
import { referenceUnitRowsView } from '../../../../src/core/views/reference-norm';
import { dataset, denseView, drain } from '../../../helpers/toy';

/** n samples, V views of width d with integer entries in 0..2 and duplicated samples. */
function intData(n: number, V: number, d: number, seed: number, keep = 0.7): MultiViewDataset {
  const rng = createRng(seed);
  const rows = Array.from({ length: n }, () => Array.from({ length: V * d }, () => 0));
  for (let i = 0; i < n; i++) {
    const src = i % 9 === 8 ? i - 1 : i; // every ninth sample repeats the one before
    for (let t = 0; t < V * d; t++)
      rows[i]![t] = src === i ? Math.floor(rng.next() * 3) : rows[src]![t]!;
  }
  const views: View[] = [];
  for (let v = 0; v < V; v++) {
    const present: number[] = [];
    for (let i = 0; i < n; i++) {
      // Sample i misses at most V − 1 views: view (i mod V) is always there.
      if (i % V === v || i % 5 === 0 || rng.next() < keep) present.push(i);
    }
    views.push(
      denseView(
        `v${v + 1}`,
        present,
        present.map((i) => rows[i]!.slice(v * d, (v + 1) * d)),
      ),
    );
  }
  return dataset(n, views);
}

/** The oracle S (n × n) from the spec, see the file comment. */
function oracle(ds: MultiViewDataset, k: number): Mat {
  const { n } = ds;
  const V = ds.views.length;
  const unit = ds.views.map((v) => denseRows(referenceUnitRowsView(v)));
  const has = ds.views.map((v) => {
    const at = new Int32Array(n).fill(-1);
    v.present.forEach((i, r) => (at[i] = r));
    return at;
  });
  const count = (i: number): number => has.filter((h) => h[i]! >= 0).length;
  const key = (i: number): number =>
    has.reduce((a, h, v) => a + (h[i]! >= 0 ? 2 ** (V - 1 - v) : 0), 0);
  const byGroup = (xs: number[]): number[] =>
    xs.sort((i, j) => count(j) - count(i) || key(j) - key(i) || i - j);
  const S = new Float64Array(n * n);
  const t = new Float64Array(n * n);
  for (let a = 0; a < V; a++) {
    for (let b = a + 1; b < V; b++) {
      const all = Array.from({ length: n }, (_, i) => i);
      const P = byGroup(all.filter((i) => has[a]![i]! >= 0 && has[b]![i]! >= 0));
      const A1 = byGroup(all.filter((i) => has[a]![i]! >= 0 && has[b]![i]! < 0));
      const B1 = byGroup(all.filter((i) => has[b]![i]! >= 0 && has[a]![i]! < 0));
      const m = P.length;
      const zOf = (v: number, rows: number[]): number[][] => {
        const pick = (ids: number[]): Mat => {
          const d = unit[v]!.cols;
          const data = new Float64Array(ids.length * d);
          ids.forEach((i, r) =>
            data.set(unit[v]!.data.subarray(has[v]![i]! * d, (has[v]![i]! + 1) * d), r * d),
          );
          return { rows: ids.length, cols: d, data };
        };
        const D = squaredDistances(pick(rows), pick(P));
        let sum = 0;
        for (const x of D.data) sum += x;
        const sigma = (4 * sum) / D.data.length;
        return rows.map((_, r) => {
          const order = Array.from({ length: m }, (_, j) => j).sort(
            (x, y) => D.data[r * m + x]! - D.data[r * m + y]!,
          );
          const z = new Array<number>(m).fill(0);
          for (const j of order.slice(0, k)) z[j] = Math.exp(-D.data[r * m + j]! / sigma);
          const s = z.reduce((p, q) => p + q, 0);
          return z.map((x) => (x / s < 1e-10 ? 0 : x / s));
        });
      };
      const Za = zOf(a, [...P, ...A1]);
      const Zb = zOf(b, [...P, ...B1]);
      const rows = [...P, ...A1, ...B1];
      const Z = [
        ...P.map((_, r) => Za[r]!.map((x, j) => 0.5 * (x + Zb[r]![j]!))),
        ...A1.map((_, r) => Za[m + r]!),
        ...B1.map((_, r) => Zb[m + r]!),
      ];
      const col = Array.from({ length: m }, (_, j) => Z.reduce((s, z) => s + z[j]!, 0));
      rows.forEach((i, r) =>
        rows.forEach((i2, r2) => {
          let s = 0;
          for (let j = 0; j < m; j++) s += (Z[r]![j]! * Z[r2]![j]!) / col[j]!;
          S[i * n + i2]! += s;
          t[i * n + i2]! += 1;
        }),
      );
    }
  }
  for (let p = 0; p < n * n; p++) S[p]! /= t[p]!;
  return { rows: n, cols: n, data: S };
}

function graphs(ds: MultiViewDataset, k: number, guard = false) {
  const groups = presenceGroups(ds as SolverInput);
  const pairs = drain(pairGraphs(ds.views.map(referenceUnitRowsView), groups, k, guard)).output;
  return { groups, pairs };
}

const maxAbs = (a: Float64Array, b: Float64Array): number =>
  a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i]!)), 0);

describe('apmc similarity', () => {
  it.each([
    [2, 40, 3],
    [3, 60, 4],
    [4, 50, 2],
  ])('V = %i, n = %i: S equals the oracle, with ties (k = %i)', (V, n, k) => {
    const ds = intData(n, V, 6, V * 100 + n);
    const { groups, pairs } = graphs(ds, k);
    const S = denseSimilarity(groups, pairs);
    const O = oracle(ds, k);
    expect(maxAbs(S.data, O.data)).toBeLessThan(1e-14);
    // The operator gives the same products as the dense S.
    const b = 3;
    const rng = createRng(5);
    const X: Mat = {
      rows: n,
      cols: b,
      data: Float64Array.from({ length: n * b }, () => rng.next() - 0.5),
    };
    const Y: Mat = { rows: n, cols: b, data: new Float64Array(n * b) };
    similarityOp(groups, pairs).apply(X, Y);
    const ref = new Float64Array(n * b);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++)
        for (let c = 0; c < b; c++) ref[i * b + c]! += S.data[i * n + j]! * X.data[j * b + c]!;
    expect(maxAbs(Y.data, ref)).toBeLessThan(1e-13);
  });

  it('the 3-view groups and averaging counts of APMC_3views (t = 3, 2 or 1)', () => {
    // Samples 0..6 in the patterns 111, 110, 101, 011, 100, 010, 001, listed backwards.
    const pattern = ['001', '010', '100', '011', '101', '110', '111'];
    const views = [0, 1, 2].map((v) => {
      const present = pattern.flatMap((p, i) => (p[v] === '1' ? [i] : []));
      return denseView(
        `v${v + 1}`,
        present,
        present.map((i) => [1, i]),
      );
    });
    const g = presenceGroups(dataset(7, views) as SolverInput);
    expect(g.patterns).toEqual([7, 6, 5, 3, 4, 2, 1]);
    expect([...g.order]).toEqual([6, 5, 4, 3, 2, 1, 0]);
    const t = Array.from(g.invCount, (x) => Math.round(1 / x));
    expect(t).toEqual(
      [
        [3, 3, 3, 3, 2, 2, 2],
        [3, 3, 3, 3, 2, 2, 2],
        [3, 3, 3, 3, 2, 2, 2],
        [3, 3, 3, 3, 2, 2, 2],
        [2, 2, 2, 2, 2, 1, 1],
        [2, 2, 2, 2, 1, 2, 1],
        [2, 2, 2, 2, 1, 1, 2],
      ].flat(),
    );
  });
});

describe('apmc spectral step', () => {
  it('the eigenvalues of both paths equal a full decomposition of the dense Laplacian', async () => {
    const { symEigValues } = await import('../../../../src/core/linalg/kernels');
    const ds = intData(300, 3, 8, 9);
    const { groups, pairs } = graphs(ds, 5);
    const S = denseSimilarity(groups, pairs);
    const n = ds.n;
    const L = Float64Array.from(S.data, (x) => -x);
    for (let i = 0; i < n; i++) {
      let d = 0;
      for (let j = 0; j < n; j++) d += S.data[i * n + j]!;
      L[i * n + i]! += d;
    }
    const all = symEigValues({ rows: n, cols: n, data: L });
    // The operator path (forced: dense below 512 samples) and the dense path.
    const sp = spectrum(groups, pairs, 4, 0);
    const dense = spectrum(groups, pairs, 4);
    expect(sp.converged).toBe(true);
    expect(sp.matvecs).toBeGreaterThan(0);
    expect(dense.matvecs).toBe(0);
    for (let j = 0; j < 5; j++) {
      expect(Math.abs(sp.values[j]! - all[j]!)).toBeLessThan(1e-12);
      expect(Math.abs(dense.values[j]! - all[j]!)).toBeLessThan(1e-12);
    }
    // The same embedding up to a rotation: equal row Gram matrices F·Fᵀ on a few rows.
    for (let i = 0; i < 20; i++) {
      for (let j = 0; j < 20; j++) {
        let a = 0;
        let b = 0;
        for (let t = 0; t < 4; t++) {
          a += sp.embedding.data[i * 4 + t]! * sp.embedding.data[j * 4 + t]!;
          b += dense.embedding.data[i * 4 + t]! * dense.embedding.data[j * 4 + t]!;
        }
        expect(Math.abs(a - b)).toBeLessThan(1e-8);
      }
    }
    // F'F = I before the row scaling: rows are unit length after it.
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let j = 0; j < 4; j++) s += sp.embedding.data[i * 4 + j]! ** 2;
      expect(Math.abs(s - 1)).toBeLessThan(1e-12);
    }
  });

  it('a toy: three separated blobs in three incomplete views are recovered exactly', () => {
    const rng = createRng(21);
    const n = 90;
    const truth = Array.from({ length: n }, (_, i) => i % 3);
    const centre = [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ];
    const views = [0, 1, 2].map((v) => {
      const present = truth.flatMap((_, i) => (i % 3 === v || i % 4 !== v ? [i] : []));
      const rows = present.map((i) => centre[truth[i]!]!.map((c) => c + 0.05 * rng.next()));
      return denseView(`v${v + 1}`, present, rows);
    });
    const ds = dataset(n, views, truth);
    const r = drain(evaluate(ds, apmc, {}, 3, { protocol: 'single', seed: 0 })).output;
    expect(r.metrics['ACC']!.mean).toBe(1);
  });
});

describe('apmc errors', () => {
  const ds = intData(40, 3, 5, 1);
  const run = (d: MultiViewDataset, params = {}): unknown =>
    drain(apmc.run(d as SolverInput, { anchors: 12, guard: false, ...params }, 3, createRng(0)));

  it('one view', () => {
    expect(() => run(dataset(40, [ds.views[0]!]))).toThrow(/1 view\(s\).*at least 2/);
  });
  it('a pair with fewer paired samples than anchors', () => {
    expect(() => run(ds, { anchors: 40 })).toThrow(
      /views 1 and 2 \('v1', 'v2'\) share \d+ sample\(s\), fewer than anchors = 40/,
    );
  });
  it('a sample in no view', () => {
    const v = ds.views.map((x) => ({ ...x }));
    const d = dataset(41, v);
    expect(() => run(d)).toThrow(/1 sample\(s\) are present in no view \(the first is sample 41\)/);
  });
  it('anchors nobody picks: refused without the guard, weight 0 with it', () => {
    // Ten identical zero samples in every view: each sample's 3 nearest anchors are among the
    // first zero rows for the zero samples, and the later zero anchors are picked by nobody.
    const n = 40;
    const rng = createRng(4);
    const rows = Array.from({ length: n }, (_, i) =>
      i < 10 ? [0, 0, 0] : [rng.next(), rng.next(), rng.next()],
    );
    const all = Array.from({ length: n }, (_, i) => i);
    const d = dataset(
      n,
      [0, 1].map((v) => denseView(`v${v + 1}`, all, rows)),
    );
    expect(() => run(d, { anchors: 3 })).toThrow(
      /views 1 and 2 \('v1', 'v2'\): \d+ of 40\).*guard/,
    );
    const out = drain(
      apmc.run(d as SolverInput, { anchors: 3, guard: true }, 2, createRng(0)),
    ).output;
    expect(out.notes.join(' ')).toMatch(/guard: \d+ anchor/);
    expect(out.embedding.data.every(Number.isFinite)).toBe(true);
  });
});
