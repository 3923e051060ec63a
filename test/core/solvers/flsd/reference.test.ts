/**
 * flsd against ../shared/reference/baselines-incomplete.json (runs 'FLSD': NGs Per0.1/0.5/0.9
 * and BDGP Per0.1/0.5/0.9 from the reference's random start; 'FLSD (fixed-start fixture)': NGs
 * Per0.5 from the portable DCT start).
 *
 * - Graphs (deterministic): each view's binary kNN graph has the recorded W_sum = W_nnz: on BDGP
 *   Per0.5 exactly; elsewhere within 0.2 % of the entries. On NGs (binary words, so many pairs
 *   tie exactly in distance) the reference's choice among exact ties at the (k + 1)-th
 *   neighbour is decided by OpenBLAS's rounding of the dot products, which no other summation
 *   reproduces (NGs Per0.5: 3710, 3672, 3778 against 3712, 3676, 3774); on BDGP Per0.1 and
 *   Per0.9 one edge of view 1 (of 17154 and 29958 entries) falls the other way for the same
 *   reason.
 * - Fixed-start trace (the solver run directly, one solve): because those few NGs edges differ, the trace cannot match the record to
 *   1e-9 (the iteration itself is matched to 1e-9 by oracle.test.ts on one shared graph); here
 *   the first and last objective values within 0.5 % and α within 1e-3.
 * - Accuracy (paper protocol: 20 seeds, k-means best of 20, ≤ 1000 iterations): ACC, NMI and
 *   Purity means within max(0.02, 2σ√(2/20)) of the record. NGs Per0.5 runs the default random
 *   start (20 solves, as `mvstudio run flsd` does); the other runs use start 'dct', solved once
 *   (the output does not depend on the seed, so the solver is wrapped as deterministic), to
 *   keep the file within the test budget: the reference's random start cannot be reproduced by
 *   any port (Octave's legacy generator), so a start of ours is compared either way.
 *   BDGP Per0.9 is one-sided: the recorded k-means spread there is large (ACC σ 0.039) and our
 *   best-of-20 k-means++ lands at the better end (ACC ≈ 0.47 against 0.40): the assertion is
 *   that the port is not worse than the reference by the band.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createRng } from '../../../../src/core/random';
import { flsd, flsdViews } from '../../../../src/core/solvers/flsd';
import { validateParams } from '../../../../src/core/solvers/params';
import type { Solver } from '../../../../src/core/solvers/types';
import { incompleteInput } from '../../../../src/core/views/incomplete-input';
import { loadDataset } from '../../../../src/io/load';
import { DATASETS } from '../../../helpers/paths';
import {
  CBG_PROTOCOL,
  expectMetricsInBand,
  incompleteReference,
  recordedRuns,
} from '../../../helpers/incomplete-reference';
import { referenceSuite, type ReferenceRun } from '../../../helpers/reference';
import { drain } from '../../../helpers/toy';

const runs = recordedRuns((r) => r.method.startsWith('FLSD'));
const isFixture = (r: ReferenceRun) => r.method === 'FLSD (fixed-start fixture)';
const randomStart = (r: ReferenceRun) => r.method === 'FLSD' && r.file === 'NGs/NGs_Per0.5.mat';
const oneSided = (r: ReferenceRun) => r.file === 'BDGP/BDGP_fea_Per0.9.mat';
/** flsd with start 'dct' does not read the rng: solved once, as a deterministic method is. */
const solvedOnce: Solver = { ...flsd, deterministic: true };

/** The reference's parameters under our names. */
const paramsOf = (r: ReferenceRun) => ({
  lambda1: r.params['lambda1'] as number,
  lambda2: r.params['lambda2'] as number,
  r: r.params['r'] as number,
  knn: r.params['knn'] as number,
  iterations: r.params['max_iter'] as number,
  start: randomStart(r) ? 'random' : 'dct',
});

const relative = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);

describe('flsd reference (baselines-incomplete.json, FLSD)', () => {
  it('has the 7 recorded FLSD runs', () => {
    expect(runs.length).toBe(7);
    expect(runs.filter(isFixture).length).toBe(1);
  });

  describe('graphs: W_sum = W_nnz per view', () => {
    const files = [...new Set(runs.map((r) => r.file))];
    for (const file of files) {
      it(file, async () => {
        const run = runs.find((r) => r.file === file)!;
        const ds = await loadDataset(join(DATASETS, file));
        const views = flsdViews(incompleteInput(ds).views, run.params['knn'] as number);
        const ref = (run.checks['graph_checks'] as { W_nnz: number[]; W_sum: number[] }).W_nnz;
        const ours = views.map((v) => v.W.indices.length);
        const sums = views.map((v) => v.degree.reduce((a, b) => a + b, 0));
        console.log(`${file}: W_nnz ${ours.join(', ')} (ref ${ref.join(', ')})`);
        expect(sums).toEqual(ours);
        if (file === 'BDGP/BDGP_fea_Per0.5.mat') expect(ours).toEqual(ref);
        else
          ours.forEach((x, v) =>
            expect(Math.abs(x - ref[v]!)).toBeLessThanOrEqual(0.002 * ref[v]!),
          );
      });
    }
  });

  it('fixed start (NGs Per0.5): first and last objective within 0.5 %, α within 1e-3', async () => {
    const run = runs.find(isFixture)!;
    const ds = await loadDataset(join(DATASETS, run.file));
    const { output } = drain(
      flsd.run(ds, validateParams(flsd.schema, paramsOf(run)), 5, createRng(0)),
    );
    const recorded = run.objective!;
    const trace = output.objective;
    console.log(
      `fixture: ${trace.length} iterations (ref ${recorded.length}), first ${trace[0]} ` +
        `(ref ${recorded[0]}), last ${trace.at(-1)} (ref ${recorded.at(-1)})`,
    );
    expect(relative(trace[0]!, recorded[0]!)).toBeLessThan(5e-3);
    expect(relative(trace.at(-1)!, recorded.at(-1)!)).toBeLessThan(5e-3);
    const alpha = (output.diagnostics as { alpha: number[] }).alpha;
    const refAlpha = run.raw['alpha'] as number[];
    alpha.forEach((a, v) => expect(Math.abs(a - refAlpha[v]!)).toBeLessThan(1e-3));
  });

  referenceSuite((r) => (randomStart(r) ? flsd : solvedOnce), incompleteReference, {
    title: 'metrics under the paper protocol',
    select: (r) => r.method.startsWith('FLSD'),
    name: (r) => `${r.file}: ${r.method} (start ${paramsOf(r).start})`,
    params: paramsOf,
    protocol: CBG_PROTOCOL,
    check: (result, run) =>
      expectMetricsInBand(result.metrics, run, `${run.file} ${run.method}`, oneSided(run)),
    timeout: 600_000,
  });
});
