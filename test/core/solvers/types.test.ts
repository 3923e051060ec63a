/**
 * Contract v2 at the type level: each registered schema is declared `as const`, so ParamsOf
 * gives every parameter its own type and a misspelt name does not compile (the
 * `@ts-expect-error` lines fail `tsc` the day they stop being errors). At run time: the
 * declarations every host reads (input, monotone, iteration cap, footprint) hold on a shape.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { bsvSchema } from '../../../src/core/solvers/bsv';
import type { cgmvcNcSchema } from '../../../src/core/solvers/cgl';
import { cglSchema } from '../../../src/core/solvers/cgl';
import { imvcCbgSchema } from '../../../src/core/solvers/imvc-cbg';
import type { kmeansConcatSchema } from '../../../src/core/solvers/kmeans-concat';
import type { kmlrsscPairwiseSchema } from '../../../src/core/solvers/mlrssc';
import { validateParams } from '../../../src/core/solvers/params';
import { listSolvers } from '../../../src/core/solvers/registry';
import { defineSolver, type ParamsOf } from '../../../src/core/solvers/types';

describe('ParamsOf a schema declared as const', () => {
  it('types each parameter, enums by their own strings', () => {
    expectTypeOf<ParamsOf<typeof kmeansConcatSchema>['normalize']>().toEqualTypeOf<
      'none' | 'zscore' | 'l2-rows'
    >();
    expectTypeOf<ParamsOf<typeof bsvSchema>['neighbors']>().toEqualTypeOf<number>();
    expectTypeOf<ParamsOf<typeof imvcCbgSchema>['normalize']>().toEqualTypeOf<boolean>();
    expectTypeOf<ParamsOf<typeof imvcCbgSchema>['start']>().toEqualTypeOf<
      'seeded' | 'reference' | 'best'
    >();
    expectTypeOf<ParamsOf<typeof cglSchema>['path']>().toEqualTypeOf<'factorised' | 'dense'>();
    expectTypeOf<ParamsOf<typeof cgmvcNcSchema>['gamma']>().toEqualTypeOf<number>();
    expectTypeOf<ParamsOf<typeof kmlrsscPairwiseSchema>['sigma']>().toEqualTypeOf<
      readonly number[] | null
    >();
    expectTypeOf<ParamsOf<typeof kmlrsscPairwiseSchema>['kernel']>().toEqualTypeOf<
      'gaussian' | 'linear' | 'polynomial'
    >();
  });

  it('refuses a misspelt parameter at compile time', () => {
    const p = validateParams(imvcCbgSchema, {}) as ParamsOf<typeof imvcCbgSchema>;
    // @ts-expect-error 'lamda' is not a parameter of imvc-cbg ('lambda' is)
    expect(p.lamda).toBeUndefined();
    expect(p.lambda).toBe(0);
    const q = validateParams(cglSchema, {}) as ParamsOf<typeof cglSchema>;
    // @ts-expect-error CGL has no γ (CGMVC-NC has)
    expect(q.gamma).toBeUndefined();
    defineSolver({
      name: 'typed',
      title: 'typed',
      description: 'a solver whose run reads a misspelt parameter',
      schema: { rate: { type: 'number', min: 0, max: 1, default: 0.5, doc: 'a rate' } },
      deterministic: true,
      input: 'incomplete',
      monotone: false,
      // @ts-expect-error 'rates' is not in the schema
      iterationCap: (params) => params.rates,
      cost: () => ({ solve: 1, kmeans: 1, perSeed: false }),
      footprint: () => ({ bytes: 0, quadratic: false, note: '' }),
      // eslint-disable-next-line require-yield
      *run(input, params) {
        const rate: number = params.rate;
        return {
          embedding: { rows: input.n, cols: 1, data: new Float64Array(input.n).fill(rate) },
          objective: [],
          converged: true,
          iterations: 0,
          notes: [],
        };
      },
    });
  });
});

describe('declarations of the registered solvers', () => {
  const shape = { n: 2000, dims: [50, 80, 30], present: [1400, 1400, 1400], k: 5 };

  it('declare their input kind and monotonicity', () => {
    const facts = Object.fromEntries(listSolvers().map((s) => [s.name, [s.input, s.monotone]]));
    expect(facts).toEqual({
      'kmeans-concat': ['complete', false],
      bsv: ['complete', false],
      'bsv-kmeans': ['incomplete', false],
      'imvc-cbg': ['incomplete', false],
      cgl: ['complete', false],
      'cgmvc-nc': ['complete', false],
      amgl: ['complete', true],
      mvgl: ['complete', false],
      'mlrssc-pairwise': ['complete', false],
      'mlrssc-centroid': ['complete', false],
      'kmlrssc-pairwise': ['complete', false],
      'kmlrssc-centroid': ['complete', false],
      ueaf: ['incomplete', false],
      eeimvc: ['incomplete', false],
      apmc: ['incomplete', false],
      daimc: ['incomplete', false],
      flsd: ['incomplete', true],
      mic: ['incomplete', false],
      'mkkm-ik': ['incomplete', false],
    });
  });

  it('cap iterations by their parameters and size a footprint for any shape', () => {
    for (const s of listSolvers()) {
      const params = validateParams(s.schema, {});
      const cap = s.iterationCap(params);
      // MVGL's cap is its outer loop's (each pass runs up to innerIterations per stage).
      const capParam = 'outerIterations' in params ? 'outerIterations' : 'iterations';
      if (cap !== null) expect(cap, s.name).toBe(params[capParam]);
      const f = s.footprint(shape, params);
      expect(f.bytes, s.name).toBeGreaterThan(0);
      // MLRSSC's model is n × n matrices per view, UEAF's an n × n graph, MKKM-IK's an n_v × n_v
      // kernel per view: their footprints say so (quadratic).
      expect(f.quadratic, s.name).toBe(
        s.name.includes('mlrssc') || s.name === 'ueaf' || s.name === 'mkkm-ik',
      );
      expect(f.note.length, s.name).toBeGreaterThan(0);
    }
  });

  it('flag the dense paths (CGL, MLRSSC) as quadratic, growing as n²', () => {
    for (const s of listSolvers().filter((t) => 'path' in t.schema)) {
      const params = validateParams(s.schema, { path: 'dense' });
      const small = s.footprint({ ...shape, n: 500 }, params);
      const large = s.footprint({ ...shape, n: 1000 }, params);
      expect(small.quadratic).toBe(true);
      expect(large.bytes / small.bytes).toBeGreaterThan(3.5);
    }
  });

  it('size MLRSSC at several n × n doubles per view (HW: n = 2000, V = 6)', () => {
    const hw = { n: 2000, dims: [216, 76, 64, 6, 240, 47], present: Array(6).fill(2000), k: 10 };
    for (const s of listSolvers().filter((t) => t.name.includes('mlrssc'))) {
      const f = s.footprint(hw, validateParams(s.schema, {}));
      const squares = f.bytes / (8 * 2000 * 2000);
      // 9 per view (kernel, A, C1, C2, C3, three multipliers, eigenvectors) + 36 shared (12 of
      // them the helper thread's share of the thresholds), plus the kernels' O(n) workspace.
      expect(squares, s.name).toBeGreaterThanOrEqual(9 * 6 + 36);
      expect(squares, s.name).toBeLessThan(9 * 6 + 37);
      expect(f.note, s.name).toMatch(/n × n/);
    }
  });
});
