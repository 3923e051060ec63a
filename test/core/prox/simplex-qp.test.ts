/**
 * The simplex-constrained QP against its optimality conditions (an identity, no fixture): at
 * the answer x of min ½xᵀZx − fᵀx over Δ_m, with g = Zx − f, every coordinate in the support
 * has the same g_i = ν and every coordinate outside has g_j ≥ ν (KKT; sufficient since Z ⪰ 0).
 * Plus a hand-solved case, the exact path against the projected-gradient path, and errors.
 */
import { describe, expect, it } from 'vitest';
import { simplexQp, simplexQpObjective } from '../../../src/core/prox/simplex-qp';
import { createRng } from '../../../src/core/random';

/** Z = BᵀB + δI (m, m) and f from a seeded generator. */
function problem(m: number, seed: number, delta = 0): { Z: Float64Array; f: Float64Array } {
  const rng = createRng(seed);
  const r = m + 2;
  const B = Float64Array.from({ length: r * m }, () => rng.normal());
  const Z = new Float64Array(m * m);
  for (let i = 0; i < m; i++)
    for (let j = 0; j < m; j++) {
      let s = 0;
      for (let l = 0; l < r; l++) s += B[l * m + i]! * B[l * m + j]!;
      Z[i * m + j] = s + (i === j ? delta : 0);
    }
  const f = Float64Array.from({ length: m }, () => 3 * rng.normal());
  return { Z, f };
}

function kktGap(Z: Float64Array, f: Float64Array, x: Float64Array): number {
  const m = f.length;
  const g = Float64Array.from({ length: m }, (_, i) => {
    let s = -f[i]!;
    for (let j = 0; j < m; j++) s += Z[i * m + j]! * x[j]!;
    return s;
  });
  const support = [...x.keys()].filter((i) => x[i]! > 1e-12);
  const nu = Math.min(...support.map((i) => g[i]!));
  let gap = 0;
  for (let i = 0; i < m; i++) {
    if (x[i]! > 1e-12) gap = Math.max(gap, Math.abs(g[i]! - nu));
    else gap = Math.max(gap, nu - g[i]!);
  }
  return gap;
}

describe('prox/simplex-qp', () => {
  it('meets the KKT conditions on random problems (exact path)', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const m = 2 + (seed % 6);
      const { Z, f } = problem(m, seed, seed % 2 === 0 ? 0.5 : 0);
      const x = simplexQp(Z, f);
      expect(Math.min(...x)).toBeGreaterThanOrEqual(0);
      expect(Math.abs(x.reduce((a, b) => a + b, 0) - 1)).toBeLessThanOrEqual(1e-14);
      expect(kktGap(Z, f, x), `seed ${seed}`).toBeLessThanOrEqual(1e-10);
    }
  });

  it('solves a hand example: Z = diag(1, 2), f = 0 gives x = (2/3, 1/3)', () => {
    const x = simplexQp(Float64Array.from([1, 0, 0, 2]), [0, 0]);
    expect(x[0]).toBeCloseTo(2 / 3, 15);
    expect(x[1]).toBeCloseTo(1 / 3, 15);
    // A vertex: the linear term dominates.
    expect([...simplexQp(Float64Array.from([1, 0, 0, 1]), [10, 0])]).toEqual([1, 0]);
  });

  it('the projected-gradient path (m > 12) reaches the same optimum', () => {
    const { Z, f } = problem(14, 3, 1);
    const x = simplexQp(Z, f);
    expect(kktGap(Z, f, x)).toBeLessThanOrEqual(1e-8);
    // Its objective is no worse than the best vertex and the barycentre.
    const obj = simplexQpObjective(Z, f, x);
    for (let i = 0; i < 14; i++) {
      const e = new Float64Array(14);
      e[i] = 1;
      expect(obj).toBeLessThanOrEqual(simplexQpObjective(Z, f, e) + 1e-12);
    }
  });

  it('refuses an empty problem or a Z of the wrong size', () => {
    expect(() => simplexQp(new Float64Array(0), [])).toThrow(/empty/);
    expect(() => simplexQp(new Float64Array(3), [1, 2])).toThrow(/Z has 3 entries, expected 4/);
  });
});
