/**
 * householder (dlarfg) at the edges of the double range, where a rank-deficient matrix's
 * rounding leaves subnormal entries beside a zero or a normal one: τ and v stay finite and
 * H·x = β·e₁. Both cases made NaN before (TwoMoon's 199 × 199 anchor Gram for IMVC-CBG with
 * k = 199: "QL did not converge").
 */
import { describe, expect, it } from 'vitest';
import { householder } from '../../../src/core/linalg/householder';
import { symEig } from '../../../src/core/linalg/kernels';

/** (I − τ·v·vᵀ)·x with v = [1, a[1:]]. */
function applyH(x: readonly number[], v: Float64Array, tau: number): number[] {
  let vx = x[0]!;
  for (let j = 1; j < x.length; j++) vx += v[j]! * x[j]!;
  return x.map((xj, j) => xj - tau * (j === 0 ? 1 : v[j]!) * vx);
}

describe('householder', () => {
  it('a subnormal x[1:] beside a zero alpha gives finite v and τ (1/(α − β) overflows)', () => {
    const x = [0, 5e-322, 0, 3e-323];
    const a = Float64Array.from(x);
    const tau = new Float64Array(1);
    const beta = householder(a, 0, 4, tau, 0);
    expect([...a, tau[0]!, beta].every(Number.isFinite)).toBe(true);
    expect(Math.abs(beta)).toBeGreaterThan(0);
    const hx = applyH(x, a, tau[0]!);
    // Subnormals carry a few bits only: H·x = β·e₁ to within the spacing of subnormals.
    expect(hx[0]!).toBeCloseTo(beta, 320);
    for (const r of hx.slice(1)) expect(Math.abs(r)).toBeLessThanOrEqual(Math.abs(beta) * 0.05);
  });

  it('x[1:] tiny beside a normal alpha gives finite v and τ ((α/scale)² overflows)', () => {
    const x = [1, 1e-300, -2e-300];
    const a = Float64Array.from(x);
    const tau = new Float64Array(1);
    const beta = householder(a, 0, 3, tau, 0);
    expect([...a, tau[0]!, beta].every(Number.isFinite)).toBe(true);
    expect(beta).toBe(-1);
    const hx = applyH(x, a, tau[0]!);
    expect(hx[0]).toBeCloseTo(-1, 15);
    for (const r of hx.slice(1)) expect(Math.abs(r)).toBeLessThanOrEqual(1e-315);
  });

  it('symEig of a matrix with subnormal couplings converges to its diagonal', () => {
    const A = {
      rows: 4,
      cols: 4,
      data: Float64Array.from([1, 0, 5e-322, 0, 0, 2, 0, 0, 5e-322, 0, 3, 0, 0, 0, 0, 4]),
    };
    const { values, vectors } = symEig(A);
    expect(Array.from(values)).toEqual([1, 2, 3, 4]);
    expect(vectors.data.every(Number.isFinite)).toBe(true);
  });
});
