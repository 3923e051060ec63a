/**
 * The template's method (multi-view k-means over present samples) on cases checkable by hand;
 * the shared checks (seeds, monotone objective, footprint, closing) are the conformance suite's.
 */
import { describe, expect, it } from 'vitest';
import type { View } from '../../../../src/core/dataset';
import { createRng } from '../../../../src/core/random';
import { template } from '../../../../src/core/solvers/_template';
import { validateParams } from '../../../../src/core/solvers/params';
import type { SolverInput, SolverOutput, SolverStep } from '../../../../src/core/solvers/types';
import { blobs, dataset, denseView, drain, pick, without } from '../../../helpers/toy';

const defaults = validateParams(template.schema, {});

function run(input: SolverInput, k: number, seed: number): SolverOutput {
  return drain<SolverStep, SolverOutput>(template.run(input, defaults, k, createRng(seed))).output;
}

/** True when a and b put the same pairs of samples together. */
function samePartition(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  for (let i = 0; i < a.length; i++)
    for (let j = 0; j < a.length; j++) if ((a[i] === a[j]) !== (b[i] === b[j])) return false;
  return true;
}

/** The CSR copy of a dense view (zeros left out). */
function toCsr(v: View): View {
  if (v.values.kind !== 'dense') throw new Error('dense view expected');
  const { rows, cols, data } = v.values;
  const indptr = [0];
  const indices: number[] = [];
  const values: number[] = [];
  for (let r = 0; r < rows; r++) {
    for (let j = 0; j < cols; j++) {
      if (data[r * cols + j] !== 0) {
        indices.push(j);
        values.push(data[r * cols + j]!);
      }
    }
    indptr.push(indices.length);
  }
  return {
    ...v,
    values: {
      kind: 'csr',
      rows,
      cols,
      indptr: Int32Array.from(indptr),
      indices: Int32Array.from(indices),
      data: Float64Array.from(values),
    },
  };
}

describe('template (multi-view k-means over present samples)', () => {
  it('1-D hand example: {0, 1} and {10, 11}, J = 4 · 0.5² = 1 from every start', () => {
    const ds = dataset(4, [denseView('x', [0, 1, 2, 3], [[0], [1], [10], [11]])]);
    for (let seed = 0; seed < 8; seed++) {
      const out = run(ds, 2, seed);
      expect(samePartition(out.labels!, [0, 0, 1, 1])).toBe(true);
      expect(out.objective.at(-1)).toBe(1);
      expect(out.converged).toBe(true);
      // D = the costs of each sample against both centroids (0.5 and 10.5).
      const c = out.labels![0]!;
      expect(out.embedding.data[0 * 2 + c]).toBe(0.25);
      expect(out.embedding.data[0 * 2 + (1 - c)]).toBe(110.25);
    }
  });

  it('three blobs seen through two incomplete views are recovered exactly', () => {
    const { points, truth } = blobs(10);
    const n = points.length;
    const inA = without(n, [0, 11, 22, 5]);
    const inB = without(n, [1, 12, 23, 15]);
    const shifted = points.map(([x, y]) => [x! + 100, 3 * y!]);
    const ds = dataset(
      n,
      [denseView('A', inA, pick(points, inA)), denseView('B', inB, pick(shifted, inB))],
      truth,
    );
    for (let seed = 0; seed < 5; seed++) {
      const out = run(ds, 3, seed);
      expect(samePartition(out.labels!, truth), `seed ${seed}`).toBe(true);
    }
  });

  it('a CSR view gives the bits of its dense copy', () => {
    const { points } = blobs(6);
    const n = points.length;
    const present = without(n, [2, 9]);
    const sparse = points.map(([x, y], i) => (i % 3 === 0 ? [x!, 0, y!] : [0, y!, 0]));
    const dense = denseView('S', present, pick(sparse, present));
    const a = run(dataset(n, [dense]), 3, 4);
    const b = run(dataset(n, [toCsr(dense)]), 3, 4);
    expect(Array.from(b.embedding.data)).toEqual(Array.from(a.embedding.data));
    expect(b.objective).toEqual(a.objective);
  });

  it('refuses an empty view, naming it', () => {
    const ds = dataset(3, [
      denseView('x', [0, 1, 2], [[0], [1], [2]]),
      {
        name: 'nothing',
        d: 2,
        present: new Int32Array(0),
        values: { kind: 'dense', rows: 0, cols: 2, data: new Float64Array(0) },
      },
    ]);
    expect(() => run(ds, 2, 0)).toThrow(/view 'nothing' is empty/);
  });
});
