/**
 * `shiftedLaplacianSolve` against the dense solve of the same system: (I + λ(D − W))·X = B
 * formed densely and solved by Cholesky (`choleskyFactor`/`choleskySolve`), on a weighted
 * random graph and a binary kNN graph, for λ from the UEAF default (1e-5) to a stiff 100; and
 * the identity residual ‖B − (I + λL)X‖ / ‖B‖ at the solver's tolerance.
 */
import { csrFromDense } from '../../../src/core/linalg/kernels';
import { describe, expect, it } from 'vitest';
import { binaryKnnGraph } from '../../../src/core/graph/knn-binary';
import { RESIDUAL_TOL, shiftedLaplacianSolve } from '../../../src/core/graph/laplacian-solve';
import { choleskyFactor, choleskySolve } from '../../../src/core/linalg/chol';
import type { Csr, Mat } from '../../../src/core/linalg/types';
import { mat } from '../../helpers/linalg';
import { prng } from '../../helpers/prng';

/** I + λ(D − W), dense. */
function denseSystem(W: Csr, lambda: number): Mat {
  const n = W.rows;
  const A = mat(n, n, new Float64Array(n * n));
  for (let i = 0; i < n; i++) {
    A.data[i * n + i] = 1;
    for (let p = W.indptr[i]!; p < W.indptr[i + 1]!; p++) {
      const j = W.indices[p]!;
      A.data[i * n + j]! -= lambda * W.data[p]!;
      A.data[i * n + i]! += lambda * W.data[p]!;
    }
  }
  return A;
}

/** A symmetric random graph with weights in (0, 2) on about `density` of the pairs. */
function randomGraph(n: number, density: number, seed: number): Csr {
  const r = prng(seed);
  const A = mat(n, n, new Float64Array(n * n));
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (r() < density) {
        const w = 2 * r();
        A.data[i * n + j] = w;
        A.data[j * n + i] = w;
      }
    }
  }
  return csrFromDense(A);
}

function rhs(n: number, m: number, seed: number): Mat {
  const r = prng(seed);
  const B = mat(
    n,
    m,
    new Float64Array(n * m).map(() => r() - 0.5),
  );
  B.data.fill(0, 0, m).fill(0, 3 * m, 4 * m); // zero rows are fine; column 2 below is zero
  for (let i = 0; i < n; i++) B.data[i * m + 2] = 0;
  return B;
}

describe('shiftedLaplacianSolve', () => {
  const points = mat(
    80,
    3,
    (() => {
      const r = prng(9);
      return new Float64Array(240).map(() => r());
    })(),
  );
  const graphs: [string, Csr][] = [
    ['weighted random graph', randomGraph(70, 0.1, 4)],
    ['binary 7-NN graph', binaryKnnGraph(points, 7)],
  ];
  for (const [name, W] of graphs) {
    for (const lambda of [0, 1e-5, 1, 100]) {
      it(`${name}, λ = ${lambda}: equals the dense Cholesky solve`, () => {
        const n = W.rows;
        const B = rhs(n, 6, 11);
        const A = denseSystem(W, lambda);
        const want = choleskySolve(choleskyFactor(A), B);
        const { X, maxIterations } = shiftedLaplacianSolve(W, lambda, B);
        let err = 0;
        let scale = 0;
        for (let i = 0; i < X.data.length; i++) {
          err = Math.max(err, Math.abs(X.data[i]! - want.data[i]!));
          scale = Math.max(scale, Math.abs(want.data[i]!));
        }
        // cond(A) ≤ 1 + 2λ·max deg bounds the error of both solves.
        expect(err / scale).toBeLessThan(lambda >= 100 ? 1e-10 : 1e-13);
        for (let i = 0; i < n; i++) expect(X.data[i * 6 + 2]).toBe(0);
        // The residual of each nonzero column is at the tolerance (recomputed densely).
        for (let c = 0; c < 6; c++) {
          if (c === 2) continue;
          let rr = 0;
          let bb = 0;
          for (let i = 0; i < n; i++) {
            let ax = 0;
            for (let j = 0; j < n; j++) ax += A.data[i * n + j]! * X.data[j * 6 + c]!;
            rr += (B.data[i * 6 + c]! - ax) ** 2;
            bb += B.data[i * 6 + c]! ** 2;
          }
          expect(Math.sqrt(rr / bb)).toBeLessThan(100 * RESIDUAL_TOL);
        }
        if (lambda === 0) expect(maxIterations).toBe(1); // the Jacobi step is exact
        expect(maxIterations).toBeLessThanOrEqual(2 * n + 50);
      });
    }
  }

  it('refuses mismatched shapes and a negative λ, naming them', () => {
    const W = randomGraph(5, 0.5, 1);
    expect(() => shiftedLaplacianSolve(W, 1, mat(4, 2, new Float64Array(8)))).toThrow(
      /B has 4 rows, W is 5x5/,
    );
    expect(() => shiftedLaplacianSolve(W, -1, mat(5, 1, new Float64Array(5)))).toThrow(/λ = -1/);
  });
});
