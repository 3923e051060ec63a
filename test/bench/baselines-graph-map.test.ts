/** The fixture → parameter mapping of the baselines-graph bench, on every recorded run. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED } from '../helpers/paths';
import { mapRun, targetOf, type RecordedRun } from './baselines-graph-map';

const runs = (
  JSON.parse(readFileSync(join(SHARED, 'reference/baselines-graph.json'), 'utf8')) as {
    runs: RecordedRun[];
  }
).runs;
const find = (file: string, method: string, i = 0): RecordedRun =>
  runs.filter((r) => r.file.startsWith(file) && r.method === method)[i]!;

describe('baselines-graph fixture mapping', () => {
  it('maps every recorded run, reading no key it does not know', () => {
    expect(runs.length).toBe(21);
    for (const r of runs) expect(() => mapRun(r)).not.toThrow();
  });

  it('AMGL: PKN k, cap and tolerance; time = solver_incl_graphs', () => {
    const m = mapRun(find('HW/', 'AMGL'));
    expect(m).toEqual({
      method: 'amgl',
      params: { neighbors: 5, iterations: 100, tolerance: 1e-8 },
      referenceSeconds: 115.96404004096985,
      timeDefinition: 'solver_incl_graphs',
    });
    expect(targetOf(find('HW/', 'AMGL')).factor).toBe(50);
  });

  it('MVGL: the outer cap is 30, or 300 where the setting says uncapped', () => {
    expect(mapRun(find('HW/', 'MVGL')).params).toEqual({
      neighbors: 15,
      innerIterations: 30,
      outerIterations: 30,
      tolerance: 1e-3,
    });
    expect(mapRun(find('HW/', 'MVGL')).referenceSeconds).toBe(4368.703966379166);
    expect(mapRun(find('ORL/', 'MVGL', 1)).params['outerIterations']).toBe(300);
    expect(targetOf(find('ORL/', 'MVGL')).factor).toBe(10);
  });

  it('MLRSSC: the λ vector in order, the published 3Sources setting, kernel widths per view', () => {
    const m = mapRun(find('CGL-benchmark/3Sources', 'MLRSSC-centroid'));
    expect(m.method).toBe('mlrssc-centroid');
    expect(m.params).toEqual({
      lambda1: 0.1,
      lambda2: 0.9,
      lambda3: 0.7,
      mu0: 100,
      maxMu: 1e6,
      rho: 1.5,
      iterations: 100,
      tolerance: 1e-3,
    });
    const k = mapRun(find('CGL-benchmark/3Sources', 'KMLRSSC-pairwise'));
    expect(k.params).toMatchObject({
      mu0: 1000,
      tolerance: 1e-5,
      kernel: 'gaussian',
      sigma: [1668.0827317612277, 169.41074346097417, 295.12709126747416],
    });
    const msrc = find('MSRC-v1/', 'MLRSSC-pairwise');
    expect(mapRun(msrc).referenceSeconds).toBeCloseTo(76.53036594390869 + 0.09955000877380371, 12);
    expect(targetOf(msrc).factor).toBe(5);
  });

  it('refuses an unknown key or a kernel that is not the method’s', () => {
    const amgl = find('HW/', 'AMGL');
    expect(() => mapRun({ ...amgl, params: { ...amgl.params, alpha: 2 } })).toThrow(
      'unmapped fixture parameter(s) alpha',
    );
    const lin = find('ORL/', 'MLRSSC-pairwise');
    expect(() => mapRun({ ...lin, params: { ...lin.params, kernel: 'Gaussian' } })).toThrow(
      "kernel 'Gaussian' is not this method's",
    );
  });
});
