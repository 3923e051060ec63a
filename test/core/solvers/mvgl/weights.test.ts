/**
 * MVGL's small weight systems C·w = 1 (`solveOnesSmall`): the same bits as lu.ts's factor and
 * solve, which they replace for V ≤ 32 views, and the same refusal of an exactly singular C.
 */
import { describe, expect, it } from 'vitest';
import { NumericalError } from '../../../../src/core/linalg/errors';
import { luFactor, luSolve } from '../../../../src/core/linalg/lu';
import type { Mat } from '../../../../src/core/linalg/types';
import { solveOnesSmall } from '../../../../src/core/solvers/mvgl/mvgl';

/** luSolve(luFactor(C), 1), or null where luFactor refuses C. */
function viaLu(C: Float64Array, V: number): Float64Array | null {
  const M: Mat = { rows: V, cols: V, data: C.slice() };
  try {
    const ones: Mat = { rows: V, cols: 1, data: new Float64Array(V).fill(1) };
    return luSolve(luFactor(M), ones).data;
  } catch (e) {
    if (e instanceof NumericalError) return null;
    throw e;
  }
}

function small(C: Float64Array, V: number): Float64Array | null {
  const w = new Float64Array(V);
  return solveOnesSmall(C, V, new Float64Array(V * V), w) ? w : null;
}

/** A deterministic pseudo-random symmetric V × V Gram-like matrix ZᵀZ + δI. */
function gram(V: number, seed: number, delta: number): Float64Array {
  let s = seed;
  const rnd = (): number => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 2 ** 32 - 0.5;
  };
  const m = 3 * V;
  const Z = Array.from({ length: m * V }, rnd);
  const C = new Float64Array(V * V);
  for (let a = 0; a < V; a++)
    for (let b = 0; b < V; b++) {
      let t = 0;
      for (let r = 0; r < m; r++) t += Z[r * V + a]! * Z[r * V + b]!;
      C[a * V + b] = t + (a === b ? delta : 0);
    }
  return C;
}

describe('solveOnesSmall', () => {
  it('solves a hand-checkable 2 × 2 system', () => {
    // [[2, 1], [1, 3]]·w = 1: w = (2/5, 1/5).
    const w = small(Float64Array.of(2, 1, 1, 3), 2)!;
    expect(w[0]).toBeCloseTo(0.4, 15);
    expect(w[1]).toBeCloseTo(0.2, 15);
  });

  it('gives luFactor + luSolve bit for bit (pivoting, zero entries, 1 to 32 views)', () => {
    const cases: [Float64Array, number][] = [
      // The first pivot is the smaller entry: rows swap.
      [Float64Array.of(1e-3, 2, 3, 1), 2],
      // Zero multipliers and zero coefficients in both substitutions.
      [Float64Array.of(4, 0, 1, 0, 5, 0, 1, 0, 6), 3],
    ];
    for (const V of [1, 2, 3, 4, 6, 9, 17, 32]) {
      for (const seed of [1, 2, 3]) cases.push([gram(V, seed * 97 + V, 1e-12), V]);
    }
    // Nearly singular, as MVGL's systems are when the views' columns agree.
    cases.push([gram(5, 11, 0), 5]);
    for (const [C, V] of cases) {
      const ref = viaLu(C, V);
      expect(ref).not.toBeNull();
      const ours = small(C, V)!;
      expect(Array.from(ours)).toEqual(Array.from(ref!));
    }
  });

  it('refuses an exactly singular or non-finite C, as luFactor does', () => {
    for (const C of [
      Float64Array.of(1, 2, 2, 4),
      Float64Array.of(0, 0, 0, 0),
      Float64Array.of(NaN, 1, 1, 1),
    ]) {
      expect(viaLu(C, 2)).toBeNull();
      expect(small(C, 2)).toBeNull();
    }
  });
});
