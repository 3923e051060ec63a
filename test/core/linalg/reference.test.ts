/**
 * Against numpy/LAPACK (test/fixtures/linalg/make.py → reference.json; numpy.linalg.eigh and
 * numpy.linalg.svd). Tolerances, all relative to the matrix norm:
 * - eigenvalues: |λ − λ_np| ≤ 1e-13·‖A‖₂ (backward-stable solvers agree to a few n·ε·‖A‖);
 * - eigenvectors (distinct eigenvalues only): ‖v ∓ v_np‖ (≈ sin of the angle, sign aligned)
 *   ≤ 1e-13·‖A‖₂ / gap, the Davis–Kahan bound for a perturbation of size 1e-13·‖A‖₂;
 * - singular values: |σ − σ_np| ≤ 1e-13·σ_max;
 * - polar factors (full-rank, well-conditioned cases only): max |Q − Q_np| ≤ 1e-12.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { procrustes, symEig, thinSvd } from '../../../src/core/linalg/kernels';
import type { Mat } from '../../../src/core/linalg/types';
import { at, maxDiff } from '../../helpers/mat';

interface JsonMat {
  rows: number;
  cols: number;
  data: number[];
}
interface SymCase {
  name: string;
  A: JsonMat;
  values: number[];
  vectors?: JsonMat;
}
interface SvdCase {
  name: string;
  A: JsonMat;
  s: number[];
  polar?: JsonMat;
}

const ref = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../fixtures/linalg/reference.json'), 'utf8'),
) as { symmetric: SymCase[]; svd: SvdCase[] };

const mat = (m: JsonMat): Mat => ({ rows: m.rows, cols: m.cols, data: Float64Array.from(m.data) });

describe('symEig against numpy.linalg.eigh', () => {
  it.each(ref.symmetric.map((c) => [c.name, c] as const))('%s', (_, c) => {
    const { values, vectors } = symEig(mat(c.A));
    const norm = Math.max(...c.values.map(Math.abs));
    c.values.forEach((l, i) => expect(Math.abs(values[i]! - l)).toBeLessThanOrEqual(1e-13 * norm));
    if (!c.vectors) return;
    const Vnp = mat(c.vectors);
    const n = c.A.rows;
    for (let j = 0; j < n; j++) {
      const gap = Math.min(
        j > 0 ? c.values[j]! - c.values[j - 1]! : Infinity,
        j < n - 1 ? c.values[j + 1]! - c.values[j]! : Infinity,
      );
      let cos = 0;
      for (let i = 0; i < n; i++) cos += at(vectors, i, j) * at(Vnp, i, j);
      let dist = 0;
      for (let i = 0; i < n; i++) dist += (at(vectors, i, j) - Math.sign(cos) * at(Vnp, i, j)) ** 2;
      expect(Math.sqrt(dist)).toBeLessThanOrEqual(1e-13 * (norm / gap));
    }
  });
});

describe('thinSvd and procrustes against numpy.linalg.svd', () => {
  it.each(ref.svd.map((c) => [c.name, c] as const))('%s', (_, c) => {
    const A = mat(c.A);
    const { s } = thinSvd(A);
    c.s.forEach((x, i) => expect(Math.abs(s[i]! - x)).toBeLessThanOrEqual(1e-13 * c.s[0]!));
    if (c.polar) expect(maxDiff(procrustes(A), mat(c.polar))).toBeLessThanOrEqual(1e-12);
  });
});
