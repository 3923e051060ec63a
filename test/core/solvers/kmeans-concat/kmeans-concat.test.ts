/**
 * kmeans-concat: parameter errors, mean imputation on a hand example (dense and CSR), the
 * normalisations, the generator's single 'prepare' step, the size guard, and a toy case where
 * k-means on the concatenation recovers three blobs seen through two incomplete views.
 */
import { describe, expect, it } from 'vitest';
import { kmeans } from '../../../../src/core/cluster';
import { clusteringMetrics } from '../../../../src/core/metrics';
import { createRng } from '../../../../src/core/random';
import { fillMissing } from '../../../../src/core/solvers/complete';
import { meanImputed, viewMean } from '../../../../src/core/solvers/impute';
import {
  concatenateViews,
  kmeansConcat,
  MAX_CONCAT_VALUES,
} from '../../../../src/core/solvers/kmeans-concat';
import { ParamError, validateParams } from '../../../../src/core/solvers/params';
import { getSolver } from '../../../../src/core/solvers/registry';
import { blobs, dataset, denseView, drain, handViews, pick, without } from '../../../helpers/toy';

// The solver declares complete input: it gets the views filled, as the protocol gives them.
const filled = (ds: ReturnType<typeof dataset>) => fillMissing(ds).input;
const run = (ds: ReturnType<typeof dataset>, normalize = 'none') =>
  drain(
    kmeansConcat.run(
      filled(ds),
      validateParams(kmeansConcat.schema, { normalize }),
      3,
      createRng(1),
    ),
  );

describe('kmeans-concat parameters', () => {
  it('defaults to no normalisation and is registered', () => {
    expect(validateParams(kmeansConcat.schema, {})).toEqual({ normalize: 'none' });
    expect(getSolver('kmeans-concat')).toBe(kmeansConcat);
    expect(kmeansConcat.deterministic).toBe(true);
  });

  it('names the parameter and its allowed values', () => {
    const allowed = "one of 'none', 'zscore', 'l2-rows'";
    expect(() => validateParams(kmeansConcat.schema, { normalize: 'minmax' })).toThrow(
      `parameter 'normalize' must be ${allowed}; got "minmax"`,
    );
    expect(() => validateParams(kmeansConcat.schema, { normalize: 3 })).toThrow(
      `parameter 'normalize' must be ${allowed}; got 3`,
    );
    expect(() => validateParams(kmeansConcat.schema, { neighbors: 5 })).toThrow(
      "unknown parameter 'neighbors'; parameters: normalize",
    );
    expect(() => validateParams(kmeansConcat.schema, { normalize: true })).toThrow(ParamError);
  });
});

describe('mean imputation', () => {
  // Sample 1 misses `dense`: its row is the mean of rows (1, 2) and (3, 6), i.e. (2, 4).
  const { dense, csr } = handViews();

  it('fills a dense view’s missing rows with the mean of its present rows', () => {
    expect(Array.from(viewMean(dense))).toEqual([2, 4]);
    expect(Array.from(meanImputed(dense, 3).data)).toEqual([1, 2, 2, 4, 3, 6]);
  });

  it('densifies a CSR view and fills its missing rows', () => {
    // Present rows: sample 1 = (0, 0, 4), sample 2 = (2, 0, 8); mean (1, 0, 6) for sample 0.
    expect(Array.from(meanImputed(csr, 3).data)).toEqual([1, 0, 6, 0, 0, 4, 2, 0, 8]);
  });

  it('concatenates the imputed views side by side, (n, Σd)', () => {
    const { steps, output } = run(dataset(3, [dense, csr]));
    expect(output.embedding.rows).toBe(3);
    expect(output.embedding.cols).toBe(5);
    expect(Array.from(output.embedding.data)).toEqual([
      1, 2, 1, 0, 6, 2, 4, 0, 0, 4, 3, 6, 2, 0, 8,
    ]);
    expect(steps).toEqual([
      { stage: 'prepare', iteration: 0, objective: null, values: { columns: 5 } },
    ]);
    expect(output.notes[0]).toContain('imputed with the mean of that view’s present samples');
    expect(output.notes.join('\n')).toContain('densified');
    expect(output.diagnostics).toEqual({ missingPerView: [1, 1], dims: [2, 3] });
  });

  it("'zscore' standardises on the present samples (imputed rows become 0)", () => {
    const E = concatenateViews(filled(dataset(3, [dense])), 'zscore');
    // Present columns (1, 3) and (2, 6): means 2 and 4, standard deviations 1 and 2.
    expect(Array.from(E.data)).toEqual([-1, -1, 0, 0, 1, 1]);
  });

  it("'l2-rows' scales each view's row to unit length", () => {
    const E = concatenateViews(filled(dataset(3, [dense, csr])), 'l2-rows');
    const row0 = Array.from(E.data.subarray(0, 5));
    const s = Math.sqrt(5);
    const t = Math.sqrt(37);
    const expected = [1 / s, 2 / s, 1 / t, 0, 6 / t];
    row0.forEach((v, j) => expect(v).toBeCloseTo(expected[j]!, 14));
  });

  it('refuses a concatenation above the documented size', () => {
    const big = { ...dense, d: MAX_CONCAT_VALUES };
    expect(() => concatenateViews(dataset(3, [big]), 'none')).toThrow(/above the limit of 2\d*/);
  });
});

describe('kmeans-concat toy case', () => {
  it('recovers three blobs seen through two incomplete views', () => {
    const { points, truth } = blobs(10);
    const n = points.length;
    // View 1: the blobs shifted; view 2: rotated by 90° and shifted. Every sample is in at
    // least one view. ('l2-rows' keeps only directions, which these blobs do not separate; it is
    // checked on the hand example above.)
    const shifted = points.map(([x, y]) => [x! + 20, y! + 20]);
    const rotated = points.map(([x, y]) => [-y! + 50, x! - 20]);
    const p1 = without(n, [0, 11, 22, 3]);
    const p2 = without(n, [5, 16, 27]);
    const ds = dataset(
      n,
      [denseView('v1', p1, pick(shifted, p1)), denseView('v2', p2, pick(rotated, p2))],
      truth,
    );
    for (const mode of ['none', 'zscore']) {
      const { output } = run(ds, mode);
      const km = kmeans(output.embedding, 3, { replicates: 5 }, createRng(42));
      expect(clusteringMetrics(truth, km.labels).ACC, mode).toBe(1);
    }
  });
});
