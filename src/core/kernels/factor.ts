/**
 * The centred, normalised linear kernel of a view's present samples kept as a factor, so that
 * nothing n_v × n_v (or n × n) is formed. For the rows X (n_v, d) of a view's present samples,
 * the MKKM / EEIMVC codes use
 *
 *   K = knorm(kcenter(X·Xᵀ)),   kcenter(K) = H·K·H (H = I − (1/n_v)·11ᵀ),
 *                               knorm(K)_ij = K_ij / √(K_ii·K_jj)   (transform.ts),
 *
 * and H·X·Xᵀ·H = (H·X)(H·X)ᵀ, so K = Y·Yᵀ with
 *
 *   Y = S·(X − 1·μᵀ) (n_v, d),  μ = (1/n_v)·Xᵀ·1,  S = diag(s),  s_r = 1 / ‖x_r − μ‖₂,
 *
 * the same matrix as the reference's in exact arithmetic (K_ii = 1, K_ij the cosine of the
 * centred samples). Y is kept implicit, X sparse where it is: a product K·B (n_v, b) is
 *   U = S·B,  T = Xᵀ·U − μ·(1ᵀ·U)  (d, b),  K·B = S·(X·T − 1·(μᵀ·T)),
 * O(nnz(X)·b + (n_v + d)·b) flops, against O(n_v²·d) to form K. A dense view with at most
 * SPARSE_BELOW of its entries nonzero (text counts) is stored as CSR for this.
 *
 * The n × n kernel a method places each block in (zeros on the missing rows and columns,
 * K = G_vᵀ·K_PP·G_v, incomplete.ts) is then an operator: `paddedKernelSumOp` applies
 * Σ_v w_v·G_vᵀ·K_v·G_v to a block in O(Σ_v nnz_v·b), for the block eigensolver.
 */
import type { View } from '../dataset';
import { csrTimesBlock } from '../linalg/csr-kernel';
import { matmul, matmulTA, transposeCsr } from '../linalg/kernels';
import type { SymOp } from '../linalg/linop';
import type { Csr, Mat } from '../linalg/types';
import { denseRows } from '../views/present';

/** Dense views with at most this share of nonzero entries are multiplied as CSR. */
export const SPARSE_BELOW = 0.25;

/** Y = S·(X − 1·μᵀ) of the file comment, implicit. */
export interface CentredUnitFactor {
  /** n_v and d. */
  readonly rows: number;
  readonly cols: number;
  /** X (n_v, d), dense or CSR, and Xᵀ (d, n_v) for CSR. */
  readonly X: { readonly kind: 'dense'; readonly m: Mat } | CsrPair;
  /** (d,) the mean of the present samples. */
  readonly mean: Float64Array;
  /** (n_v,) 1 / ‖x_r − μ‖₂. */
  readonly scale: Float64Array;
  /** (n_v,) X·μ and ‖μ‖²: the mean's terms of a product (see `kernelProduct`). */
  readonly xMean: Float64Array;
  readonly meanSquare: number;
}

interface CsrPair {
  readonly kind: 'csr';
  readonly m: Csr;
  readonly t: Csr;
}

/**
 * The view with a dense matrix stored as CSR when at most SPARSE_BELOW of its entries are
 * nonzero (same values; a CSR view, or a denser one, is returned as it is). O(n_v·d), one pass.
 */
export function sparseView(view: View): View {
  const x = view.values;
  if (x.kind === 'csr') return view;
  const { rows, cols, data } = x;
  if (data.length === 0) return view;
  // One pass: the entries go straight into arrays of the largest sparse size, and the view is
  // returned as it is as soon as one nonzero too many appears.
  const cap = Math.floor(SPARSE_BELOW * data.length);
  const indptr = new Int32Array(rows + 1);
  const allIndices = new Int32Array(cap);
  const allValues = new Float64Array(cap);
  let p = 0;
  for (let r = 0; r < rows; r++) {
    for (let j = 0; j < cols; j++) {
      const v = data[r * cols + j]!;
      if (v !== 0) {
        if (p === cap) return view;
        allIndices[p] = j;
        allValues[p++] = v;
      }
    }
    indptr[r + 1] = p;
  }
  const indices = allIndices.slice(0, p);
  const values = allValues.slice(0, p);
  return { ...view, values: { kind: 'csr', rows, cols, indptr, indices, data: values } };
}

/**
 * The factor of the view's present samples (file comment). O(nnz + n_v + d) beyond the CSR
 * copy. A sample equal to the mean (‖x_r − μ‖ = 0) has no direction: the reference divides by
 * 0 (NaN), so this throws naming the view and the sample.
 */
export function centredUnitFactor(view: View): CentredUnitFactor {
  const m = view.present.length;
  const d = view.d;
  const v = sparseView(view);
  const S = v.values.kind === 'csr' ? v.values : null;
  const D = S ? null : denseRows(v);
  const mean = new Float64Array(d);
  const scale = new Float64Array(m);
  if (S) {
    for (let p = 0; p < S.data.length; p++) mean[S.indices[p]!]! += S.data[p]!;
  } else {
    for (let r = 0; r < m; r++) for (let j = 0; j < d; j++) mean[j]! += D!.data[r * d + j]!;
  }
  let mm = 0;
  for (let j = 0; j < d; j++) {
    mean[j]! /= m;
    mm += mean[j]! * mean[j]!;
  }
  for (let r = 0; r < m; r++) {
    let ss = 0;
    if (S) {
      // Σ_{j stored} (x_j − μ_j)² + Σ_{j not stored} μ_j².
      let off = mm;
      for (let p = S.indptr[r]!; p < S.indptr[r + 1]!; p++) {
        const mj = mean[S.indices[p]!]!;
        const t = S.data[p]! - mj;
        ss += t * t;
        off -= mj * mj;
      }
      ss += Math.max(0, off);
    } else {
      for (let j = 0; j < d; j++) {
        const t = D!.data[r * d + j]! - mean[j]!;
        ss += t * t;
      }
    }
    if (!(ss > 0)) {
      throw new RangeError(
        `centredUnitFactor: view '${view.name}', present sample ${r} (sample ` +
          `${view.present[r]! + 1}) equals the mean of the view's present samples, so its ` +
          'centred kernel row is 0 and cannot be normalised',
      );
    }
    scale[r] = 1 / Math.sqrt(ss);
  }
  const X: CentredUnitFactor['X'] = S
    ? { kind: 'csr', m: S, t: transposeCsr(S) }
    : { kind: 'dense', m: D! };
  // g = X·μ: the products subtract the mean through it, in the n_v-space (kernelProduct).
  const g = new Float64Array(m);
  if (S) {
    for (let r = 0; r < m; r++) {
      let a = 0;
      for (let p = S.indptr[r]!; p < S.indptr[r + 1]!; p++) a += S.data[p]! * mean[S.indices[p]!]!;
      g[r] = a;
    }
  } else {
    for (let r = 0; r < m; r++) {
      let a = 0;
      for (let j = 0; j < d; j++) a += D!.data[r * d + j]! * mean[j]!;
      g[r] = a;
    }
  }
  return { rows: m, cols: d, X, mean, scale, xMean: g, meanSquare: mm };
}

/** Y (n_v, d) formed: the explicit factor (tests, checks). O(n_v·d). */
export function factorMatrix(f: CentredUnitFactor): Mat {
  const { rows: m, cols: d, mean, scale } = f;
  const y = new Float64Array(m * d);
  if (f.X.kind === 'dense') y.set(f.X.m.data);
  else {
    const S = f.X.m;
    for (let r = 0; r < m; r++) {
      for (let p = S.indptr[r]!; p < S.indptr[r + 1]!; p++) y[r * d + S.indices[p]!] = S.data[p]!;
    }
  }
  for (let r = 0; r < m; r++) {
    for (let j = 0; j < d; j++) y[r * d + j] = (y[r * d + j]! - mean[j]!) * scale[r]!;
  }
  return { rows: m, cols: d, data: y };
}

/** Scratch of one product of width b. */
interface Work {
  readonly u: Mat;
  readonly t: Mat;
  readonly z: Mat;
  /** (b,) 1ᵀU and gᵀU − ‖μ‖²·1ᵀU. */
  readonly c: Float64Array;
  readonly e: Float64Array;
}

function work(f: CentredUnitFactor, b: number): Work {
  const mat = (rows: number): Mat => ({ rows, cols: b, data: new Float64Array(rows * b) });
  return {
    u: mat(f.rows),
    t: mat(f.cols),
    z: mat(f.rows),
    c: new Float64Array(b),
    e: new Float64Array(b),
  };
}

/**
 * w.z ← K·B for w.u = S·B (n_v, b) already written: with U = S·B,
 *   (X − 1μᵀ)(X − 1μᵀ)ᵀ·U = X·(Xᵀ·U) − g·(1ᵀU) − 1·(gᵀU) + 1·‖μ‖²·(1ᵀU),   g = X·μ,
 * then scaled by S: two sparse (or dense) products and O(n_v·b), nothing of length d.
 */
function kernelProduct(f: CentredUnitFactor, w: Work, b: number): void {
  const { scale, xMean: g, meanSquare, rows: m } = f;
  const u = w.u.data;
  const z = w.z.data;
  if (f.X.kind === 'dense') {
    matmulTA(f.X.m, w.u, w.t);
    matmul(f.X.m, w.t, w.z);
  } else {
    csrTimesBlock(f.X.t, u, w.t.data, b);
    csrTimesBlock(f.X.m, w.t.data, z, b);
  }
  const c = w.c;
  const e = w.e;
  c.fill(0);
  e.fill(0);
  for (let r = 0; r < m; r++) {
    for (let j = 0; j < b; j++) {
      c[j]! += u[r * b + j]!;
      e[j]! += g[r]! * u[r * b + j]!;
    }
  }
  for (let j = 0; j < b; j++) e[j] = e[j]! - meanSquare * c[j]!;
  for (let r = 0; r < m; r++) {
    const gr = g[r]!;
    const sr = scale[r]!;
    for (let j = 0; j < b; j++) z[r * b + j] = (z[r * b + j]! - gr * c[j]! - e[j]!) * sr;
  }
}

/** K = Y·Yᵀ (n_v, n_v) of one view as an operator; scratch allocated once per width. */
export function factorKernelOp(f: CentredUnitFactor): SymOp {
  return paddedKernelSumOp(f.rows, [{ factor: f, present: null, weight: 1 }]);
}

/** One view's term of `paddedKernelSumOp`: its factor, present samples and weight. */
export interface PaddedTerm {
  readonly factor: CentredUnitFactor;
  /** (n_v,) sorted 0-based sample indices of the factor's rows; null: the rows are 0..n−1. */
  readonly present: Int32Array | null;
  readonly weight: number;
}

/**
 * The n × n operator Σ_v w_v·G_vᵀ·K_v·G_v (each view's kernel on its present samples, zeros
 * elsewhere), symmetric. Per product of b columns O(Σ_v (nnz_v + n_v + d_v)·b); scratch
 * blocks allocated once per width.
 */
export function paddedKernelSumOp(n: number, terms: readonly PaddedTerm[]): SymOp {
  for (const { factor, present } of terms) {
    const m = present ? present.length : n;
    if (factor.rows !== m) {
      throw new RangeError(`paddedKernelSumOp: a factor has ${factor.rows} rows for ${m} samples`);
    }
  }
  let width = -1;
  let scratch: Work[] = [];
  return {
    n,
    apply(X, Out) {
      const b = X.cols;
      if (X.rows !== n || Out.rows !== n || Out.cols !== b) {
        throw new RangeError(
          `paddedKernelSumOp: operator is ${n}x${n}, X is ${X.rows}x${b}, Out is ` +
            `${Out.rows}x${Out.cols}`,
        );
      }
      if (b !== width) {
        width = b;
        scratch = terms.map(({ factor }) => work(factor, b));
      }
      const x = X.data;
      const out = Out.data;
      out.fill(0);
      terms.forEach(({ factor, present, weight }, v) => {
        const w = scratch[v]!;
        const u = w.u.data;
        const s = factor.scale;
        for (let r = 0; r < factor.rows; r++) {
          const o = (present ? present[r]! : r) * b;
          for (let j = 0; j < b; j++) u[r * b + j] = x[o + j]! * s[r]!;
        }
        kernelProduct(factor, w, b);
        const z = w.z.data;
        for (let r = 0; r < factor.rows; r++) {
          const o = (present ? present[r]! : r) * b;
          for (let j = 0; j < b; j++) out[o + j]! += weight * z[r * b + j]!;
        }
      });
    },
  };
}
