/**
 * MVGL against `shared/reference/baselines-graph.json` (GNU Octave 7.3 running the authors'
 * kunzhan/MVGL code, instrumented): per view the PKN graph's sum / nnz / Frobenius, the λ and
 * action traces and iteration count, s_c and s_{c+1} per iteration, S_v's sum / nnz / Frobenius
 * and components; per outer pass the global step's λ / action traces, its graphs' statistics, S0
 * and α statistics, and J; the final components and ACC / NMI / Purity of the component labels.
 * Values near the rank tests' zero (|x| < 1e-12 in the fixture) are compared as |ours| < 1e-12:
 * there the fixture holds rounding noise (the spec's "Fragile"), and the decision is compared.
 * J and α to 1e-6 relative (the spec: the weight systems are nearly singular, an independent
 * numpy port agrees to 3e-9; our sparse eigensolver's vectors differ at ~1e-12).
 * ORL capped at 30 passes runs on the sparse path here (a few seconds); the uncapped ORL run and
 * HW (n = 2000) are checked by test/fixtures/mvgl/run-mvgl.ts (decisions and J against the fixture).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDataset } from '../../../../src/io/load';
import { DATASETS } from '../../../helpers/paths';
import { mvgl } from '../../../../src/core/solvers/mvgl';
import { mvglIterate, type MvglResult } from '../../../../src/core/solvers/mvgl/mvgl';
import { readReference, referenceSuite, type ReferenceRun } from '../../../helpers/reference';

type Rec = Record<string, unknown>;

function close(ours: number, ref: number, rel: number, what: string): void {
  if (Math.abs(ref) < 1e-12) expect(Math.abs(ours), what).toBeLessThan(1e-12);
  else expect(Math.abs(ours - ref) / Math.abs(ref), `${what}: ${ours} vs ${ref}`).toBeLessThan(rel);
}

function closeAll(
  ours: readonly number[],
  ref: readonly number[],
  rel: number,
  what: string,
): void {
  expect(ours.length, `${what} length`).toBe(ref.length);
  ours.forEach((x, i) => close(x, ref[i]!, rel, `${what}[${i}]`));
}

function checkRun(
  diag: Pick<MvglResult, 'views' | 'passes' | 'components'>,
  run: ReferenceRun,
  alpha = true,
): void {
  const raw = run.raw as Rec;
  const views = raw['view_graphs'] as Rec[];
  expect(diag.views.length).toBe(views.length);
  diag.views.forEach((v, i) => {
    const r = views[i]!;
    const w = `view ${i + 1}`;
    close(v.pkn.sum, r['pkn_sum'] as number, 1e-12, `${w} pkn sum`);
    expect(v.pkn.nnz, `${w} pkn nnz`).toBe(r['pkn_nnz']);
    close(v.pkn.fro, r['pkn_fro'] as number, 1e-12, `${w} pkn fro`);
    expect(v.lambda, `${w} λ`).toEqual(r['lambda_trace']);
    expect(v.actions, `${w} actions`).toEqual(r['action_trace']);
    closeAll(v.sc, r['fn1_trace'] as number[], 1e-8, `${w} s_c`);
    closeAll(v.sc1, r['fn2_trace'] as number[], 1e-8, `${w} s_c+1`);
    // Each row's Newton projection stops at |Σ − 1| ≤ 1e-10, so S's sum is fixed to ~n·1e-10.
    close(v.S.sum, r['S_sum'] as number, 1e-9, `${w} S sum`);
    expect(v.S.nnz, `${w} S nnz`).toBe(r['S_nnz']);
    close(v.S.fro, r['S_fro'] as number, 1e-9, `${w} S fro`);
    expect(v.components, `${w} components`).toBe(r['S_components']);
  });
  const passes = raw['global_graph_passes'] as Rec[];
  expect(diag.passes.length).toBe(passes.length);
  diag.passes.forEach((p, t) => {
    const r = passes[t]!;
    const w = `pass ${t + 1}`;
    expect(p.earlyReturn, `${w} early`).toBe(r['early_return']);
    expect(p.lambda, `${w} λ`).toEqual(r['lambda_trace']);
    expect(p.actions, `${w} actions`).toEqual(r['action_trace']);
    closeAll(p.sc, r['fn1_trace'] as number[], 1e-6, `${w} s_c`);
    closeAll(p.sc1, r['fn2_trace'] as number[], 1e-6, `${w} s_c+1`);
    expect(p.components, `${w} components`).toBe(r['components']);
    expect(p.sym.nnz, `${w} A nnz`).toBe(r['A_sym_nnz']);
    close(p.sym.fro, r['A_sym_fro'] as number, 1e-6, `${w} A fro`);
    expect(p.returned.nnz, `${w} S nnz`).toBe(r['A_returned_nnz']);
    close(p.returned.fro, r['A_returned_fro'] as number, 1e-6, `${w} S fro`);
    close(p.S0.sum, r['S0_after_sum'] as number, 1e-6, `${w} S0 sum`);
    close(p.S0.fro, r['S0_after_fro'] as number, 1e-6, `${w} S0 fro`);
    if (!alpha) return;
    closeAll(p.alphaMean, r['alpha_mean_per_view'] as number[], 1e-6, `${w} α mean`);
    closeAll(p.alphaMin, r['alpha_min_per_view'] as number[], 1e-6, `${w} α min`);
    closeAll(p.alphaMax, r['alpha_max_per_view'] as number[], 1e-6, `${w} α max`);
  });
  expect(diag.components).toBe(raw['final_components']);
}

referenceSuite(mvgl, readReference('baselines-graph'), {
  title: 'mvgl against the reference (Octave running kunzhan/MVGL): protocol run',
  select: (run) =>
    run.method === 'MVGL' && (run.file.includes('3Sources') || run.file.includes('MSRC')),
  expectedRuns: 2,
  name: (run) => `${run.file}: J per pass to 1e-6, same passes, component metrics ±1e-12`,
  params: () => ({}),
  protocol: { protocol: 'paper', seed: 0 },
  objective: { relative: 1e-6 },
  metrics: { names: ['ACC', 'NMI', 'Purity'], band: 1e-12 },
  timeout: 120_000,
});

const ref = readReference('baselines-graph');
for (const eigensolver of ['sparse', 'dense'] as const) {
  describe(`mvgl (${eigensolver} eigensolver): per-view and per-pass checks`, () => {
    // The dense path decomposes n × n every inner iteration: 3Sources only there.
    for (const run of ref.runs.filter(
      (r) =>
        r.method === 'MVGL' &&
        (r.file.includes('3Sources') ||
          (eigensolver === 'sparse' &&
            (r.file.includes('MSRC') ||
              // ORL capped at 30 passes (the uncapped run, 52 passes, runs in the script).
              (r.file.includes('ORL') && r.objective!.length <= 30)))),
    )) {
      it(`${run.file}`, { timeout: 120_000 }, async () => {
        const ds = await loadDataset(join(DATASETS, run.file));
        const input = { n: ds.n, views: ds.views, sampleIds: null };
        const Xs = input.views.map((v) => {
          const X = { rows: ds.n, cols: v.d, data: new Float64Array(ds.n * v.d) };
          const val = v.values;
          if (val.kind === 'dense') X.data.set(val.data);
          else {
            for (let i = 0; i < ds.n; i++) {
              for (let p = val.indptr[i]!; p < val.indptr[i + 1]!; p++) {
                X.data[i * v.d + val.indices[p]!] = val.data[p]!;
              }
            }
          }
          return X;
        });
        const gen = mvglIterate(Xs, run.k!, {
          neighbors: 15,
          innerIterations: 30,
          outerIterations: 30,
          tolerance: 1e-3,
          eigensolver,
        });
        let step = gen.next();
        while (!step.done) step = gen.next();
        const r = step.value;
        // ORL: a few of its weight systems are singular to working precision (the spec's
        // "Fragile"), so α's mean / min / max there differ by a few per cent from the fixture's
        // (the code before the component eigensolver differed as much, the other way) while
        // every decision, S0 and J agree; α is compared on 3Sources and MSRC-v1 only.
        checkRun(r, run, !run.file.includes('ORL'));
        closeAll(r.objective, run.objective!, 1e-6, 'J');
      });
    }
  });
}
