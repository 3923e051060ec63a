/**
 * connectivityConstraint (the rank-constrained CAN loop) on three well-separated clusters
 * (test/fixtures/graph/laplacian.py, `features`): from a connected start graph it must reach
 * exactly c = 3 components, which are the clusters; from a start that already has them it stops
 * at once with the start's components.
 */
import { describe, expect, it } from 'vitest';
import { connectivityConstraint } from '../../../src/core/graph/clr';
import { connectedComponents } from '../../../src/core/graph/components';
import { pknGraph } from '../../../src/core/graph/pkn';
import { laplacianFixture } from '../../helpers/laplacian-fixture';

const f = laplacianFixture().features;
const X = { rows: f.n, cols: f.d, data: Float64Array.from(f.X) };

describe('connectivityConstraint', () => {
  it('from a connected graph: exactly 3 components, the clusters', () => {
    const W = pknGraph(X, 40); // 41 neighbours reach across the 30-sample clusters
    expect(connectedComponents(W).count).toBe(1);
    const r = connectivityConstraint(X, W, 5, f.c);
    expect(r.rounds).toBeGreaterThan(0);
    expect(r.components).toBe(3);
    expect(Array.from(r.labels!)).toEqual(f.labels);
    expect(Array.from(connectedComponents(r.graph).labels)).toEqual(f.labels);
  });

  it('a start with c components is returned as it is', () => {
    const W = pknGraph(X, 5);
    const r = connectivityConstraint(X, W, 5, f.c);
    expect(r.rounds).toBe(0);
    expect(r.graph).toBe(W);
    expect(Array.from(r.labels!)).toEqual(f.labels);
  });
});
