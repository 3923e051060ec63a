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
import { ColumnWork, createRealFftPlan, type RealFftPlan } from '../../fft';
import { chunkBounds, float64Array, runChunks, type ThreadPool } from '../../parallel';
import { transposeInto } from '../../linalg/dense';
import { hermWork, type HermWork } from '../../linalg/herm';
import { matmulTA, matmulTB, syrk, thinSvd } from '../../linalg/kernels';
import type { Mat } from '../../linalg/types';
import { penaltyWeight, shrinkSlice, type Shrinkage, type SliceShrink } from './shrink';
import { gramRange, sliceRange, type SliceShares, type SlicesTaskInput } from './slices';

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

function newTerms(V: number, m: number, shared = false): TensorTerms {
  return {
    tensor: new Float64Array(V),
    penalty: 0,
    tubalRank: 0,
    maxPasses: 0,
    sigma: float64Array(m * V, shared),
    kept: float64Array(m * V, shared),
  };
}

/**
 * The factorised T-step with every buffer allocated once per solve (n samples, V views, c).
 *
 * Work per step, m = ⌊n/2⌋ + 1 slices, w = Vc; spectra are stored with the real and the
 * imaginary part of bin s in rows 2s and 2s + 1 of one row-major matrix:
 * 1. g_{v,s}: the real DFT of F̄_v's c columns, all on one panel (`fft` forwardColumns):
 *    Vc transforms of length n, into G_v (2m × c).
 * 2. K = F_catᵀF_cat (w × w, `syrk`): its blocks are K_uv = F̄_uᵀF̄_v.
 * 3. M_s[u, v] = g_{u,s}ᴴ·K_uv·g_{v,s} for u ≤ v only (M_s is Hermitian; its lower triangle is
 *    taken as the conjugate, so M_s is exactly Hermitian): per view v one GEMM
 *    Z_v = G_v·K[0 … (v+1)c, v-block]ᵀ (2m × (v+1)c; Z_v[2s, u·c + a] + i·Z_v[2s+1, u·c + a] =
 *    (K_uv·g_{v,s})[a]), then the c-term dot products with conj(g_{u,s}).
 * 4. Per slice (`slices.ts`): eigendecomposition (`herm.ts`), shrinkage, the tensor term,
 *    R_s − I (upper triangle and its conjugate), written over M_s.
 * 5. ΔP_v = irfft over s of [g_{u,s}·(R_s − I)[u, v]]_u: the w spectra of view v as one
 *    2m × w matrix H, inverted on one panel straight into ΔP_v's rows (inverseColumns):
 *    V²c transforms of length n in all. (V²c is the least: ΔP's V²c columns have spectra
 *    g_{u,s}[a]·(R_s − I)[u, v], independent in general.)
 * A panel transforms all the columns of a view together, so every row of F̄_v, H and ΔP_v is
 * read or written once as a contiguous run, where narrower panels and column-by-column transforms
 * touch each cache line of those rows once per panel.
 * O(nV²c² + V²c·n log n) time. Memory, in values: ΔP (V·n·w), G (≈ n·w), Z (≈ n·w; H shares
 * it), the panels (2n·w; 4n·w for odd n), M (2m·V²).
 */
export class FactorisedTensor {
  readonly m: number;
  /** (V,) ΔP_v: (n, V·c); T_v = F̄_vF̄_vᵀ + ΔP_v·F_catᵀ. */
  readonly dP: Mat[];
  readonly terms: TensorTerms;
  private readonly plan: RealFftPlan;
  /** The FFT panels. */
  private readonly work = new ColumnWork();
  /**
   * Two sets of (V,) G_v (2m × c): Re g_{v,s}[a] = G_v[2s, a], Im g_{v,s}[a] = G_v[2s + 1, a],
   * i.e. bin s at [2s·c + a] (Re) and [2s·c + c + a] (Im). The current set is the last step's
   * (ΔP_v is made from it); the next one is filled for the coming step, by the H-step's threads
   * as each finishes a view (`nextSpectra`, `viewSpectrum`) while others still read the current.
   */
  private readonly G: [Float64Array[], Float64Array[]];
  private cur = 0;
  /** K = F_catᵀF_cat (w × w). */
  private readonly K: Mat;
  /** K[0 … (v+1)c, v-block] for the current v ((v+1)c × c, at most w × c). */
  private readonly Kv: Float64Array;
  /** Z_v (2m × (v+1)c, at most 2m × w). */
  private readonly Z: Float64Array;
  /**
   * m × V × V, split complex: M_s (upper triangle, m[(s·V + u)·V + v] = M_s[u, v]), then
   * R_s − I in its place (both triangles).
   */
  private readonly mRe: Float64Array;
  private readonly mIm: Float64Array;
  private readonly hw: HermWork;
  /** Step 4's per-slice shares of the terms, m × V and m (filled in place, by helpers too). */
  private readonly shares: SliceShares;

  constructor(
    readonly n: number,
    readonly V: number,
    readonly c: number,
    /** Helper threads for step 4 (`core/parallel`); null: all here. */
    private readonly pool: ThreadPool | null = null,
  ) {
    this.plan = createRealFftPlan(n);
    const m = (this.m = this.plan.bins);
    const w = V * c;
    this.dP = Array.from({ length: V }, () => ({
      rows: n,
      cols: w,
      data: new Float64Array(n * w),
    }));
    this.terms = newTerms(V, m, pool !== null);
    const set = (): Float64Array[] =>
      Array.from({ length: V }, () => float64Array(2 * m * c, pool !== null));
    this.G = [set(), set()];
    this.K = { rows: w, cols: w, data: new Float64Array(w * w) };
    this.Kv = new Float64Array(w * c);
    this.Z = new Float64Array(2 * m * w);
    this.mRe = float64Array(m * V * V, pool !== null);
    this.mIm = float64Array(m * V * V, pool !== null);
    this.hw = hermWork(V);
    this.shares = {
      tensor: float64Array(m * V, pool !== null),
      penalty: float64Array(m, pool !== null),
      sigma: this.terms.sigma,
      kept: this.terms.kept,
    };
  }

  /** The current spectra G_v (the last step's). */
  private get current(): Float64Array[] {
    return this.G[this.cur]!;
  }

  /** The next step's G_v, to be filled with `viewSpectrum` (or `forwardView`) before it. */
  nextSpectra(): Float64Array[] {
    return this.G[this.cur ^ 1]!;
  }

  /** Step 1 for view v: the real DFT of F̄_v's columns into the next step's G_v. */
  viewSpectrum(v: number, Fv: Mat): void {
    forwardView(this.plan, this.work, Fv, this.nextSpectra()[v]!);
  }

  /**
   * One T-step from F̄_v (n × c each) and F_cat (n × Vc, their concatenation): fills `terms`
   * and ΔP_v for v < `views` (the solver makes the others when it needs them, `deltaP(v)`, or
   * helper threads from `spectra()`; `completeDeltaP` fills them). With `spectraDone`, step 1
   * was done already, view by view, into `nextSpectra()`.
   */
  step(
    Fbar: readonly Mat[],
    Fcat: Mat,
    sh: Shrinkage,
    views = this.V,
    spectraDone = false,
  ): TensorTerms {
    const { V } = this;
    // 1. g_{v,s}: the real DFT of F̄_v's columns, into the next G_v; it becomes the current.
    if (!spectraDone) for (let v = 0; v < V; v++) this.viewSpectrum(v, Fbar[v]!);
    this.cur ^= 1;
    // 2. K = F_catᵀF_cat.
    syrk(Fcat, this.K);
    // 3.–5.
    this.slices(sh);
    for (let v = 0; v < views; v++) this.deltaP(v);
    return this.terms;
  }

  /**
   * Steps 3–4 for every slice: ranges of slices go to the helper threads when there are enough
   * slices (`SPLIT_SLICES`), the first here; each slice's contributions to the terms are kept
   * per slice and summed here in slice order, so the terms have the same bits either way.
   */
  private slices(sh: Shrinkage): void {
    const { n, V, c, m, mRe, mIm, shares } = this;
    const t = this.terms;
    const pool = this.pool;
    // Helpers write their ranges in place, so only arrays in shared memory are split.
    const split = pool !== null && m >= SPLIT_SLICES && isShared(mRe);
    const bounds = split ? chunkBounds(m, pool.helpers + 1) : [0, m];
    const VV = V * V;
    const range = (p: number): SlicesTaskInput => {
      const s0 = bounds[p]!;
      const s1 = bounds[p + 1]!;
      return {
        n,
        V,
        c,
        sh,
        first: s0,
        G: this.current.map((g) => g.subarray(2 * s0 * c, 2 * s1 * c)),
        K: this.K.data,
        mRe: mRe.subarray(s0 * VV, s1 * VV),
        mIm: mIm.subarray(s0 * VV, s1 * VV),
        out: {
          tensor: shares.tensor.subarray(s0 * V, s1 * V),
          penalty: shares.penalty.subarray(s0, s1),
          sigma: shares.sigma.subarray(s0 * V, s1 * V),
          kept: shares.kept.subarray(s0 * V, s1 * V),
        },
      };
    };
    const parts = runChunks(pool, bounds.length - 1, 'cgl.slices', range, () => {
      const r = range(0);
      gramRange(V, c, bounds[1]!, r.G, r.K, this.Z, this.Kv, r.mRe, r.mIm);
      return [sliceRange(n, V, sh, 0, bounds[1]!, r.mRe, r.mIm, r.out, this.hw)];
    });
    // The shares summed in slice order: the same bits however the slices were split.
    t.tensor.fill(0);
    t.penalty = 0;
    for (let s = 0; s < m; s++) {
      t.penalty += shares.penalty[s]!;
      for (let v = 0; v < V; v++) t.tensor[v]! += shares.tensor[s * V + v]!;
    }
    t.penalty /= n;
    t.tubalRank = Math.max(...parts.map((r) => r.rank));
    t.maxPasses = Math.max(...parts.map((r) => r.passes));
  }

  /** ΔP_v (step 5) from this step's spectra (`deltaPInto`); returns it. */
  deltaP(v: number): Mat {
    deltaPInto(v, this.V, this.c, this.plan, this.spectra(), this.Z, this.work, this.dP[v]!.data);
    return this.dP[v]!;
  }

  /** The spectra ΔP_v is made of: G_v (2m × c each) and R_s − I (m × V × V, split complex). */
  spectra(): DeltaPSpectra {
    return { G: this.current, mRe: this.mRe, mIm: this.mIm };
  }

  /** Fills every ΔP_v from the last `step` (which left them to the next H-step). */
  completeDeltaP(): void {
    for (let v = 0; v < this.V; v++) this.deltaP(v);
  }

  /** Y (n × b) = T_v·X for X (n × b): F̄_v(F̄_vᵀX) + ΔP_v(F_catᵀX). For tests and checks. */
  applyT(v: number, Fbar: readonly Mat[], Fcat: Mat, X: Mat): Mat {
    const a = matmulTA(Fbar[v]!, X);
    const Y = matmulTB(Fbar[v]!, transposeInto(a));
    const b = matmulTA(Fcat, X);
    const Z = matmulTB(this.dP[v]!, transposeInto(b));
    for (let i = 0; i < Y.data.length; i++) Y.data[i]! += Z.data[i]!;
    return Y;
  }
}

/** Fewest slices worth splitting step 4 over helper threads (one round trip each per pass). */
const SPLIT_SLICES = 256;

const isShared = (a: Float64Array): boolean =>
  typeof SharedArrayBuffer === 'function' && a.buffer instanceof SharedArrayBuffer;

/** What ΔP_v is made of (`FactorisedTensor.spectra`): plain arrays, for a helper thread too. */
export interface DeltaPSpectra {
  /** (V,) G_u (2m × c): Re g_{u,s}[a] at [2s·c + a], Im at [(2s + 1)·c + a]. */
  readonly G: readonly Float64Array[];
  /** m × V × V: (R_s − I)[u, v] at [(s·V + u)·V + v], both triangles. */
  readonly mRe: Float64Array;
  readonly mIm: Float64Array;
}

/**
 * Step 1 for one view: g_{v,s}, the real DFT of F̄_v's c columns (all on one panel), into G_v
 * (2m × c: bin s's real parts in row 2s, its imaginary parts in row 2s + 1).
 */
export function forwardView(plan: RealFftPlan, work: ColumnWork, Fv: Mat, G: Float64Array): void {
  const c = Fv.cols;
  plan.forwardColumns(c, Fv.data, 0, c, G, G.subarray(c), 0, 2 * c, work);
}

/**
 * ΔP_{u,v} = irfft over s of g_{u,s}·(R_s − I)[u, v] (step 5): view v's w = Vc spectra as one
 * 2m × w matrix H (row 2s: Re, row 2s + 1: Im of bin s; column u·c + a; in `h`, 2m·w values),
 * inverted on one panel straight into `out`, ΔP_v's n × w rows.
 */
export function deltaPInto(
  v: number,
  V: number,
  c: number,
  plan: RealFftPlan,
  sp: DeltaPSpectra,
  h: Float64Array,
  work: ColumnWork,
  out: Float64Array,
): void {
  const { G, mRe, mIm } = sp;
  const m = plan.bins;
  const w = V * c;
  for (let s = 0; s < m; s++) {
    const ro = s * V * V + v;
    const ho = 2 * s * w;
    const go = 2 * s * c;
    for (let u = 0; u < V; u++) {
      const rr = mRe[ro + u * V]!;
      const ri = mIm[ro + u * V]!;
      const g = G[u]!;
      const hu = ho + u * c;
      for (let a = 0; a < c; a++) {
        const xr = g[go + a]!;
        const xi = g[go + c + a]!;
        h[hu + a] = xr * rr - xi * ri;
        h[hu + w + a] = xr * ri + xi * rr;
      }
    }
  }
  plan.inverseColumns(w, h, h.subarray(w), 0, 2 * w, out, 0, w, work);
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
