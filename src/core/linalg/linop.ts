/**
 * Symmetric linear operators given only by their action on a block of vectors, the input of
 * the block eigensolver (`blockeig.ts`). An operator A (n×n) is `{ n, apply(X, Y) }` with
 *   Y (n×b) ← A · X (n×b), row-major, any block width b ≥ 1.
 * `apply` overwrites Y and never reads it first; X and Y must not alias. The builders below
 * compose the operators the solvers need: dense, sparse (CSR), scaled, sums and low rank, e.g.
 * the H-step operator G = λ·L + U·Vᵀ of CGL (`sumOp(scaledOp(λ, csrOp(L)), lowRankOp(U, V))`).
 * Symmetry is the caller's promise; nothing here checks it.
 *
 * Scratch blocks (for sums and low-rank factors) are allocated on the first call and grown
 * only when a wider block arrives, so a solve allocates them once.
 */
import { csrFilter, csrTimesBlock, type CsrFilter } from './csr-kernel';
import { gemmPacked, matmul, packLhs } from './kernels';
import type { Csr, Mat } from './types';

/** A symmetric operator A (n×n) applied to blocks: Y (n×b) ← A·X (n×b). */
export interface SymOp {
  readonly n: number;
  apply(X: Mat, Y: Mat): void;
  /**
   * −A, where the operator can form it once (its products are then the negations of A's, up to
   * the sign of an exact zero, with no pass over Y): what the block eigensolver runs on for the
   * smallest eigenvalues.
   */
  negated?(): SymOp;
  /**
   * A Chebyshev filter session on this operator from Y0 (n × b), where the operator's kernel
   * can hold the filter's blocks itself (`csr-kernel.ts`), else null.
   */
  filter?(Y0: Float64Array, b: number): CsrFilter | null;
}

function checkBlock(n: number, X: Mat, Y: Mat, what: string): void {
  if (X.rows !== n || Y.rows !== n || X.cols !== Y.cols) {
    throw new Error(
      `${what}: operator is ${n}x${n}, X is ${X.rows}x${X.cols}, Y is ${Y.rows}x${Y.cols}`,
    );
  }
}

/** A view of the first rows·cols entries of `buf` as a rows×cols matrix (no copy). */
export function view(buf: Float64Array, rows: number, cols: number): Mat {
  return { rows, cols, data: buf.subarray(0, rows * cols) };
}

/** Grows a scratch buffer to at least `size` entries (reallocates only when too small). */
function ensure(buf: Float64Array, size: number): Float64Array {
  return buf.length >= size ? buf : new Float64Array(size);
}

/** Dense A (n×n, row-major). One product costs 2n²b flops through the `matmul` kernel. */
export function denseOp(A: Mat): SymOp {
  if (A.rows !== A.cols) throw new Error(`denseOp: A is ${A.rows}x${A.cols}, not square`);
  const n = A.rows;
  return {
    n,
    apply(X, Y) {
      checkBlock(n, X, Y, 'denseOp');
      matmul(A, X, Y);
    },
  };
}

/**
 * Sparse S (n×n, CSR). Y = S·X in 2·nnz·b flops: row i of Y is Σ_p S.data[p] · X[S.indices[p], :],
 * so the innermost loop runs along a row of X and a row of Y, both contiguous in row-major layout
 * (the b entries of one sample sit side by side). `csr-kernel.ts` (WebAssembly SIMD, TypeScript
 * fallback) keeps a copy of S: S must not be modified after its first product.
 */
export function csrOp(S: Csr): SymOp {
  if (S.rows !== S.cols) throw new Error(`csrOp: S is ${S.rows}x${S.cols}, not square`);
  const n = S.rows;
  return {
    n,
    apply(X, Y) {
      checkBlock(n, X, Y, 'csrOp');
      csrTimesBlock(S, X.data, Y.data, X.cols);
    },
    // −S stored (one copy of S's values): each product is the negation of S's, as negating
    // every term of a sum negates its rounded value (an exact zero sum is +0 either way).
    negated: () => csrOp({ ...S, data: S.data.map((x) => -x) }),
    filter: (Y0, b) => csrFilter(S, Y0, b),
  };
}

/** α·A for a scalar α: one product of A plus nb flops. */
export function scaledOp(alpha: number, A: SymOp): SymOp {
  return {
    n: A.n,
    apply(X, Y) {
      A.apply(X, Y);
      const y = Y.data;
      for (let i = 0; i < y.length; i++) y[i]! *= alpha;
    },
  };
}

/** A₁ + A₂ + … (all n×n): one product of each term and one n×b scratch block. */
export function sumOp(...terms: SymOp[]): SymOp {
  const first = terms[0];
  if (!first) throw new Error('sumOp: no terms');
  const n = first.n;
  for (const t of terms) if (t.n !== n) throw new Error(`sumOp: sizes ${n} and ${t.n} differ`);
  let scratch: Float64Array = new Float64Array(0);
  return {
    n,
    apply(X, Y) {
      checkBlock(n, X, Y, 'sumOp');
      first.apply(X, Y);
      if (terms.length === 1) return;
      scratch = ensure(scratch, n * X.cols);
      const T = view(scratch, n, X.cols);
      for (let t = 1; t < terms.length; t++) {
        terms[t]!.apply(X, T);
        const y = Y.data;
        const s = T.data;
        for (let i = 0; i < y.length; i++) y[i]! += s[i]!;
      }
    },
  };
}

/**
 * U·Vᵀ for U, V (n×r): Y = U·(Vᵀ·X), 4nrb flops and an r×b scratch block; never forms the
 * n×n product. Symmetric only if U·Vᵀ is (e.g. V = U·C with C = Cᵀ): the caller's promise.
 * U and Vᵀ are packed for the GEMM kernel when the operator is made (2nr values; later changes
 * to U or V are not seen), so a product packs only its b columns: for the narrow blocks of an
 * eigensolver (b ≪ r) packing the n×r factors again at every product would cost as much as the
 * arithmetic. Same bits as `matmul(U, matmulTA(V, X))`.
 */
export function lowRankOp(U: Mat, V: Mat): SymOp {
  if (U.rows !== V.rows || U.cols !== V.cols) {
    throw new Error(`lowRankOp: U is ${U.rows}x${U.cols}, V is ${V.rows}x${V.cols}`);
  }
  const n = U.rows;
  const r = U.cols;
  const Up = packLhs(U);
  const Vt = packLhs(V, true);
  let scratch: Float64Array = new Float64Array(0);
  return {
    n,
    apply(X, Y) {
      checkBlock(n, X, Y, 'lowRankOp');
      scratch = ensure(scratch, r * X.cols);
      const T = view(scratch, r, X.cols);
      gemmPacked(Vt, X, T);
      gemmPacked(Up, T, Y);
    },
  };
}
