/**
 * The typed chart data of each solver (types.ts SolverCharts, what the renderer draws): the
 * same numbers as the diagnostics they summarise, on a small synthetic case with missing views
 * (filled for the complete-input solvers, as the protocol does).
 */
import { describe, expect, it } from 'vitest';
import { createRng } from '../../../src/core/random';
import { fillMissing } from '../../../src/core/solvers/complete';
import { validateParams } from '../../../src/core/solvers/params';
import { getSolver } from '../../../src/core/solvers/registry';
import type { SolverOutput } from '../../../src/core/solvers/types';
import { synthesize } from '../../../src/core/synth';
import { drain } from '../../helpers/toy';

const ds = synthesize({ n: 120, k: 3, dims: [6, 8, 5], completeFraction: 0.5, seed: 2 });

function output(name: string, raw: Record<string, number | string> = {}): SolverOutput {
  const solver = getSolver(name);
  const input = solver.input === 'complete' ? fillMissing(ds).input : ds;
  return drain(solver.run(input, validateParams(solver.schema, raw), 3, createRng(0))).output;
}

describe('solver charts', () => {
  it('bsv: one eigengap per view, as weights', () => {
    const out = output('bsv', { neighbors: 5 });
    expect(out.charts?.weights?.labels).toEqual(ds.views.map((v) => v.name));
    expect(out.charts?.weights?.values).toEqual(out.diagnostics!['eigengaps']);
    expect(out.charts?.spectrum).toBeUndefined();
  });

  it('imvc-cbg: the singular values as bars, α and its trace as weights', () => {
    const out = output('imvc-cbg', { iterations: 5 });
    const d = out.diagnostics!;
    expect(out.charts?.spectrum).toEqual({
      kind: 'bars',
      title: expect.any(String),
      values: d['singularValues'],
    });
    expect(out.charts?.weights?.values).toEqual(d['alpha']);
    expect(out.charts?.weights?.trace).toEqual(d['alphaTrace']);
    expect(out.charts!.weights!.trace).toHaveLength(out.iterations);
    const sum = out.charts!.weights!.values.reduce((a, x) => a + x, 0);
    expect(sum).toBeCloseTo(1, 12);
  });

  it('cgl and cgmvc-nc: σ and σ′ per Fourier slice', () => {
    for (const name of ['cgl', 'cgmvc-nc']) {
      const out = output(name, { iterations: 4, neighbors: 5 });
      const spectrum = out.diagnostics!['spectrum'] as {
        slices: number[];
        sigma: number[][];
        kept: number[][];
      };
      const chart = out.charts?.spectrum;
      expect(chart?.kind, name).toBe('slices');
      if (chart?.kind !== 'slices') continue;
      expect(chart.slices).toEqual(spectrum.slices);
      expect(chart.sigma).toEqual(spectrum.sigma);
      expect(chart.kept).toEqual(spectrum.kept);
      // V values per slice, shrinkage never raising one.
      for (const [s, row] of chart.sigma.entries()) {
        expect(row).toHaveLength(3);
        row.forEach((x, i) => expect(chart.kept![s]![i]!).toBeLessThanOrEqual(x + 1e-12));
      }
    }
  });
});
