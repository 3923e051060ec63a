/**
 * Sylvester equations A·X + X·B = C with symmetric coefficients, by Bartels–Stewart: reduce
 * each coefficient to its real Schur form, which for a symmetric matrix is its eigendecomposition
 * (A = Qa·Λa·Qaᵀ), so the triangular back-substitution of the general method becomes an
 * entrywise division:
 *
 *   X = Qa · [ (Qaᵀ·C·Qb)_ij / (λa_i + λb_j) ] · Qbᵀ.
 *
 * `sylvesterSymmetric` does that with both coefficients dense. `sylvesterLowRank` takes a left
 * coefficient A = α·F·Fᵀ of rank r ≤ m that is never formed: its eigenvectors of nonzero
 * eigenvalue are Qf·P (F = Qf·R thin QR, R·Rᵀ = P·Σ·Pᵀ), the rest of ℝ^m is its null space, so
 * each column j of the rotated equation is (λ_j I + α·F·Fᵀ)·y_j = c_j with
 *
 *   y_j = (c_j − Ua·Uaᵀ·c_j) / λ_j + Ua · diag(1 / (λ_j + α·σ_i)) · Uaᵀ·c_j,   Ua = Qf·P,
 *
 * O(m·r² + m·n·(r + n) + n³) instead of O(m³). The two are the same solution; the dense one
 * is the low-rank one's test ground truth (and both are tested against
 * scipy.linalg.solve_sylvester, test/fixtures/linalg/sylvester.py).
 *
 * A singular equation (λa_i + λb_j = 0 for some pair, to rounding) is refused with a
 * NumericalError: the solution is then not unique.
 */
import { symEig } from './eig';
import { NumericalError } from './errors';
import { matmul, matmulTA, matmulTB } from './gemm/gemm';
import { qr } from './qr';
import type { Mat } from './types';

/** The relative gap below which λa_i + λb_j counts as zero (the equation as singular). */
const SINGULAR = 64 * Number.EPSILON;

function checkShapes(name: string, m: number, n: number, C: Mat): void {
  if (C.rows !== m || C.cols !== n) {
    throw new Error(`${name}: C is ${C.rows}x${C.cols}, expected ${m}x${n}`);
  }
}

function maxAbs(x: Float64Array): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s = Math.max(s, Math.abs(x[i]!));
  return s;
}

/** Throws when a + b is zero relative to the coefficients' scale. */
function checkGap(name: string, sum: number, scale: number): void {
  if (!(Math.abs(sum) > SINGULAR * scale)) {
    throw new NumericalError(
      `${name}: the equation is singular (an eigenvalue of A plus one of B is ${sum}, ` +
        `against a coefficient scale of ${scale}); its solution is not unique`,
    );
  }
}

/**
 * X (m×n) solving A·X + X·B = C, A (m×m) and B (n×n) symmetric (their symmetric parts are
 * used), C (m×n). Two symmetric eigendecompositions and four products: O(m³ + n³ + m·n·(m+n)).
 */
export function sylvesterSymmetric(A: Mat, B: Mat, C: Mat): Mat {
  const m = A.rows;
  const n = B.rows;
  if (A.cols !== m || B.cols !== n) {
    throw new Error(`sylvesterSymmetric: A is ${A.rows}x${A.cols}, B ${B.rows}x${B.cols}`);
  }
  checkShapes('sylvesterSymmetric', m, n, C);
  const ea = symEig(A);
  const eb = symEig(B);
  const scale = maxAbs(ea.values) + maxAbs(eb.values);
  // T = Qaᵀ·C·Qb, divided entrywise, then rotated back.
  const T = matmul(matmulTA(ea.vectors, C), eb.vectors);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      const g = ea.values[i]! + eb.values[j]!;
      checkGap('sylvesterSymmetric', g, scale);
      T.data[i * n + j]! /= g;
    }
  }
  return matmulTB(matmul(ea.vectors, T), eb.vectors);
}

/**
 * X (m×n) solving (α·F·Fᵀ)·X + X·S = C without forming the m×m coefficient: F (m×r), S (n×n)
 * symmetric, α ≥ 0, C (m×n). See the module comment for the formula. With r ≥ m the left
 * coefficient has no null space to exploit and the dense solver runs instead.
 */
export function sylvesterLowRank(alpha: number, F: Mat, S: Mat, C: Mat): Mat {
  const m = F.rows;
  const r = F.cols;
  const n = S.rows;
  if (S.cols !== n) throw new Error(`sylvesterLowRank: S is ${S.rows}x${S.cols}, not square`);
  if (!(alpha >= 0)) throw new Error(`sylvesterLowRank: alpha must be >= 0, got ${alpha}`);
  checkShapes('sylvesterLowRank', m, n, C);
  if (r >= m) {
    const A = matmulTB(F, F);
    for (let p = 0; p < A.data.length; p++) A.data[p]! *= alpha;
    return sylvesterSymmetric(A, S, C);
  }
  const es = symEig(S);
  const { Q: Qf, R } = qr(F);
  const er = symEig(matmulTB(R, R));
  const Ua = matmul(Qf, er.vectors); // (m, r), orthonormal columns: A = Ua·diag(α·σ)·Uaᵀ
  const sigma = er.values;
  const scale = alpha * maxAbs(sigma) + maxAbs(es.values);
  const Cq = matmul(C, es.vectors); // C·Qs (m, n)
  const T = matmulTA(Ua, Cq); // Uaᵀ·C·Qs (r, n)
  const P = matmul(Ua, T); // the part of C·Qs in range(A)
  const Y = Cq;
  for (let j = 0; j < n; j++) {
    const lambda = es.values[j]!;
    checkGap('sylvesterLowRank', lambda, scale);
    for (let i = 0; i < m; i++)
      Y.data[i * n + j] = (Y.data[i * n + j]! - P.data[i * n + j]!) / lambda;
    for (let i = 0; i < r; i++) {
      const g = lambda + alpha * Math.max(0, sigma[i]!);
      checkGap('sylvesterLowRank', g, scale);
      T.data[i * n + j]! /= g;
    }
  }
  const Z = matmul(Ua, T);
  for (let p = 0; p < Y.data.length; p++) Y.data[p]! += Z.data[p]!;
  return matmulTB(Y, es.vectors);
}
