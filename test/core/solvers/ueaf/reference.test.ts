/**
 * ueaf against ../shared/reference/baselines-incomplete.json (runs 'UEAF': NGs Per0.1, Per0.5,
 * Per0.9; UEAF was not run on BDGP). The reference starts from the legacy MATLAB/Octave
 * generator (`rand('seed', …)`), which no port reproduces, and there is no fixed-start fixture
 * for UEAF (the file's notes: "not run: … MIC/UEAF fixed starts"), so its objective trace and
 * P's singular values are not compared (they belong to that start). What is compared:
 *
 * - **The feature graphs** (deterministic, every recorded file): L_v is d_v × d_v exactly, and
 *   tr(L_v) = nnz(W_v) equals the record to within 0.25 % (|Δ| ≤ 42 of ~24,000 on the nine
 *   views; three are equal). The difference is one decision the port cannot reproduce: which
 *   of several features at a rounding-level tie a feature takes as neighbour. Exact duplicate
 *   features with two or more nonzeros are the common case (a few to ~260 per view): the
 *   reference's distances between them, and each feature's distance to itself, are rounding
 *   noise of ‖a‖² + ‖b‖² − 2·a·b with OpenBLAS's products, while ours are exactly 0 and tie to
 *   the lower index. Single-nonzero duplicates and all-zero features tie exactly in both and
 *   are decided alike; the rule itself is checked exactly against a plain constructW in
 *   test/core/graph/knn-binary.test.ts.
 * - **Accuracy** under the paper protocol (20 seeds, each its own random start, then k-means
 *   best of 20 k-means++ starts, at most 1000 iterations): ACC, NMI, Purity means within
 *   max(0.02, 2σ√(2/20)) of the record. Run on NGs Per0.9 only: 20 solves of the n × n
 *   iteration fit the test budget there (about 10 iterations each), not on Per0.5 (17) or
 *   Per0.1 (25), whose accuracy was checked by hand (the report of the change that added
 *   this test) and whose graphs are checked above. The recorded σ is the k-means spread of
 *   one start only, so the band is its floor, 0.02.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateParams } from '../../../../src/core/solvers/params';
import { featureGraph, ueaf } from '../../../../src/core/solvers/ueaf';
import { incompleteInput } from '../../../../src/core/views/incomplete-input';
import { transposeInto } from '../../../../src/core/linalg/dense';
import { loadDataset } from '../../../../src/io/load';
import { DATASETS } from '../../../helpers/paths';
import {
  band,
  CBG_PROTOCOL,
  incompleteReference,
  METRIC_NAMES,
  recordedRuns,
} from '../../../helpers/incomplete-reference';
import { referenceSuite } from '../../../helpers/reference';

const runs = recordedRuns('UEAF');
const defaults = validateParams(ueaf.schema, {});

/** Features (rows of the d × n_v block) that have an exact duplicate and ≥ 2 nonzeros. */
function duplicatedFeatures(rows: Float64Array, d: number, m: number): number {
  const groups = new Map<string, number>();
  const keys: string[] = [];
  for (let f = 0; f < d; f++) {
    const parts: string[] = [];
    for (let j = 0; j < m; j++) {
      const x = rows[f * m + j]!;
      if (x !== 0) parts.push(`${j}:${x}`);
    }
    const key = parts.length >= 2 ? parts.join(',') : '';
    keys.push(key);
    if (key) groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  return keys.filter((k) => k && groups.get(k)! > 1).length;
}

describe('ueaf reference (baselines-incomplete.json, UEAF)', () => {
  it('has the 3 recorded NGs runs, all at our defaults (dim = k)', () => {
    expect(runs.map((r) => r.file).sort()).toEqual([
      'NGs/NGs_Per0.1.mat',
      'NGs/NGs_Per0.5.mat',
      'NGs/NGs_Per0.9.mat',
    ]);
    for (const r of runs) {
      const p = r.params;
      expect([p['lambda1'], p['lambda2'], p['lambda3'], p['r'], p['knn']]).toEqual([
        defaults['lambda1'],
        defaults['lambda2'],
        defaults['lambda3'],
        defaults['r'],
        defaults['knn'],
      ]);
      expect(p['max_iter']).toBe(defaults['iterations']);
      expect(p['dim']).toBe(r.k);
      expect(defaults['dim']).toBe(0); // 0 = k
    }
  });

  describe('feature graphs (deterministic): size exact, trace up to rounding-level ties', () => {
    for (const run of runs) {
      it(run.file, async () => {
        const ds = await loadDataset(join(DATASETS, run.file));
        const input = incompleteInput({ n: ds.n, views: ds.views, sampleIds: null });
        const checks = run.raw['graph_checks'] as { Lv_size: number[]; Lv_trace: number[] };
        const k = defaults['knn'] as number;
        input.views.forEach((view, v) => {
          const W = featureGraph(view.values, k);
          expect(W.rows, `view ${v + 1} size`).toBe(checks.Lv_size[v]);
          const trace = W.indptr[W.rows]!;
          const t = transposeInto(view.values as typeof view.values & { kind: 'dense' });
          const dup = duplicatedFeatures(t.data, t.rows, t.cols);
          const ref = checks.Lv_trace[v]!;
          console.log(
            `${run.file} view ${v + 1}: tr(L) ${trace} (ref ${ref}), ` +
              `${dup} duplicated features with ≥ 2 nonzeros`,
          );
          expect(Math.abs(trace - ref) / ref, `view ${v + 1} trace`).toBeLessThanOrEqual(2.5e-3);
        });
      });
    }
  });

  referenceSuite(ueaf, incompleteReference, {
    title: 'paper-protocol accuracy (NGs Per0.9; see the file comment for why only it)',
    select: (r) => r.method === 'UEAF' && r.file === 'NGs/NGs_Per0.9.mat',
    expectedRuns: 1,
    name: (run) => `${run.file}: ACC, NMI, Purity means within the band`,
    params: () => defaults,
    protocol: { ...CBG_PROTOCOL, seed: 1 },
    metrics: { names: METRIC_NAMES, band },
    timeout: 900_000,
  });
});
