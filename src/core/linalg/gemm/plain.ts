/**
 * The products in plain TypeScript, for engines without WebAssembly SIMD (every supported host
 * has it) and as the tests' oracle: one sequential dot product per entry, summed from +0 in order
 * of k. With α = 1, β = 0 and k ≤ KP that is the wasm path's summation, so both give the same
 * bits; deeper, the wasm path adds one partial sum per KP chunk and agrees within rounding. The
 * fused 'fma' backend agrees within rounding at any depth (its error bound and this loop's are
 * both γ_k·Σ|a||b|).
 */
import { KC, lhsOffset, MC, MR, type PackedLhs, type Strided } from './layout';

/** C (m×n) ← β·C, with β = 0 writing exact zeros. */
export function scaleBlock(m: number, n: number, beta: number, C: Strided): void {
  if (beta === 1) return;
  const { data: c, offset, ld } = C;
  if (beta === 0 && ld === n) {
    c.fill(0, offset, offset + m * n);
    return;
  }
  for (let i = 0; i < m; i++) {
    const r = offset + i * ld;
    if (beta === 0) c.fill(0, r, r + n);
    else for (let j = r; j < r + n; j++) c[j]! *= beta;
  }
}

/**
 * C (m×n) += α·op(A)·op(B), one dot product per entry (O(mnk), reads op(A) in place: strided, or
 * from `packLhs`'s slivers). With `upper` (syrk, m = n) only the entries on and above the
 * diagonal are computed; the caller mirrors them.
 */
export function productPlain(
  m: number,
  n: number,
  k: number,
  alpha: number,
  A: Strided | PackedLhs,
  transA: boolean,
  B: Strided,
  transB: boolean,
  C: Strided,
  upper: boolean,
): void {
  const { data: c, offset: c0, ld: ldc } = C;
  const { data: b, offset: b0, ld: ldb } = B;
  // op(B)[p, j] = b[b0 + p·bp + j·bj]; op(A)[i, p] = a[a0 + i·ai + p·ap] for a strided A.
  const bp = transB ? 1 : ldb;
  const bj = transB ? ldb : 1;
  for (let i = 0; i < m; i++) {
    for (let j = upper ? i : 0; j < n; j++) {
      let s = 0;
      if ('packed' in A) s = packedDot(A, i, b, b0 + j * bj, bp);
      else {
        const { data: a, offset: a0, ld: lda } = A;
        const ap = transA ? lda : 1;
        let x = a0 + i * (transA ? 1 : lda);
        let y = b0 + j * bj;
        for (let p = 0; p < k; p++, x += ap, y += bp) s += a[x]! * b[y]!;
      }
      c[c0 + i * ldc + j]! += alpha * s;
    }
  }
}

/**
 * Σ_p op(A)[i, p] · b[y + p·bp] in order of p, op(A) read from its packed slivers: row i is row
 * t = i mod MR of the sliver that holds it, MR apart within each KC slice.
 */
function packedDot(P: PackedLhs, i: number, b: Float64Array, y: number, bp: number): number {
  const { m, k, packed: a } = P;
  const i0 = i - (i % MC);
  const mb = Math.min(MC, m - i0);
  const r = i - i0;
  let s = 0;
  for (let p0 = 0; p0 < k; p0 += KC) {
    const kb = Math.min(KC, k - p0);
    let x = lhsOffset(i0, mb, p0, k) + (r - (r % MR)) * kb + (r % MR);
    for (let p = 0; p < kb; p++, x += MR, y += bp) s += a[x]! * b[y]!;
  }
  return s;
}
