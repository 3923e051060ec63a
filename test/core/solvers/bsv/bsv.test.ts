/**
 * bsv: parameter errors, the label-free choice of the clean view over a noise view (toy blobs),
 * the forced view, the generator's per-view steps, the eigengap against a dense eigensolver, and
 * a smoke test on the real HW (UCI Multiple Features) file.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { kmeans } from '../../../../src/core/cluster';
import { normalisedAffinity } from '../../../../src/core/graph/affinity';
import { pknGraph } from '../../../../src/core/graph/pkn';
import { permuteCsr, rcmOrder } from '../../../../src/core/graph/reorder';
import { normaliseRows } from '../../../../src/core/graph/spectral';
import { blockEig, csrOp } from '../../../../src/core/linalg/blockeig';
import { symEigValues } from '../../../../src/core/linalg/kernels';
import { clusteringMetrics } from '../../../../src/core/metrics';
import { createRng } from '../../../../src/core/random';
import { bsv, viewSpectrum } from '../../../../src/core/solvers/bsv';
import { fillMissing } from '../../../../src/core/solvers/complete';
import { meanImputed } from '../../../../src/core/solvers/impute';
import { ParamError, validateParams } from '../../../../src/core/solvers/params';
import { getSolver } from '../../../../src/core/solvers/registry';
import type { Params } from '../../../../src/core/solvers/types';
import { loadDataset } from '../../../../src/io/load';
import { blobs, dataset, denseView, drain, pick, without } from '../../../helpers/toy';

const here = dirname(fileURLToPath(import.meta.url));
const params = (raw: Record<string, number | string> = {}): Params =>
  validateParams(bsv.schema, raw);

describe('bsv parameters', () => {
  it('has label-free defaults and is registered', () => {
    expect(params()).toEqual({ neighbors: 10, criterion: 'eigengap', view: 1 });
    expect(getSolver('bsv')).toBe(bsv);
    expect(bsv.deterministic).toBe(true);
  });

  it('names the parameter and its bounds', () => {
    const nb = "parameter 'neighbors' must be an integer from 3 to 100";
    expect(() => params({ neighbors: 2 })).toThrow(`${nb}; got 2`);
    expect(() => params({ neighbors: 101 })).toThrow(`${nb}; got 101`);
    expect(() => params({ neighbors: 4.5 })).toThrow(`${nb}; got 4.5`);
    expect(() => validateParams(bsv.schema, { neighbors: true })).toThrow(`${nb}; got true`);
    expect(() => params({ criterion: 'acc' })).toThrow(
      "parameter 'criterion' must be one of 'eigengap', 'view'; got \"acc\"",
    );
    expect(() => params({ view: 0 })).toThrow(
      "parameter 'view' must be an integer from 1 to 64; got 0",
    );
    expect(() => params({ view: 65 })).toThrow(
      "parameter 'view' must be an integer from 1 to 64; got 65",
    );
    expect(() => params({ k: 3 })).toThrow(
      "unknown parameter 'k'; parameters: neighbors, criterion, view",
    );
    expect(() => params({ neighbors: 'ten' })).toThrow(ParamError);
  });

  it('refuses a forced view the dataset does not have, and too many neighbours', () => {
    const { points } = blobs(3);
    const ds = dataset(9, [denseView('v1', without(9, []), points)]);
    expect(() =>
      drain(bsv.run(ds, params({ criterion: 'view', view: 2 }), 3, createRng(1))),
    ).toThrow("bsv: parameter 'view' is 2, but the dataset has 1 views (1..1)");
    expect(() => drain(bsv.run(ds, params({ neighbors: 8 }), 3, createRng(1)))).toThrow(
      "bsv: parameter 'neighbors' is 8, but n = 9 samples allow at most 7",
    );
  });
});

describe('bsv toy case: clean blobs against noise', () => {
  const { points, truth } = blobs(12);
  const n = points.length;
  const rng = createRng(3);
  const noise = Array.from({ length: n }, () => [rng.next() * 10, rng.next() * 10]);
  // View 1 (noise) is complete; view 2 (blobs) misses samples 0 and 20.
  const p2 = without(n, [0, 20]);
  const ds = dataset(
    n,
    [denseView('noise', without(n, []), noise), denseView('blobs', p2, pick(points, p2))],
    truth,
  );
  // The solver declares complete input: it gets the views filled, as the protocol gives them.
  const filled = fillMissing(ds).input;

  it('chooses the clean view by the eigengap and recovers its partition', () => {
    const { steps, output } = drain(bsv.run(filled, params({ neighbors: 5 }), 3, createRng(1)));
    expect(steps.map((s) => [s.stage, s.iteration])).toEqual([
      ['solve', 1],
      ['solve', 2],
    ]);
    const gaps = output.diagnostics!['eigengaps'] as number[];
    expect(steps.map((s) => s.values!['eigengap'])).toEqual(gaps);
    // Three disconnected blobs (the two imputed samples join the nearest one): λ_1 = λ_2 = λ_3
    // = 1 up to the eps in the degrees, and the gap 1 − λ_4 exceeds the noise view's.
    const values = output.diagnostics!['eigenvalues'] as number[][];
    for (const lambda of values[1]!.slice(0, 3)) expect(lambda).toBeCloseTo(1, 10);
    expect(values[0]![2]!).toBeLessThan(0.99);
    expect(gaps[1]!).toBeGreaterThan(2 * gaps[0]!);
    expect(output.diagnostics!['chosenView']).toBe(2);
    expect(output.notes[0]).toBe(
      `view 2 of 2 chosen: largest eigengap ${gaps[1]!.toPrecision(3)} (criterion 'eigengap')`,
    );
    expect(output.notes[1]).toContain('mean of that view’s present samples');
    expect(output.embedding.rows).toBe(n);
    expect(output.embedding.cols).toBe(3);
    const km = kmeans(output.embedding, 3, { replicates: 5 }, createRng(42));
    // Every sample present in the chosen view is clustered right; the two imputed ones sit at
    // the view's mean, which joins whichever blob is nearest (BSV cannot know better).
    const present = p2;
    expect(
      clusteringMetrics(
        present.map((i) => truth[i]!),
        present.map((i) => km.labels[i]!),
      ).ACC,
    ).toBe(1);
  });

  it("uses the forced view under criterion 'view', computing only that view", () => {
    const { steps, output } = drain(
      bsv.run(filled, params({ neighbors: 5, criterion: 'view', view: 1 }), 3, createRng(1)),
    );
    expect(steps.map((s) => s.iteration)).toEqual([1]);
    expect(output.diagnostics!['chosenView']).toBe(1);
    expect(output.notes[0]).toMatch(/^view 1 of 2 chosen: forced by parameter 'view'/);
  });

  it('gives the same bits as its steps run one by one (graph/spectral.ts does the eigenpairs)', () => {
    const X = meanImputed(ds.views[1]!, n);
    const k = 3;
    const W = pknGraph(X, 5);
    const perm = rcmOrder(W);
    const L = permuteCsr(normalisedAffinity(W), perm);
    const r = blockEig(csrOp(L), k + 1, { bounds: { lower: -1, upper: 1 }, which: 'largest' });
    const F = new Float64Array(n * k);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < k; j++) F[perm[i]! * k + j] = r.vectors.data[i * (k + 1) + j]!;
    const s = viewSpectrum(X, 5, k);
    expect(Array.from(s.embedding.data)).toEqual(
      Array.from(normaliseRows({ rows: n, cols: k, data: F }).data),
    );
    expect(Array.from(s.values)).toEqual(Array.from(r.values));
    expect(s.eigengap).toBe(r.values[k - 1]! - r.values[k]!);
  });

  it('reports the gap of the normalised affinity’s spectrum (dense eigensolver)', () => {
    const X = meanImputed(ds.views[0]!, n);
    const L = normalisedAffinity(pknGraph(X, 5));
    const dense = new Float64Array(n * n);
    for (let i = 0; i < n; i++)
      for (let p = L.indptr[i]!; p < L.indptr[i + 1]!; p++)
        dense[i * n + L.indices[p]!] = L.data[p]!;
    const all = Array.from(symEigValues({ rows: n, cols: n, data: dense })).sort((a, b) => b - a);
    const s = viewSpectrum(X, 5, 3);
    expect(s.eigengap).toBeCloseTo(all[2]! - all[3]!, 10);
    // Rows of the embedding have unit length.
    for (let i = 0; i < n; i++) {
      let r = 0;
      for (let j = 0; j < 3; j++) r += s.embedding.data[i * 3 + j]! ** 2;
      expect(r).toBeCloseTo(1, 12);
    }
  });
});

describe('bsv on HW (UCI Multiple Features, 2000 samples, 6 views, 10 classes)', () => {
  it('clusters well above chance', async () => {
    const ds = await loadDataset(join(here, '../../../../../shared/datasets/HW/HW.mat'));
    expect(ds.n).toBe(2000);
    const { output } = drain(bsv.run(ds, params(), 10, createRng(1)));
    const km = kmeans(output.embedding, 10, { replicates: 10 }, createRng(1));
    const acc = clusteringMetrics(ds.labels!.codes, km.labels).ACC;
    console.info(`bsv HW: ${output.notes[0]}; ACC ${acc.toFixed(4)}; gaps`, output.diagnostics);
    expect(acc).toBeGreaterThan(0.5);
  }, 30_000);
});
