/**
 * Triangular solves with many right-hand sides (BLAS dtrsm) on strided row-major views, blocked
 * by recursion so that almost all flops are GEMM updates: op(T) is split in halves, one half
 * solved, the other half's right-hand sides updated by one `gemmStrided`, then the other half
 * solved; below LEAF rows the solve is a plain substitution. For an n×n T and r right-hand sides
 * this is n²·r flops, of which a fraction ≈ 1 − LEAF/n is GEMM.
 *
 * The triangle is described by `Tri`: T is stored as a strided view; `lower` says which
 * triangle of the storage holds it (the other is never read), `trans` solves with Tᵀ, `unit`
 * takes the diagonal as 1 (never read). op(T) = Tᵀ when `trans`, else T; op(T) is lower
 * triangular exactly when `lower !== trans`.
 */
import { gemmStrided, type Strided } from './gemm';

/** A triangular matrix in strided storage (see the module comment). */
export interface Tri {
  readonly data: Float64Array;
  readonly offset: number;
  readonly ld: number;
  readonly lower: boolean;
  readonly trans: boolean;
  readonly unit: boolean;
}

/** Below this order the solve is a substitution loop (its flops are a fraction LEAF/n). */
const LEAF = 32;

const sub = (X: Strided, i: number, j: number): Strided => ({
  data: X.data,
  offset: X.offset + i * X.ld + j,
  ld: X.ld,
});

const subTri = (T: Tri, i: number): Tri => ({ ...T, offset: T.offset + i * T.ld + i });

/**
 * The off-diagonal block op(T)[i0:i0+mi, j0:j0+nj] as a GEMM operand: (view, transposed?).
 * op(T)[i, j] is T[i, j] or, when `trans`, T[j, i].
 */
function offBlock(T: Tri, i0: number, j0: number): [Strided, boolean] {
  const S: Strided = { data: T.data, offset: T.offset, ld: T.ld };
  return T.trans ? [sub(S, j0, i0), true] : [sub(S, i0, j0), false];
}

/**
 * Left solve: B (n×r) ← op(T)⁻¹·B, T n×n. No array is allocated. Division by a zero diagonal
 * gives ±∞/NaN (the callers check their pivots first).
 */
export function trsmLeft(n: number, r: number, T: Tri, B: Strided): void {
  if (n <= 0 || r <= 0) return;
  if (n <= LEAF) {
    leafLeft(n, r, T, B);
    return;
  }
  const n1 = n >> 1;
  const n2 = n - n1;
  if (T.lower !== T.trans) {
    // Forward: X₁ = op(T₁₁)⁻¹B₁; B₂ −= op(T)₂₁·X₁; X₂ = op(T₂₂)⁻¹B₂.
    trsmLeft(n1, r, T, B);
    const [A, tA] = offBlock(T, n1, 0);
    gemmStrided(n2, r, n1, -1, A, tA, B, false, 1, sub(B, n1, 0));
    trsmLeft(n2, r, subTri(T, n1), sub(B, n1, 0));
  } else {
    // Backward: X₂ first, then B₁ −= op(T)₁₂·X₂, then X₁.
    trsmLeft(n2, r, subTri(T, n1), sub(B, n1, 0));
    const [A, tA] = offBlock(T, 0, n1);
    gemmStrided(n1, r, n2, -1, A, tA, sub(B, n1, 0), false, 1, B);
    trsmLeft(n1, r, T, B);
  }
}

/**
 * Right solve: B (m×n) ← B·op(T)⁻¹, T n×n (X·op(T) = B). No array is allocated.
 */
export function trsmRight(m: number, n: number, T: Tri, B: Strided): void {
  if (n <= 0 || m <= 0) return;
  if (n <= LEAF) {
    leafRight(m, n, T, B);
    return;
  }
  const n1 = n >> 1;
  const n2 = n - n1;
  if (T.lower === T.trans) {
    // op(T) upper: X₁·op(T₁₁) = B₁; B₂ −= X₁·op(T)₁₂; X₂·op(T₂₂) = B₂.
    trsmRight(m, n1, T, B);
    const [A, tA] = offBlock(T, 0, n1);
    gemmStrided(m, n2, n1, -1, B, false, A, tA, 1, sub(B, 0, n1));
    trsmRight(m, n2, subTri(T, n1), sub(B, 0, n1));
  } else {
    // op(T) lower: X₂ first, then B₁ −= X₂·op(T)₂₁, then X₁.
    trsmRight(m, n2, subTri(T, n1), sub(B, 0, n1));
    const [A, tA] = offBlock(T, n1, 0);
    gemmStrided(m, n1, n2, -1, sub(B, 0, n1), false, A, tA, 1, B);
    trsmRight(m, n1, T, B);
  }
}

/** Strides of op(T): op(T)[i, j] = T.data[T.offset + i·si + j·sj]. */
function opStrides(T: Tri): [number, number] {
  return T.trans ? [1, T.ld] : [T.ld, 1];
}

/**
 * Substitution for the left solve, by rows of B (each row an axpy of r contiguous values):
 * x_i = (b_i − Σ_p op(T)[i, p]·x_p) / op(T)[i, i] over the already solved p, ascending. Four
 * solved rows are subtracted per pass over the r values (one read and write of row i instead of
 * four), each as its own rounded multiply and subtract in the same order as one row per pass, so
 * the bits are the same; a zero op(T)[i, p] is skipped (as the one-row loop did).
 */
function leafLeft(n: number, r: number, T: Tri, B: Strided): void {
  const b = B.data;
  const ld = B.ld;
  const b0 = B.offset;
  const t = T.data;
  const t0 = T.offset;
  const [si, sj] = opStrides(T);
  const unit = T.unit;
  const forward = T.lower !== T.trans;
  for (let s = 0; s < n; s++) {
    const i = forward ? s : n - 1 - s;
    const bi = b0 + i * ld;
    const ti = t0 + i * si;
    const p1 = forward ? i : n;
    let p = forward ? 0 : i + 1;
    for (; p + 4 <= p1; p += 4) {
      const u0 = t[ti + p * sj]!;
      const u1 = t[ti + (p + 1) * sj]!;
      const u2 = t[ti + (p + 2) * sj]!;
      const u3 = t[ti + (p + 3) * sj]!;
      const q0 = b0 + p * ld;
      if (u0 === 0 || u1 === 0 || u2 === 0 || u3 === 0) {
        axpyRows(b, B, bi, r, t, ti, sj, p, p + 4);
        continue;
      }
      const q1 = q0 + ld;
      const q2 = q1 + ld;
      const q3 = q2 + ld;
      for (let c = 0; c < r; c++) {
        let v = b[bi + c]!;
        v -= u0 * b[q0 + c]!;
        v -= u1 * b[q1 + c]!;
        v -= u2 * b[q2 + c]!;
        v -= u3 * b[q3 + c]!;
        b[bi + c] = v;
      }
    }
    axpyRows(b, B, bi, r, t, ti, sj, p, p1);
    if (!unit) {
      const d = 1 / t[ti + i * sj]!;
      for (let c = 0; c < r; c++) b[bi + c]! *= d;
    }
  }
}

/**
 * Row bi of B −= op(T)[i, q]·x_q (op(T)[i, q] = t[ti + q·sj]) for q = q0 … q1 − 1 ascending,
 * one row per pass, skipping zero coefficients: the remainder and the zero-bearing groups of
 * `leafLeft`.
 */
function axpyRows(
  b: Float64Array,
  B: Strided,
  bi: number,
  r: number,
  t: Float64Array,
  ti: number,
  sj: number,
  q0: number,
  q1: number,
): void {
  for (let q = q0; q < q1; q++) {
    const u = t[ti + q * sj]!;
    if (u === 0) continue;
    const bq = B.offset + q * B.ld;
    for (let c = 0; c < r; c++) b[bi + c]! -= u * b[bq + c]!;
  }
}

/**
 * Substitution for the right solve, row by row of B: for op(T) upper,
 * x_k = (b_k − Σ_{p<k} x_p·op(T)[p, k]) / op(T)[k, k] for k ascending; for lower, descending.
 * The rows are independent, so four are solved together (four sums in flight instead of one
 * chain of dependent subtractions), each in the one-row order, so the bits are the same.
 */
function leafRight(m: number, n: number, T: Tri, B: Strided): void {
  const b = B.data;
  const ld = B.ld;
  const t = T.data;
  const t0 = T.offset;
  const [si, sj] = opStrides(T);
  const unit = T.unit;
  const upper = T.lower === T.trans;
  let i = 0;
  for (; i + 4 <= m; i += 4) {
    const r0 = B.offset + i * ld;
    const r1 = r0 + ld;
    const r2 = r1 + ld;
    const r3 = r2 + ld;
    for (let s = 0; s < n; s++) {
      const k = upper ? s : n - 1 - s;
      const tk = t0 + k * sj;
      let a0 = b[r0 + k]!;
      let a1 = b[r1 + k]!;
      let a2 = b[r2 + k]!;
      let a3 = b[r3 + k]!;
      const p0 = upper ? 0 : k + 1;
      const p1 = upper ? k : n;
      for (let p = p0; p < p1; p++) {
        const u = t[tk + p * si]!;
        a0 -= b[r0 + p]! * u;
        a1 -= b[r1 + p]! * u;
        a2 -= b[r2 + p]! * u;
        a3 -= b[r3 + p]! * u;
      }
      if (unit) {
        b[r0 + k] = a0;
        b[r1 + k] = a1;
        b[r2 + k] = a2;
        b[r3 + k] = a3;
      } else {
        const d = t[tk + k * si]!;
        b[r0 + k] = a0 / d;
        b[r1 + k] = a1 / d;
        b[r2 + k] = a2 / d;
        b[r3 + k] = a3 / d;
      }
    }
  }
  for (; i < m; i++) {
    const bi = B.offset + i * ld;
    for (let s = 0; s < n; s++) {
      const k = upper ? s : n - 1 - s;
      const tk = t0 + k * sj;
      let acc = b[bi + k]!;
      if (upper) for (let p = 0; p < k; p++) acc -= b[bi + p]! * t[tk + p * si]!;
      else for (let p = k + 1; p < n; p++) acc -= b[bi + p]! * t[tk + p * si]!;
      b[bi + k] = unit ? acc : acc / t[tk + k * si]!;
    }
  }
}
