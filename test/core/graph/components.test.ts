/**
 * connectedComponents against scipy.sparse.csgraph.connected_components
 * (test/fixtures/graph/laplacian.py): interleaved components, an isolated sample, a stored zero
 * that must not join two components; plus hand-checked toys (a negative weight joins only the
 * nonzero pattern).
 */
import { describe, expect, it } from 'vitest';
import { connectedComponents } from '../../../src/core/graph/components';
import type { Csr } from '../../../src/core/linalg/types';
import { csrOf, laplacianFixture } from '../../helpers/laplacian-fixture';

const fx = laplacianFixture();

/** A symmetric CSR graph from undirected weighted edges (sorted rows). */
function graph(n: number, edges: [number, number, number][]): Csr {
  const rows: [number, number][][] = Array.from({ length: n }, () => []);
  for (const [i, j, w] of edges) {
    rows[i]!.push([j, w]);
    if (i !== j) rows[j]!.push([i, w]);
  }
  const indptr = new Int32Array(n + 1);
  const indices: number[] = [];
  const data: number[] = [];
  rows.forEach((r, i) => {
    r.sort((a, b) => a[0] - b[0]);
    for (const [j, w] of r) {
      indices.push(j);
      data.push(w);
    }
    indptr[i + 1] = indices.length;
  });
  return {
    rows: n,
    cols: n,
    indptr,
    indices: Int32Array.from(indices),
    data: Float64Array.from(data),
  };
}

describe('connectedComponents', () => {
  it('matches scipy: count and labels (numbered by smallest member)', () => {
    const b = fx.blocks;
    const r = connectedComponents(csrOf(b.n, b.W));
    expect(r.count).toBe(b.count);
    expect(Array.from(r.labels)).toEqual(b.labels);
  });

  it('toys: a path, two triangles, isolated samples, a zero weight', () => {
    expect(connectedComponents(graph(1, [])).count).toBe(1);
    const path = connectedComponents(
      graph(4, [
        [0, 1, 1],
        [1, 2, 1],
        [2, 3, 1],
      ]),
    );
    expect([path.count, ...path.labels]).toEqual([1, 0, 0, 0, 0]);
    // {0, 2, 4} and {1, 3, 5} interleaved; 6 alone; the 0-weight edge 4–5 joins nothing.
    const two = connectedComponents(
      graph(7, [
        [0, 2, 1],
        [2, 4, 0.5],
        [4, 0, 2],
        [1, 3, 1],
        [3, 5, 1],
        [4, 5, 0],
        [6, 6, 1],
      ]),
    );
    expect(two.count).toBe(3);
    expect(Array.from(two.labels)).toEqual([0, 1, 0, 1, 0, 1, 2]);
  });

  it("a negative weight joins only with join 'nonzero'; a stored zero never", () => {
    const G = graph(5, [
      [0, 1, 1],
      [1, 2, -0.5],
      [2, 3, 1],
      [3, 4, 0],
    ]);
    const pos = connectedComponents(G);
    expect([pos.count, ...pos.labels]).toEqual([3, 0, 0, 1, 1, 2]);
    const any = connectedComponents(G, 'nonzero');
    expect([any.count, ...any.labels]).toEqual([2, 0, 0, 0, 0, 1]);
  });
});
