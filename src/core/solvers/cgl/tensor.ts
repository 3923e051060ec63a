/**
 * The T-step of CGL / CGMVC-NC (README.md, "T-step" and "factorisation"), in two forms that
 * compute the same thing:
 *
 * - `FactorisedTensor` (default): from F̄_v (n × c) only. With g_{v,s} the DFT over samples of
 *   F̄_v's columns (row s of rfft(F̄_v), s ≤ ⌊n/2⌋), slice s of the FFT of 𝓑 is
 *   B̂_s = [F̄_1·g_{1,s}, …, F̄_V·g_{V,s}] (n × V); its Gram matrix is the V × V Hermitian
 *   M_s[u, v] = g_{u,s}ᴴ·(F̄_uᵀF̄_v)·g_{v,s} = W·diag(σ²)·Wᴴ, so the shrunk slice is
 *   T̂_s = B̂_s·R_s with R_s = I − W·diag(d/σ)·Wᴴ, d = σ − σ'. The inverse FFT gives
 *   T_v = F̄_v·F̄_vᵀ + ΔP_v·F_catᵀ,  F_cat = [F̄_1 … F̄_V] (n × Vc),
 *   ΔP_v = [ΔP_{1,v} … ΔP_{V,v}] (n × Vc), ΔP_{u,v} = irfft_s(g_{u,s}·(R_s − I)[u, v]).
 *   Per view, ½‖T_v − F̄_vF̄_vᵀ‖² = ½·(1/n)·Σ_s w_s·Σ_i |W_s[v, i]|²·d_i² (Parseval; w_s = 2 for
 *   a slice with a distinct conjugate). Nothing n × n is formed: O(nVc) memory,
 *   O(V²c²·n + V²c·n log n) time.
 * - `denseTensorStep` (tests, n ≤ 1000): materialises 𝓑 (V matrices n × n), FFTs it along the
 *   sample mode, takes each slice's SVD (the n × V complex slice through its real 2n × 2V
 *   embedding [[Re, −Im], [Im, Re]], whose singular values are the slice's, each twice), shrinks,
 *   rebuilds T̂_s and inverts the FFT: T_v as an n × n matrix. O(n²V) memory.
 *
 * Orientation: T_v(i, j) = 𝓣(j, v, i), as the reference reads it back (`shiftdim(·, 2)`).
 */
import { createRealFftPlan, type RealFftPlan } from '../../fft';
import { matmulTA, matmulTB, thinSvd } from '../../linalg/kernels';
import type { Mat } from '../../linalg/types';
import { hermEig, hermWork } from './herm';
import {
  conjugateWeight,
  penaltyWeight,
  shrinkSlice,
  type Shrinkage,
  type SliceShrink,
} from './shrink';

/** What a T-step reports, both forms alike. */
export interface TensorTerms {
  /** (V,) ½‖T_v − F̄_vF̄_vᵀ‖²_F. */
  readonly tensor: Float64Array;
  /** The shrinkage's penalty (CGL: weighted TNN / n; CGMVC-NC: ρ·t-Gamma). */
  penalty: number;
  /** Largest number of singular values kept in a slice. */
  tubalRank: number;
  /** Largest number of t-Gamma fixed-point passes in a slice (0 for CGL). */
  maxPasses: number;
  /** (⌊n/2⌋+1) × V singular values of the slices, row s descending. */
  readonly sigma: Float64Array;
  /** (⌊n/2⌋+1) × V the shrunk values σ'. */
  readonly kept: Float64Array;
}

function newTerms(V: number, m: number): TensorTerms {
  return {
    tensor: new Float64Array(V),
    penalty: 0,
    tubalRank: 0,
    maxPasses: 0,
    sigma: new Float64Array(m * V),
    kept: new Float64Array(m * V),
  };
}

/** The factorised T-step with every buffer allocated once per solve (n samples, V views, c). */
export class FactorisedTensor {
  readonly m: number;
  /** (V,) ΔP_v: (n, V·c); T_v = F̄_vF̄_vᵀ + ΔP_v·F_catᵀ. */
  readonly dP: Mat[];
  readonly terms: TensorTerms;
  private readonly plan: RealFftPlan;
  private readonly gRe: Float64Array[];
  private readonly gIm: Float64Array[];
  private readonly C: Mat;
  private readonly zRe: Mat;
  private readonly zIm: Mat;
  /** m × V × V Gram matrices, then R_s − I, split complex. */
  private readonly mRe: Float64Array;
  private readonly mIm: Float64Array;
  private readonly hRe: Float64Array;
  private readonly hIm: Float64Array;

  constructor(
    readonly n: number,
    readonly V: number,
    readonly c: number,
  ) {
    this.plan = createRealFftPlan(n);
    const m = (this.m = this.plan.bins);
    const w = V * c;
    this.dP = Array.from({ length: V }, () => ({
      rows: n,
      cols: w,
      data: new Float64Array(n * w),
    }));
    this.terms = newTerms(V, m);
    this.gRe = Array.from({ length: V }, () => new Float64Array(m * c));
    this.gIm = Array.from({ length: V }, () => new Float64Array(m * c));
    this.C = { rows: w, cols: c, data: new Float64Array(w * c) };
    this.zRe = { rows: m, cols: w, data: new Float64Array(m * w) };
    this.zIm = { rows: m, cols: w, data: new Float64Array(m * w) };
    this.mRe = new Float64Array(m * V * V);
    this.mIm = new Float64Array(m * V * V);
    this.hRe = new Float64Array(m * c);
    this.hIm = new Float64Array(m * c);
  }

  /**
   * One T-step from F̄_v (n × c each) and F_cat (n × Vc, their concatenation): fills `dP` and
   * `terms`.
   */
  step(Fbar: readonly Mat[], Fcat: Mat, sh: Shrinkage): TensorTerms {
    const { n, V, c, m, plan } = this;
    const w = V * c;
    const t = this.terms;
    // g_{v,s}: the real DFT of F̄_v's columns.
    for (let v = 0; v < V; v++) {
      const F = Fbar[v]!.data;
      const re = this.gRe[v]!;
      const im = this.gIm[v]!;
      for (let j = 0; j < c; j++) plan.forward(F, re, im, j, c, j, c);
    }
    // M_s[u, v] = Σ_a conj(g_{u,s}[a])·(K_uv·g_{v,s})[a], K_uv = F̄_uᵀF̄_v, through
    // Z = G_v·C_vᵀ with C_v = F_catᵀF̄_v (Vc × c): Z[s, u·c + a] = (K_uv·g_{v,s})[a].
    const { mRe, mIm } = this;
    for (let v = 0; v < V; v++) {
      matmulTA(Fcat, Fbar[v]!, this.C);
      matmulTB({ rows: m, cols: c, data: this.gRe[v]! }, this.C, this.zRe);
      matmulTB({ rows: m, cols: c, data: this.gIm[v]! }, this.C, this.zIm);
      const zr = this.zRe.data;
      const zi = this.zIm.data;
      for (let u = 0; u < V; u++) {
        const gr = this.gRe[u]!;
        const gi = this.gIm[u]!;
        for (let s = 0; s < m; s++) {
          let re = 0;
          let im = 0;
          const go = s * c;
          const zo = s * w + u * c;
          for (let a = 0; a < c; a++) {
            const xr = gr[go + a]!;
            const xi = gi[go + a]!;
            const yr = zr[zo + a]!;
            const yi = zi[zo + a]!;
            re += xr * yr + xi * yi;
            im += xr * yi - xi * yr;
          }
          mRe[(s * V + u) * V + v] = re;
          mIm[(s * V + u) * V + v] = im;
        }
      }
    }
    // Per slice: eigen-decomposition, shrinkage, R_s − I (overwrites M_s).
    const hw = hermWork(V);
    const sig = new Float64Array(V);
    const kept = new Float64Array(V);
    const diff = new Float64Array(V);
    const ratio = new Float64Array(V);
    const out: SliceShrink = { rank: 0, penalty: 0, passes: 0 };
    const aRe = new Float64Array(V * V);
    const aIm = new Float64Array(V * V);
    t.tensor.fill(0);
    t.penalty = 0;
    t.tubalRank = 0;
    t.maxPasses = 0;
    for (let s = 0; s < m; s++) {
      const o = s * V * V;
      for (let u = 0; u < V; u++)
        for (let v = 0; v < V; v++) {
          // Hermitian part, exactly Hermitian.
          aRe[u * V + v] = 0.5 * (mRe[o + u * V + v]! + mRe[o + v * V + u]!);
          aIm[u * V + v] = 0.5 * (mIm[o + u * V + v]! - mIm[o + v * V + u]!);
        }
      const e = hermEig(aRe, aIm, hw);
      for (let i = 0; i < V; i++) sig[i] = Math.sqrt(Math.max(e.values[i]!, 0));
      shrinkSlice(sh, sig, V, kept, diff, out);
      const ws = conjugateWeight(s, n);
      t.penalty += penaltyWeight(sh, s, n) * out.penalty;
      t.tubalRank = Math.max(t.tubalRank, out.rank);
      t.maxPasses = Math.max(t.maxPasses, out.passes);
      for (let i = 0; i < V; i++) {
        t.sigma[s * V + i] = sig[i]!;
        t.kept[s * V + i] = kept[i]!;
        ratio[i] = sig[i]! > 0 ? diff[i]! / sig[i]! : 1;
      }
      for (let v = 0; v < V; v++) {
        let acc = 0;
        for (let i = 0; i < V; i++) {
          const wr = e.re[v * V + i]!;
          const wi = e.im[v * V + i]!;
          acc += (wr * wr + wi * wi) * diff[i]! * diff[i]!;
        }
        t.tensor[v]! += (0.5 * ws * acc) / n;
      }
      // (R_s − I)[u, v] = −Σ_i W[u, i]·ratio_i·conj(W[v, i]).
      for (let u = 0; u < V; u++)
        for (let v = 0; v < V; v++) {
          let re = 0;
          let im = 0;
          for (let i = 0; i < V; i++) {
            const ur = e.re[u * V + i]!;
            const ui = e.im[u * V + i]!;
            const vr = e.re[v * V + i]!;
            const vi = e.im[v * V + i]!;
            re += ratio[i]! * (ur * vr + ui * vi);
            im += ratio[i]! * (ui * vr - ur * vi);
          }
          mRe[o + u * V + v] = -re;
          mIm[o + u * V + v] = -im;
        }
    }
    t.penalty /= n;
    // ΔP_{u,v} = irfft over s of g_{u,s}·(R_s − I)[u, v], written into ΔP_v's columns u·c … .
    const { hRe, hIm } = this;
    for (let v = 0; v < V; v++) {
      const P = this.dP[v]!.data;
      for (let u = 0; u < V; u++) {
        const gr = this.gRe[u]!;
        const gi = this.gIm[u]!;
        for (let s = 0; s < m; s++) {
          const rr = mRe[(s * V + u) * V + v]!;
          const ri = mIm[(s * V + u) * V + v]!;
          for (let a = 0; a < c; a++) {
            const xr = gr[s * c + a]!;
            const xi = gi[s * c + a]!;
            hRe[s * c + a] = xr * rr - xi * ri;
            hIm[s * c + a] = xr * ri + xi * rr;
          }
        }
        for (let a = 0; a < c; a++) plan.inverse(hRe, hIm, P, a, c, u * c + a, w);
      }
    }
    return t;
  }

  /** Y (n × b) = T_v·X for X (n × b): F̄_v(F̄_vᵀX) + ΔP_v(F_catᵀX). For tests and checks. */
  applyT(v: number, Fbar: readonly Mat[], Fcat: Mat, X: Mat): Mat {
    const a = matmulTA(Fbar[v]!, X);
    const Y = matmulTB(Fbar[v]!, transposeOf(a));
    const b = matmulTA(Fcat, X);
    const Z = matmulTB(this.dP[v]!, transposeOf(b));
    for (let i = 0; i < Y.data.length; i++) Y.data[i]! += Z.data[i]!;
    return Y;
  }
}

function transposeOf(A: Mat): Mat {
  const out = new Float64Array(A.data.length);
  for (let i = 0; i < A.rows; i++)
    for (let j = 0; j < A.cols; j++) out[j * A.rows + i] = A.data[i * A.cols + j]!;
  return { rows: A.cols, cols: A.rows, data: out };
}

/**
 * The dense T-step (ground truth for tests; n ≤ 1000): returns T_v (n × n each) and the terms.
 * The tensor term is computed from the materialised T_v − F̄_vF̄_vᵀ.
 */
export function denseTensorStep(
  Fbar: readonly Mat[],
  sh: Shrinkage,
): { readonly T: Mat[]; readonly terms: TensorTerms } {
  const V = Fbar.length;
  const n = Fbar[0]!.rows;
  const plan = createRealFftPlan(n);
  const m = plan.bins;
  const terms = newTerms(V, m);
  // 𝓑(j, v, i) = (F̄_vF̄_vᵀ)(i, j): its FFT along i, for each (j, v), is the column DFT of the
  // n × n matrix A_v = F̄_vF̄_vᵀ: B̂_s[j, v] = Σ_i A_v[i, j]·e^{−2πi·is/n}.
  const A = Fbar.map((F) => matmulTB(F, F));
  const bRe = A.map(() => new Float64Array(m * n));
  const bIm = A.map(() => new Float64Array(m * n));
  for (let v = 0; v < V; v++)
    for (let j = 0; j < n; j++) plan.forward(A[v]!.data, bRe[v]!, bIm[v]!, j, n, j, n);
  const tRe = A.map(() => new Float64Array(m * n));
  const tIm = A.map(() => new Float64Array(m * n));
  const E: Mat = { rows: 2 * n, cols: 2 * V, data: new Float64Array(4 * n * V) };
  const r2 = 2 * V;
  const kept = new Float64Array(r2);
  const diff = new Float64Array(r2);
  const out: SliceShrink = { rank: 0, penalty: 0, passes: 0 };
  for (let s = 0; s < m; s++) {
    const e = E.data;
    for (let j = 0; j < n; j++)
      for (let v = 0; v < V; v++) {
        const re = bRe[v]![s * n + j]!;
        const im = bIm[v]![s * n + j]!;
        e[j * r2 + v] = re;
        e[j * r2 + V + v] = -im;
        e[(n + j) * r2 + v] = im;
        e[(n + j) * r2 + V + v] = re;
      }
    const svd = thinSvd(E);
    shrinkSlice(sh, svd.s, r2, kept, diff, out);
    terms.penalty += (penaltyWeight(sh, s, n) * out.penalty) / 2;
    terms.tubalRank = Math.max(terms.tubalRank, Math.round(out.rank / 2));
    terms.maxPasses = Math.max(terms.maxPasses, out.passes);
    for (let i = 0; i < V; i++) {
      terms.sigma[s * V + i] = svd.s[2 * i]!;
      terms.kept[s * V + i] = kept[2 * i]!;
    }
    // T̂ (real embedding) = U·diag(σ')·Vᵀ; its first V columns hold [Re; Im] of T̂_s.
    const U = svd.U.data;
    const W = svd.V.data;
    for (let j = 0; j < n; j++)
      for (let v = 0; v < V; v++) {
        let re = 0;
        let im = 0;
        for (let i = 0; i < r2; i++) {
          const k = kept[i]!;
          if (k === 0) continue;
          re += U[j * r2 + i]! * k * W[v * r2 + i]!;
          im += U[(n + j) * r2 + i]! * k * W[v * r2 + i]!;
        }
        tRe[v]![s * n + j] = re;
        tIm[v]![s * n + j] = im;
      }
  }
  terms.penalty /= n;
  const T = Fbar.map(() => ({ rows: n, cols: n, data: new Float64Array(n * n) }));
  for (let v = 0; v < V; v++) {
    for (let j = 0; j < n; j++) plan.inverse(tRe[v]!, tIm[v]!, T[v]!.data, j, n, j, n);
    let acc = 0;
    const t = T[v]!.data;
    const a = A[v]!.data;
    for (let p = 0; p < n * n; p++) acc += (t[p]! - a[p]!) ** 2;
    terms.tensor[v] = 0.5 * acc;
  }
  return { T, terms };
}
