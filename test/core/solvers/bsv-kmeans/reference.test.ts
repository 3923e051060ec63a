/**
 * bsv-kmeans against ../shared/reference/baselines-incomplete.json (runs 'BSV': NGs Per0.1,
 * Per0.5, Per0.9 and BDGP Per0.5). The reference scored every view's mean-filled matrix with the
 * CBG protocol (20 × k-means of 20 k-means++ starts, at most 1000 iterations) and reported the
 * view of highest mean ACC: an oracle. So each recorded view is run here with criterion 'view'
 * under the same protocol and compared with its per-view record, and then the view our runs
 * score best by ACC (the same oracle, applied in the test, since solvers never see labels) is
 * compared with the recorded BSV row. Band: max(0.02, 2σ√(2/20)) below each recorded mean of
 * ACC, NMI and Purity (σ the recorded std).
 *
 * One-sided on purpose: the filled matrices equal the reference's (incomplete-input.test.ts),
 * but on 8 of the 12 views our best-of-20 k-means++ scores well above the recorded means (NGs
 * Per0.5 view 1: ACC 0.50 against 0.356). An independent numpy k-means++ (best SSE of 20
 * starts, 20 runs) gives the same 0.50 ± 0.06 there, and a single start gives 0.30 ± 0.12: the
 * recorded Octave runs sit between the two, so they are not reproducible without Octave's
 * kmeans. What is asserted is that the port is never worse than the reference by the band.
 *
 * The records' k-means is GNU Octave statistics 1.5.3's, whose replicates after one that ended
 * with a last decrease ≤ 0.001 are not iterated (cluster/kmeans-octave.ts). Under that rule each
 * BSV row (the recorded best view) is compared both ways, over 100 seeds so our mean is close to
 * its expectation and the band measures the record's own spread.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../../../src/core/protocol';
import { loadDataset } from '../../../../src/io/load';
import { DATASETS } from '../../../helpers/paths';
import { drain } from '../../../helpers/toy';
import type { ProtocolResult } from '../../../../src/core/protocol';
import { bsvKmeans } from '../../../../src/core/solvers/bsv-kmeans';
import {
  band,
  CBG_PROTOCOL,
  expectMetricsInBand,
  incompleteReference,
  METRIC_NAMES,
  octaveProtocol,
  recordedRuns,
} from '../../../helpers/incomplete-reference';
import {
  referenceSuite,
  type MetricSummary,
  type ReferenceFile,
  type ReferenceRun,
} from '../../../helpers/reference';

const bsvRuns = recordedRuns('BSV');

interface PerView {
  readonly view: number;
  readonly metrics: Record<string, MetricSummary>;
}

/** One reference run per recorded view: its per-view metrics, the view as the parameter. */
const viewRuns: ReferenceRun[] = bsvRuns.flatMap((run) =>
  (run.raw['per_view'] as PerView[]).map((pv) => ({
    ...run,
    method: `BSV view ${pv.view}`,
    params: { view: pv.view },
    metrics: pv.metrics,
  })),
);
const perViewFile: ReferenceFile = { ...incompleteReference, runs: viewRuns };

/** Our metrics per file and view, filled by the per-view suite, read by the oracle checks. */
const ours = new Map<string, Map<number, ProtocolResult['metrics']>>();

describe('bsv-kmeans reference (baselines-incomplete.json, BSV)', () => {
  it('has the 4 recorded BSV runs, 3 views each, best view chosen by ACC (oracle)', () => {
    expect(bsvRuns.map((r) => r.file).sort()).toEqual([
      'BDGP/BDGP_fea_Per0.5.mat',
      'NGs/NGs_Per0.1.mat',
      'NGs/NGs_Per0.5.mat',
      'NGs/NGs_Per0.9.mat',
    ]);
    expect(viewRuns.length).toBe(12);
    for (const r of bsvRuns) expect(String(r.params['best_view_rule'])).toMatch(/oracle/);
  });

  referenceSuite(bsvKmeans, perViewFile, {
    title: 'each view, mean-filled, under the CBG protocol',
    name: (run) => `${run.file}: ${run.method}`,
    params: (run) => ({ criterion: 'view', view: run.params['view'] as number }),
    protocol: CBG_PROTOCOL,
    check: (result, run) => {
      const v = run.params['view'] as number;
      expectMetricsInBand(result.metrics, run, `${run.file} view ${v}`, true);
      expect(result.notes[0]).toContain(`view ${v} of 3`);
      if (!ours.has(run.file)) ours.set(run.file, new Map());
      ours.get(run.file)!.set(v, result.metrics);
    },
    timeout: 600_000,
  });

  describe('the oracle choice (best mean ACC over the views) against the BSV row', () => {
    for (const run of bsvRuns) {
      it(run.file, () => {
        const views = ours.get(run.file);
        expect(views?.size, 'the per-view runs of this file ran first').toBe(3);
        const [, best] = [...views!.entries()].reduce((a, b) =>
          b[1]['ACC']!.mean > a[1]['ACC']!.mean ? b : a,
        );
        for (const m of METRIC_NAMES) {
          const ref = run.metrics[m]!;
          expect(best[m]!.mean, `${run.file} ${m}`).toBeGreaterThanOrEqual(ref.mean - band(ref));
        }
      });
    }
  });
});

describe('the BSV rows under the records’ own k-means (Octave rule, 100 seeds): both ways', () => {
  for (const run of bsvRuns) {
    const view = run.raw['best_view'] as number;
    it(`${run.file}: view ${view}`, async () => {
      const ds = await loadDataset(join(DATASETS, run.file));
      const { output } = drain(
        evaluate(ds, bsvKmeans, { criterion: 'view', view }, run.k!, octaveProtocol(100)),
      );
      expectMetricsInBand(output.metrics, run, `${run.file} view ${view} (Octave rule)`);
    }, 900_000);
  }
});
