/**
 * IMVC-CBG, the math (Wang et al., CVPR 2022, Eq. 4; specs/imvc-cbg.md): incomplete multi-view
 * clustering through a consensus bipartite (anchor) graph,
 *
 *   min  Σ_v α_v² ‖X_v − W_vᵀ C (Z ∘ mask_v)‖_F² + λ‖Z‖_F²
 *   s.t. Σ_v α_v = 1,  W_v W_vᵀ = I,  C Cᵀ = I,  Z ≥ 0,  Zᵀ1 = 1,
 *
 * in the reference code's form (residual in feature space; α from the unsquared norm).
 *
 * Shapes, in the paper's notation (the code stores W_v transposed, and so do we):
 *   X_v: (d_v, n) data, samples as columns; here views[v].X: (n_v, d_v), rows = present samples
 *   W_v: (ℓ, d_v) projection; here W[v] = W_vᵀ: (d_v, ℓ)        ℓ = latent dimension (default k)
 *   C:   (ℓ, m) consensus anchors, orthonormal rows               m = anchors (default k)
 *   Z:   (m, n) bipartite graph, columns on the simplex; here Zt = Zᵀ: (n, m), one row per sample
 *
 * One iteration (the reference's order; α of the previous iteration in steps 2–3):
 *   1. W-step: P_v = Z_vᵀ Cᵀ (n_v, ℓ), B_v = X_vᵀ P_v (d_v, ℓ), W_v = polar(B_v);
 *      E_v = X_v W_v (n_v, ℓ), the latent coordinates of view v.
 *   2. C-step: G = Σ_v α_v² E_vᵀ Z_vᵀ (ℓ, m), C = polar(G).
 *   3. Z-step: for each sample j, y_j = Σ_{v ∋ j} α_v² E_v[j]·C (m,), c_j = λ + Σ_{v ∋ j} α_v²,
 *      z_j = ProjSimplex(y_j / c_j).
 *   4. α-step: M_v² = ‖X_v‖² − 2⟨E_v, P_v⟩ + ⟨P_vᵀP_v, W_vᵀW_v⟩ with P_v from the new (C, Z)
 *      (= ‖X_v − P_v W_vᵀ‖², never formed); α_v = (1/M_v) / Σ_u (1/M_u) ('norm') or with M_v².
 *   5. objective = Σ_v α_v² M_v² (+ λ‖Z‖²).
 * Polar factors (orthogonal Procrustes) come from the small Gram matrix when well conditioned,
 * else from a thin SVD with LAPACK's convention for a zero matrix (U = I, V = I), which the
 * reference start relies on (linalg/polar.ts).
 *
 * Preprocessing (the reference's findindex/NormalizeData): NaN → 0, each present sample of each
 * view scaled to unit L2 norm (divided by max(1e-12, ‖x‖)). The scaling is kept as a vector
 * s_v (n_v,) and applied to the thin factors (X_v = diag(s_v)·X_raw), so the data is never
 * copied; a dense view with few non-zeros is converted to CSR, so products cost O(nnz·ℓ).
 *
 * Cost per iteration O(Σ_v nnz(X_v)·ℓ + n·m·ℓ), memory O(n·(m + V·ℓ)) beyond the data;
 * nothing n × n; the buffers are allocated once (the d_v × ℓ polar factors excepted).
 */
import type { ViewValues } from '../../dataset';
import type { SolverInput } from '../types';
import { matmul, matmulTA, polar, spmm, spmmTA, symEig, qr } from '../../linalg/kernels';
import { projectSimplexNewtonAt } from '../../linalg/simplex';
import type { Csr, Mat } from '../../linalg/types';
import type { Rng } from '../../random';

/** Dense views whose share of non-zero entries is below this are multiplied as CSR. */
export const SPARSE_DENSITY = 0.25;

/** One view as the solver uses it. */
export interface PreparedView {
  readonly d: number;
  /** (n_v,) sorted sample indices present in the view. */
  readonly present: Int32Array;
  /** (n_v, d) values with non-finite entries set to 0, unscaled. */
  readonly X: ViewValues;
  /** (n_v,) 1 / max(1e-12, ‖x_r‖): the reference's per-sample normalisation. */
  readonly scale: Float64Array;
  /** ‖diag(scale)·X‖_F². */
  readonly sqNorm: number;
  /** Non-finite entries of present samples replaced by 0. */
  readonly nonFinite: number;
  /** True when a dense view was converted to CSR for speed. */
  readonly madeSparse: boolean;
}

/** Counts non-finite entries, and non-zero entries, of a dense block. */
function countEntries(data: Float64Array, len: number): { nonFinite: number; nonZero: number } {
  let nonFinite = 0;
  let nonZero = 0;
  for (let i = 0; i < len; i++) {
    const x = data[i]!;
    if (x !== 0) {
      if (Number.isFinite(x)) nonZero++;
      else nonFinite++;
    }
  }
  return { nonFinite, nonZero };
}

/** Dense (rows, d) → CSR, dropping zeros and non-finite entries. */
function denseToCsr(data: Float64Array, rows: number, d: number, nnz: number): Csr {
  const indptr = new Int32Array(rows + 1);
  const indices = new Int32Array(nnz);
  const values = new Float64Array(nnz);
  let p = 0;
  for (let i = 0; i < rows; i++) {
    const o = i * d;
    for (let j = 0; j < d; j++) {
      const x = data[o + j]!;
      if (x !== 0 && Number.isFinite(x)) {
        indices[p] = j;
        values[p++] = x;
      }
    }
    indptr[i + 1] = p;
  }
  return { rows, cols: d, indptr, indices, data: values };
}

/**
 * The reference's preprocessing of every view (see the file comment). Copies a view only when
 * it must change: non-finite entries to zero, or a sparse dense view to CSR.
 */
export function prepareViews(ds: SolverInput): readonly PreparedView[] {
  const cached = PREPARED.get(ds);
  if (cached) return cached;
  const prepared = ds.views.map((view) => {
    const nv = view.present.length;
    const d = view.d;
    let X: ViewValues = view.values;
    let nonFinite = 0;
    let madeSparse = false;
    if (X.kind === 'dense') {
      const counts = countEntries(X.data, nv * d);
      nonFinite = counts.nonFinite;
      if (counts.nonZero < SPARSE_DENSITY * nv * d) {
        X = { kind: 'csr', ...denseToCsr(X.data, nv, d, counts.nonZero) };
        madeSparse = true;
      } else if (nonFinite > 0) {
        const data = X.data.slice(0, nv * d);
        for (let i = 0; i < data.length; i++) if (!Number.isFinite(data[i]!)) data[i] = 0;
        X = { kind: 'dense', rows: nv, cols: d, data };
      }
    } else {
      const end = X.indptr[nv]!;
      for (let p = 0; p < end; p++) if (!Number.isFinite(X.data[p]!)) nonFinite++;
      if (nonFinite > 0) {
        const data = X.data.slice(0, end);
        for (let p = 0; p < end; p++) if (!Number.isFinite(data[p]!)) data[p] = 0;
        X = { ...X, data };
      }
    }
    const scale = new Float64Array(nv);
    let sqNorm = 0;
    for (let r = 0; r < nv; r++) {
      let ss = 0;
      if (X.kind === 'dense') {
        for (let j = r * d; j < (r + 1) * d; j++) ss += X.data[j]! * X.data[j]!;
      } else {
        for (let p = X.indptr[r]!; p < X.indptr[r + 1]!; p++) ss += X.data[p]! * X.data[p]!;
      }
      const norm = Math.sqrt(ss);
      const s = 1 / Math.max(1e-12, norm);
      scale[r] = s;
      sqNorm += ss * s * s;
    }
    return { d, present: view.present, X, scale, sqNorm, nonFinite, madeSparse };
  });
  PREPARED.set(ds, prepared);
  return prepared;
}

/**
 * Prepared views by dataset: the paper protocol solves the same dataset once per seed, and the
 * preparation (a pass over every value, CSR conversion) is the same each time. Datasets are
 * immutable; the entry goes with the dataset object.
 */
const PREPARED = new WeakMap<SolverInput, readonly PreparedView[]>();

export interface CbgOptions {
  /** Latent dimension ℓ (rows of C and of each W_v). */
  readonly dimension: number;
  /** Number of anchors m ≥ ℓ. */
  readonly anchors: number;
  /** λ ≥ 0; 0 is the Improved version. */
  readonly lambda: number;
  readonly alphaRule: 'norm' | 'squared';
}

/** A start: C (ℓ, m) with orthonormal rows (or 0 for the reference start), Zt (n, m). */
export interface CbgStart {
  readonly C: Mat;
  readonly Zt: Mat;
  /** (V,) weights the first iteration uses; default 1/V each. */
  readonly alpha?: Float64Array;
}

/**
 * The well-posed seeded start (specs/imvc-cbg.md): C = Qᵀ from the thin QR of a Gaussian
 * (m, ℓ) matrix with the signs of R's diagonal moved into Q (Haar-distributed), then Zt (n, m)
 * with rows drawn uniform and scaled to sum to 1. Draw order: C first, then Z, row by row.
 */
export function seededStart(n: number, dimension: number, anchors: number, rng: Rng): CbgStart {
  const l = dimension;
  const m = anchors;
  const G: Mat = { rows: m, cols: l, data: new Float64Array(m * l) };
  for (let i = 0; i < m * l; i++) G.data[i] = rng.normal();
  const { Q, R } = qr(G);
  const C: Mat = { rows: l, cols: m, data: new Float64Array(l * m) };
  for (let c = 0; c < l; c++) {
    const sign = R.data[c * l + c]! < 0 ? -1 : 1;
    for (let i = 0; i < m; i++) C.data[c * m + i] = sign * Q.data[i * l + c]!;
  }
  const Zt: Mat = { rows: n, cols: m, data: new Float64Array(n * m) };
  for (let j = 0; j < n; j++) {
    let s = 0;
    for (let i = 0; i < m; i++) {
      const u = rng.next();
      Zt.data[j * m + i] = u;
      s += u;
    }
    for (let i = 0; i < m; i++) Zt.data[j * m + i]! /= s;
  }
  return { C, Zt };
}

/** The reference's start: C = 0, Z = [I_m 0] (sample i < m on anchor i). Needs n ≥ m. */
export function referenceStart(n: number, dimension: number, anchors: number): CbgStart {
  const m = anchors;
  const Zt: Mat = { rows: n, cols: m, data: new Float64Array(n * m) };
  for (let i = 0; i < m; i++) Zt.data[i * m + i] = 1;
  return { C: { rows: dimension, cols: m, data: new Float64Array(dimension * m) }, Zt };
}

/** Per-view work buffers, allocated once. */
interface ViewWork {
  /** (n_v, ℓ) P_v = Z_vᵀ Cᵀ, then scaled rows for the W-step product. */
  readonly P: Mat;
  /** (n_v, ℓ) diag(s)·P. */
  readonly Ps: Mat;
  /** (n_v, ℓ) E_v = X_v W_v (scaled). */
  readonly E: Mat;
  /** (d_v, ℓ) B_v. */
  readonly B: Mat;
}

/**
 * The solver's state and one iteration at a time. Fields are the current iterate; `iterate()`
 * advances it by one full iteration and returns the objective. Exposed for the exactness tests
 * (a given start, a single step from a stored state).
 */
export class CbgModel {
  readonly n: number;
  readonly V: number;
  readonly dimension: number;
  readonly anchors: number;
  /** (ℓ, m) consensus anchors. */
  readonly C: Mat;
  /** (n, m) Zᵀ: row j is sample j's column of Z. */
  readonly Zt: Mat;
  /** W[v]: (d_v, ℓ), the code's W_v (the paper's W_vᵀ). */
  readonly W: Mat[];
  /** (V,) view weights: after `iterate()`, those of the α-step just done. */
  readonly alpha: Float64Array;
  /** (V,) residual norms M_v of the last α-step. */
  readonly M: Float64Array;
  /** Iterations done. */
  iteration = 0;
  /** Multiply-adds done so far (the solver's measure of elapsed work). */
  work = 0;

  private readonly views: readonly PreparedView[];
  private readonly opts: CbgOptions;
  private readonly work_: ViewWork[];
  /** (n, m) accumulator of the Z-step. */
  private readonly Y: Float64Array;
  /** (n,) divisor of the Z-step. */
  private readonly c1: Float64Array;
  /** (ℓ, m) G of the C-step. */
  private readonly G: Mat;
  /** (ℓ, ℓ) P_vᵀP_v of the α-step (upper triangle). */
  private readonly PP: Float64Array;
  /**
   * True when every P_v holds Z_vᵀCᵀ of the current (C, Z): the α-step leaves it so, and the
   * next W-step starts from the same (C, Z), so it need not form P_v again.
   */
  private projected = false;

  constructor(views: readonly PreparedView[], n: number, opts: CbgOptions, start: CbgStart) {
    const l = opts.dimension;
    const m = opts.anchors;
    this.n = n;
    this.V = views.length;
    this.dimension = l;
    this.anchors = m;
    this.views = views;
    this.opts = opts;
    this.C = { rows: l, cols: m, data: Float64Array.from(start.C.data) };
    this.Zt = { rows: n, cols: m, data: Float64Array.from(start.Zt.data) };
    this.W = views.map((v) => ({ rows: v.d, cols: l, data: new Float64Array(v.d * l) }));
    this.alpha = start.alpha ? Float64Array.from(start.alpha) : new Float64Array(this.V);
    if (!start.alpha) this.alpha.fill(1 / this.V);
    this.M = new Float64Array(this.V);
    this.work_ = views.map((v) => {
      const nv = v.present.length;
      const mk = (r: number): Mat => ({ rows: r, cols: l, data: new Float64Array(r * l) });
      return { P: mk(nv), Ps: mk(nv), E: mk(nv), B: mk(v.d) };
    });
    this.Y = new Float64Array(n * m);
    this.c1 = new Float64Array(n);
    this.G = { rows: l, cols: m, data: new Float64Array(l * m) };
    this.PP = new Float64Array(l * l);
  }

  /** P (n_v, ℓ) = Z_vᵀ Cᵀ: row r is C · z_{present[r]}. */
  private anchorProjection(v: number): void {
    const { present } = this.views[v]!;
    const P = this.work_[v]!.P.data;
    const z = this.Zt.data;
    const c = this.C.data;
    const l = this.dimension;
    const m = this.anchors;
    for (let r = 0; r < present.length; r++) {
      const zo = present[r]! * m;
      for (let a = 0; a < l; a++) {
        const co = a * m;
        let s = 0;
        for (let b = 0; b < m; b++) s += c[co + b]! * z[zo + b]!;
        P[r * l + a] = s;
      }
    }
    this.work += present.length * l * m;
  }

  /** Step 1 for view v: W_v = polar(X_vᵀ P_v), then E_v = X_v W_v. */
  private wStep(v: number): void {
    const view = this.views[v]!;
    const w = this.work_[v]!;
    const l = this.dimension;
    const nv = view.present.length;
    if (!this.projected) this.anchorProjection(v);
    for (let r = 0; r < nv; r++) {
      const s = view.scale[r]!;
      for (let a = 0; a < l; a++) w.Ps.data[r * l + a] = s * w.P.data[r * l + a]!;
    }
    const X = view.X;
    if (X.kind === 'dense') matmulTA(X, w.Ps, w.B);
    else spmmTA(X, w.Ps, w.B);
    const Wv = polar(w.B);
    this.W[v]!.data.set(Wv.data);
    if (X.kind === 'dense') matmul(X, this.W[v]!, w.E);
    else spmm(X, this.W[v]!, w.E);
    for (let r = 0; r < nv; r++) {
      const s = view.scale[r]!;
      for (let a = 0; a < l; a++) w.E.data[r * l + a]! *= s;
    }
    const nnzX = X.kind === 'dense' ? nv * view.d : X.indptr[nv]!;
    this.work += 2 * nnzX * l + view.d * l * l;
  }

  /** Step 2: C = polar(Σ_v α_v² E_vᵀ Z_vᵀ). */
  private cStep(): void {
    const l = this.dimension;
    const m = this.anchors;
    const g = this.G.data;
    g.fill(0);
    const z = this.Zt.data;
    for (let v = 0; v < this.V; v++) {
      const a2 = this.alpha[v]! * this.alpha[v]!;
      const { present } = this.views[v]!;
      const E = this.work_[v]!.E.data;
      for (let r = 0; r < present.length; r++) {
        const zo = present[r]! * m;
        for (let a = 0; a < l; a++) {
          const e = a2 * E[r * l + a]!;
          const go = a * m;
          for (let b = 0; b < m; b++) g[go + b]! += e * z[zo + b]!;
        }
      }
      this.work += present.length * l * m;
    }
    this.C.data.set(polar(this.G).data);
  }

  /** Step 3: every z_j = ProjSimplex(y_j / c_j). */
  private zStep(): void {
    const l = this.dimension;
    const m = this.anchors;
    const Y = this.Y;
    const c1 = this.c1;
    const c = this.C.data;
    Y.fill(0);
    c1.fill(this.opts.lambda);
    for (let v = 0; v < this.V; v++) {
      const a2 = this.alpha[v]! * this.alpha[v]!;
      const { present } = this.views[v]!;
      const E = this.work_[v]!.E.data;
      for (let r = 0; r < present.length; r++) {
        const j = present[r]!;
        c1[j]! += a2;
        const yo = j * m;
        for (let a = 0; a < l; a++) {
          const e = a2 * E[r * l + a]!;
          const co = a * m;
          for (let b = 0; b < m; b++) Y[yo + b]! += e * c[co + b]!;
        }
      }
      this.work += present.length * l * m;
    }
    const z = this.Zt.data;
    for (let j = 0; j < this.n; j++) {
      const yo = j * m;
      const inv = c1[j]!;
      for (let b = 0; b < m; b++) Y[yo + b]! /= inv;
      projectSimplexNewtonAt(Y, yo, m, z, yo);
    }
  }

  /** Step 4: residual norms M_v from small products, then α. */
  private alphaStep(): void {
    const l = this.dimension;
    for (let v = 0; v < this.V; v++) {
      const view = this.views[v]!;
      const w = this.work_[v]!;
      this.anchorProjection(v);
      const P = w.P.data;
      const E = w.E.data;
      const nv = view.present.length;
      let cross = 0;
      for (let i = 0; i < nv * l; i++) cross += E[i]! * P[i]!;
      // ‖P_v W_vᵀ‖² = ⟨PᵀP, WᵀW⟩; WᵀW = I when d_v ≥ ℓ, but compute it (d_v < ℓ is allowed).
      const Wd = this.W[v]!.data;
      const PP = gramUpper(P, nv, l, this.PP);
      let fit = 0;
      for (let a = 0; a < l; a++) {
        for (let b = a; b < l; b++) {
          const pp = PP[a * l + b]!;
          let ww = 0;
          for (let i = 0; i < view.d; i++) ww += Wd[i * l + a]! * Wd[i * l + b]!;
          fit += (a === b ? 1 : 2) * pp * ww;
        }
      }
      this.work += (nv + view.d) * l * l;
      this.M[v] = Math.sqrt(Math.max(0, view.sqNorm - 2 * cross + fit));
    }
    const power = this.opts.alphaRule === 'squared' ? 2 : 1;
    let zeros = 0;
    for (let v = 0; v < this.V; v++) if (this.M[v] === 0) zeros++;
    if (zeros > 0) {
      // A view fitted exactly: 1/M is infinite; the limit gives the exact views equal weight.
      for (let v = 0; v < this.V; v++) this.alpha[v] = this.M[v] === 0 ? 1 / zeros : 0;
      return;
    }
    let total = 0;
    for (let v = 0; v < this.V; v++) total += 1 / this.M[v]! ** power;
    for (let v = 0; v < this.V; v++) this.alpha[v] = 1 / this.M[v]! ** power / total;
  }

  /** Objective of the current iterate with the current α (step 5). */
  objective(): number {
    let obj = 0;
    for (let v = 0; v < this.V; v++) obj += this.alpha[v]! ** 2 * this.M[v]! ** 2;
    if (this.opts.lambda > 0) {
      let zz = 0;
      const z = this.Zt.data;
      for (let i = 0; i < z.length; i++) zz += z[i]! * z[i]!;
      obj += this.opts.lambda * zz;
    }
    return obj;
  }

  /** One full iteration (steps 1–5); returns the objective. */
  iterate(): number {
    for (let v = 0; v < this.V; v++) this.wStep(v);
    this.projected = false;
    this.cStep();
    this.zStep();
    this.alphaStep();
    this.projected = true;
    this.iteration++;
    return this.objective();
  }
}

/**
 * The upper triangle of PᵀP (P: n × l row-major) into out (l × l): out[a·l + b] = Σ_r P[r,a]·P[r,b]
 * for b ≥ a, each summed over r in order from 0 (the bits of the column-by-column loop), row by
 * row so that P is read once, in order.
 */
function gramUpper(P: Float64Array, n: number, l: number, out: Float64Array): Float64Array {
  out.fill(0);
  for (let r = 0; r < n; r++) {
    const o = r * l;
    for (let a = 0; a < l; a++) {
      const pa = P[o + a]!;
      for (let b = a; b < l; b++) out[a * l + b]! += pa * P[o + b]!;
    }
  }
  return out;
}

/** The embedding: the first c left singular vectors of Zᵀ (n, m), from the m × m Gram. */
export interface CbgEmbedding {
  /** (n, c), rows scaled to unit length when asked. */
  readonly F: Mat;
  /** (min(c, m),) the largest singular values of Z, descending. */
  readonly singularValues: Float64Array;
  /** Columns left at zero because their singular value vanished (rank(Z) < c). */
  readonly zeroColumns: number;
}

/**
 * U_c = Zᵀ V_c Σ_c⁻¹ with Z Zᵀ = V Σ² Vᵀ (m × m): the thin SVD of Zᵀ without an n × n matrix,
 * O(n·m²). A singular value below m·ε·σ₁ leaves its column zero (counted in `zeroColumns`).
 * Rows are then scaled to unit length if `normalise` (a zero row stays zero).
 */
export function embedding(Zt: Mat, c: number, normalise: boolean): CbgEmbedding {
  const { rows: n, cols: m } = Zt;
  const gram: Mat = { rows: m, cols: m, data: new Float64Array(m * m) };
  matmulTA(Zt, Zt, gram);
  const { values, vectors } = symEig(gram);
  const r = Math.min(c, m);
  const sv = new Float64Array(r);
  const coef = new Float64Array(m * c); // (m, c): V_c Σ_c⁻¹
  const top = Math.sqrt(Math.max(0, values[m - 1]!));
  let zeroColumns = c - r;
  for (let t = 0; t < r; t++) {
    const lam = Math.max(0, values[m - 1 - t]!);
    const s = Math.sqrt(lam);
    sv[t] = s;
    if (s <= m * 2.220446049250313e-16 * top || s === 0) {
      zeroColumns++;
      continue;
    }
    for (let i = 0; i < m; i++) coef[i * c + t] = vectors.data[i * m + (m - 1 - t)]! / s;
  }
  const F = matmul(Zt, { rows: m, cols: c, data: coef });
  if (normalise) {
    for (let j = 0; j < n; j++) {
      let ss = 0;
      for (let t = 0; t < c; t++) ss += F.data[j * c + t]! ** 2;
      if (ss > 0) {
        const inv = 1 / Math.sqrt(ss);
        for (let t = 0; t < c; t++) F.data[j * c + t]! *= inv;
      }
    }
  }
  return { F, singularValues: sv, zeroColumns };
}
