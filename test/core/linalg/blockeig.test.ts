/**
 * The block eigensolver against numpy's dense `eigh` (test/fixtures/graph/make.py) and against
 * the identities A·V = V·D, VᵀV = I, on a sparse graph operator, a sparse + low-rank operator, the
 * repeated eigenvalue of a graph with 5 connected components, and smallest eigenpairs.
 * Tolerances are relative to ‖A‖ (≤ 1 for the normalised affinities).
 */
import { describe, expect, it } from 'vitest';
import { normalisedAffinity, degrees } from '../../../src/core/graph/affinity';
import {
  blockEig,
  csrOp,
  denseOp,
  lowRankOp,
  scaledOp,
  sumOp,
  type BlockEigResult,
  type BlockEigStep,
  type SymOp,
} from '../../../src/core/linalg/blockeig';
import { setCsrBackend } from '../../../src/core/linalg/csr-kernel';
import { matmul } from '../../../src/core/linalg/kernels';
import type { Csr, Mat } from '../../../src/core/linalg/types';
import { prng } from '../../helpers/prng';
import {
  csr,
  csrFromRowMaps,
  graphFixture,
  mat,
  maxRelDiff,
  maxResidual,
  normaliseColumns,
  orthError,
  sinMaxAngle,
} from '../../helpers/linalg';

const fx = graphFixture();
const TOL = 1e-10;

/** The dense matrix of an operator, column block by column block. */
function toDense(A: SymOp): Mat {
  const n = A.n;
  const I = mat(
    n,
    n,
    new Float64Array(n * n).map((_, p) => (p % (n + 1) === 0 ? 1 : 0)),
  );
  const M = mat(n, n, new Float64Array(n * n));
  A.apply(I, M);
  return M;
}

const top = (vals: number[], k: number): number[] => vals.slice(-k).reverse();
const bottom = (vals: number[], k: number): number[] => vals.slice(0, k);

describe('blockEig on the normalised affinity of a PKN graph (n = 300)', () => {
  const m = fx.mixture;
  const L = csrOp(normalisedAffinity(csr(m.pkn.W, m.n)));

  it('top-4 eigenpairs: values match eigh, A·V = V·D, VᵀV = I, span matches eigh', () => {
    const r = blockEig(L, 4, { tol: TOL });
    expect(r.converged).toBe(true);
    expect(r.iterations).toBeGreaterThan(0); // the iterative path, not the dense fallback
    expect(maxRelDiff(r.values, top(m.eigenvalues, 4), 1)).toBeLessThan(1e-12);
    expect(maxResidual(L, r.values, r.vectors)).toBeLessThan(TOL);
    expect(Math.max(...r.residualNorms)).toBeLessThan(TOL);
    expect(orthError(r.vectors)).toBeLessThan(1e-13);
    // Gap λ4 − λ5 bounds the angle: sin θ ≤ ‖R‖/gap.
    const gap = m.eigenvalues[m.n - 4]! - m.eigenvalues[m.n - 5]!;
    expect(sinMaxAngle(mat(m.n, 4, m.top4), r.vectors)).toBeLessThan((4 * TOL) / gap);
  });

  it('smallest 6 eigenpairs match eigh', () => {
    const r = blockEig(L, 6, { which: 'smallest', tol: TOL });
    expect(r.converged).toBe(true);
    expect(Array.from(r.values)).toEqual([...r.values].sort((a, b) => a - b));
    expect(maxRelDiff(r.values, bottom(m.eigenvalues, 6), 1)).toBeLessThan(1e-12);
    expect(maxResidual(L, r.values, r.vectors)).toBeLessThan(TOL);
    expect(orthError(r.vectors)).toBeLessThan(1e-13);
  });

  it('is deterministic, and a good start block converges at once', () => {
    const a = blockEig(L, 4);
    const b = blockEig(L, 4);
    expect(Array.from(b.vectors.data)).toEqual(Array.from(a.vectors.data));
    const warm = blockEig(L, 4, { X0: a.vectors });
    expect(warm.converged).toBe(true);
    expect(warm.iterations).toBeLessThanOrEqual(1);
  });

  it('reports each outer iteration; the cap gives an honest converged = false', () => {
    const steps: BlockEigStep[] = [];
    const r = blockEig(L, 4, { tol: TOL, onIteration: (s) => steps.push(s) });
    expect(steps.length).toBe(r.iterations);
    expect(steps.at(-1)!.maxResidual).toBeLessThan(TOL);
    expect(steps.at(-1)!.matvecs).toBe(r.matvecs);
    const capped = blockEig(L, 4, { tol: 1e-15, maxIter: 1 });
    expect(capped.iterations).toBe(1);
    expect(capped.converged).toBe(false);
    expect(Math.max(...capped.residualNorms)).toBeGreaterThan(1e-15);
    expect(maxResidual(L, capped.values, capped.vectors)).toBeCloseTo(
      Math.max(...capped.residualNorms),
      12,
    );
  });

  it('agrees with the dense path (n ≤ denseBelow)', () => {
    const it_ = blockEig(L, 5, { which: 'smallest' });
    const de = blockEig(L, 5, { which: 'smallest', denseBelow: 1000 });
    expect(de.iterations).toBe(0);
    expect(maxRelDiff(it_.values, de.values, 1)).toBeLessThan(1e-12);
    expect(sinMaxAngle(de.vectors, it_.vectors)).toBeLessThan(1e-6);
  });
});

describe('repeated eigenvalue: a graph with 5 connected components (n = 250)', () => {
  const c = fx.components;
  const W = csr(c.W, c.n);
  const L = csrOp(normalisedAffinity(W));
  // The eigenspace of 1: span of D^{1/2}·1_C for the 5 components (rows 50c .. 50c+49).
  const d = degrees(W);
  const size = c.n / c.components;
  const basis = normaliseColumns(
    mat(
      c.n,
      c.components,
      new Float64Array(c.n * c.components).map((_, p) => {
        const i = Math.floor(p / c.components);
        return Math.floor(i / size) === p % c.components ? Math.sqrt(d[i]!) : 0;
      }),
    ),
  );

  it('numpy agrees the top 5 eigenvalues are 1 (the fixture is what it claims)', () => {
    for (const v of top(c.eigenvalues, 5)) expect(Math.abs(v - 1)).toBeLessThan(1e-12);
    expect(c.eigenvalues[c.n - 6]!).toBeLessThan(0.999);
  });

  it('returns all five 1s and the whole eigenspace (principal angles ≈ 0)', () => {
    const r = blockEig(L, 5, { tol: TOL });
    expect(r.converged).toBe(true);
    for (const v of r.values) expect(Math.abs(v - 1)).toBeLessThan(1e-12);
    expect(sinMaxAngle(basis, r.vectors)).toBeLessThan(1e-8);
    expect(orthError(r.vectors)).toBeLessThan(1e-13);
  });

  it('top-7 straddles the multiplicity: five 1s, then eigh λ6, λ7', () => {
    const r = blockEig(L, 7, { tol: TOL });
    expect(maxRelDiff(r.values, top(c.eigenvalues, 7), 1)).toBeLessThan(1e-12);
    expect(sinMaxAngle(basis, mat(c.n, 5, sliceColumns(r.vectors, 5)))).toBeLessThan(1e-8);
  });

  it('top-3 (k below the multiplicity) lies inside the eigenspace', () => {
    const r = blockEig(L, 3, { tol: TOL });
    for (const v of r.values) expect(Math.abs(v - 1)).toBeLessThan(1e-12);
    expect(sinMaxAngle(basis, r.vectors)).toBeLessThan(1e-8);
  });

  it('smallest 5 of the Laplacian I − L are the five 0s', () => {
    const identity: SymOp = {
      n: c.n,
      apply: (X, Y) => Y.data.set(X.data),
    };
    const lap = sumOp(identity, scaledOp(-1, L));
    const r = blockEig(lap, 5, { which: 'smallest', tol: TOL });
    for (const v of r.values) expect(Math.abs(v)).toBeLessThan(1e-12);
    expect(sinMaxAngle(basis, r.vectors)).toBeLessThan(1e-8);
  });
});

function sliceColumns(M: Mat, k: number): Float64Array {
  const out = new Float64Array(M.rows * k);
  for (let i = 0; i < M.rows; i++)
    for (let j = 0; j < k; j++) out[i * k + j] = M.data[i * M.cols + j]!;
  return out;
}

describe('sparse + low-rank operator S + U·C·Uᵀ (n = 300) against its dense equivalent', () => {
  const lr = fx.lowrank;
  const S = csr(lr.S, lr.n);
  const U = mat(lr.n, lr.r, lr.U);
  const V = matmul(U, mat(lr.r, lr.r, lr.C)); // U·C·Uᵀ = U·Vᵀ with V = U·C (C symmetric)
  const G = sumOp(csrOp(S), lowRankOp(U, V));
  const dense = denseOp(toDense(G));
  const norm = Math.max(...lr.eigenvalues.map(Math.abs));

  it('largest and smallest 5 match numpy eigh of the dense G', () => {
    for (const which of ['largest', 'smallest'] as const) {
      const r = blockEig(G, 5, { which, tol: TOL });
      expect(r.converged).toBe(true);
      const ref = which === 'largest' ? top(lr.eigenvalues, 5) : bottom(lr.eigenvalues, 5);
      expect(maxRelDiff(r.values, ref, norm)).toBeLessThan(1e-12);
      expect(maxResidual(dense, r.values, r.vectors) / norm).toBeLessThan(2 * TOL);
      expect(orthError(r.vectors)).toBeLessThan(1e-13);
    }
  });

  it('matches the dense operator solved densely', () => {
    const a = blockEig(G, 5);
    const b = blockEig(dense, 5, { denseBelow: 1000 });
    expect(maxRelDiff(a.values, b.values, norm)).toBeLessThan(1e-12);
  });
});

describe('a towering eigenvalue (L + 50·u·uᵀ): the locked outlier is deflated from the filter', () => {
  const m = fx.mixture;
  const Lm = normalisedAffinity(csr(m.pkn.W, m.n));
  const u = normaliseColumns(
    mat(
      m.n,
      1,
      new Float64Array(m.n).map((_, i) => Math.sin(i + 1)),
    ),
  );
  const A = sumOp(
    csrOp(Lm),
    lowRankOp(
      u,
      mat(
        m.n,
        1,
        u.data.map((x) => 50 * x),
      ),
    ),
  );
  it('top-6 match the dense solution', () => {
    const r = blockEig(A, 6, { tol: TOL });
    const ref = blockEig(denseOp(toDense(A)), 6, { denseBelow: 1000 });
    expect(r.converged).toBe(true);
    expect(r.values[0]!).toBeGreaterThan(40);
    expect(maxRelDiff(r.values, ref.values, 50)).toBeLessThan(1e-12);
    expect(maxResidual(A, r.values, r.vectors) / 50).toBeLessThan(2 * TOL);
  });
});

/**
 * The Laplacian D − W of `clusters` clusters of n / clusters nodes (each node joined to 6 random
 * nodes of its own cluster) and one weak edge (1e-3) between consecutive clusters: its smallest
 * `clusters` eigenvalues are near zero and tower over the rest in −L, so the filter deflates.
 * Nodes are interleaved over the index range (node i is in cluster i mod clusters).
 */
function clusteredLaplacian(n: number, clusters: number, seed: number): Csr {
  const r = prng(seed);
  const rows: Map<number, number>[] = Array.from({ length: n }, () => new Map());
  const link = (i: number, j: number, v: number): void => {
    if (i === j) return;
    rows[i]!.set(j, v);
    rows[j]!.set(i, v);
  };
  const size = n / clusters;
  for (let i = 0; i < n; i++)
    for (let t = 0; t < 6; t++) link(i, (i % clusters) + clusters * Math.floor(r() * size), r());
  for (let g = 0; g + 1 < clusters; g++) link(g, g + 1, 1e-3);
  // L = D − W: the diagonal is the row's total weight, the off-diagonal entries negated.
  return csrFromRowMaps(
    rows.map((m, i) => {
      const l = new Map([...m].map(([j, v]) => [j, -v]));
      l.set(
        i,
        [...m.values()].reduce((a, v) => a + v, 0),
      );
      return l;
    }),
  );
}

describe('the Chebyshev filter inside the CSR kernel (csrFilter) against the plain loop', () => {
  /** Solves with the WebAssembly kernel (its filter sessions) and with the TypeScript one. */
  function both(
    L: Csr,
    k: number,
  ): { fused: BlockEigResult; plain: BlockEigResult; deflated: boolean } {
    let deflated = false;
    const onIteration = (s: BlockEigStep): void => {
      deflated ||= s.deflated;
    };
    const fused = blockEig(csrOp(L), k, { which: 'smallest', tol: 1e-12, onIteration });
    try {
      setCsrBackend('ts');
      const plain = blockEig(csrOp(L), k, { which: 'smallest', tol: 1e-12 });
      return { fused, plain, deflated };
    } finally {
      setCsrBackend('wasm');
    }
  }

  it('gives the same bits on a small Laplacian, deflation included', () => {
    const L = clusteredLaplacian(600, 5, 1);
    const { fused, plain, deflated } = both(L, 6);
    expect(deflated).toBe(true);
    expect(fused.converged).toBe(true);
    expect(Array.from(fused.values)).toEqual(Array.from(plain.values));
    expect(Array.from(fused.vectors.data)).toEqual(Array.from(plain.vectors.data));
  });

  it('agrees to rounding on a band-ordered Laplacian (n = 9000), deflation included', () => {
    const L = clusteredLaplacian(9000, 5, 2);
    const { fused, plain, deflated } = both(L, 6);
    expect(deflated).toBe(true);
    expect(fused.converged && plain.converged).toBe(true);
    // ‖L‖ ≤ 2·max degree < 24.
    expect(maxRelDiff(fused.values, plain.values, 24)).toBeLessThan(1e-12);
    expect(maxResidual(csrOp(L), fused.values, fused.vectors) / 24).toBeLessThan(1e-12);
    expect(sinMaxAngle(fused.vectors, plain.vectors)).toBeLessThan(1e-9);
  });
});

describe('valuesFrom: the last wanted value in a cluster just below the unwanted ones', () => {
  // diag(0.01, …, 0.05, 0.5, 0.5005, …, 0.503, then 0.6 … 2): the 6th smallest is 5e-4 from the
  // 7th, inside the block's guard, so its vector converges slowly while its value does not.
  const n = 400;
  const d = Float64Array.from({ length: n }, (_, i) =>
    i < 5 ? 0.01 * (i + 1) : i < 12 ? 0.5 + 5e-4 * (i - 5) : 0.6 + (1.4 * (i - 12)) / (n - 13),
  );
  const A = csrOp({
    rows: n,
    cols: n,
    indptr: Int32Array.from({ length: n + 1 }, (_, i) => i),
    indices: Int32Array.from({ length: n }, (_, i) => i),
    data: d,
  });
  it('five pairs to 1e-12·‖A‖, the sixth to 1e-6·|θ| with its value to (1e-6·θ)²/δ, in fewer products', () => {
    const full = blockEig(A, 6, { which: 'smallest', tol: 1e-12 });
    const r = blockEig(A, 6, { which: 'smallest', tol: 1e-12, valuesFrom: { from: 5, tol: 1e-6 } });
    expect(r.converged).toBe(true);
    for (let i = 0; i < 5; i++) {
      expect(r.residualNorms[i], `pair ${i}`).toBeLessThan(2e-12);
      expect(Math.abs(r.values[i]! - d[i]!), `λ_${i + 1}`).toBeLessThan(1e-15);
    }
    const th = r.values[5]!;
    expect(r.residualNorms[5]).toBeLessThan(1e-6 * th);
    // Stopped well before the vector's tolerance, and the value is still within the bound.
    expect(r.residualNorms[5]).toBeGreaterThan(2e-12);
    expect(Math.abs(th - d[5]!)).toBeLessThan((1e-6 * th) ** 2 / 5e-4);
    expect(r.matvecs).toBeLessThan(0.8 * full.matvecs);
  });
});

describe('blockEig errors', () => {
  const A = denseOp(mat(3, 3, [2, 0, 0, 0, 1, 0, 0, 0, 0]));
  it('rejects bad k, block size, X0 and bounds with a message naming the argument', () => {
    expect(() => blockEig(A, 0)).toThrow(/k = 0 must be an integer in 1\.\.3/);
    expect(() => blockEig(A, 4)).toThrow(/k = 4/);
    expect(() => blockEig(A, 2, { blockSize: 2 })).toThrow(/blockSize 2 must exceed k = 2/);
    expect(() => blockEig(A, 1, { X0: mat(2, 1, [1, 0]) })).toThrow(/X0 is 2x1/);
    expect(() => blockEig(A, 1, { bounds: { lower: 1, upper: 0 } })).toThrow(/not an interval/);
    expect(() => denseOp(mat(2, 3, [0, 0, 0, 0, 0, 0]))).toThrow(/not square/);
    expect(() => blockEig(A, 2, { valuesFrom: { from: 2, tol: 1e-6 } })).toThrow(
      /valuesFrom needs an integer from in 0\.\.1/,
    );
    expect(() => blockEig(A, 2, { valuesFrom: { from: 1, tol: 0 } })).toThrow(/tol in \(0, 1\)/);
  });
  it('stops with a message when the operator returns NaN', () => {
    const bad: SymOp = { n: 300, apply: (_X, Y) => Y.data.fill(NaN) };
    expect(() => blockEig(bad, 2)).toThrow(/non-finite values/);
    expect(() => blockEig(bad, 2, { bounds: { lower: -1, upper: 1 } })).toThrow(/non-finite/);
  });
  it('solves a tiny diagonal operator exactly', () => {
    const r = blockEig(A, 2);
    expect(Array.from(r.values)).toEqual([2, 1]);
    expect(blockEig(A, 1, { which: 'smallest' }).values[0]).toBe(0);
  });
});
