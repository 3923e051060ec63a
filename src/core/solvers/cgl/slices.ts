/**
 * Steps 3–4 of the factorised T-step (`tensor.ts`), slice by slice: for each Fourier slice s the
 * V × V Hermitian Gram matrix M_s[u, v] = g_{u,s}ᴴ·K_uv·g_{v,s} (K = F_catᵀF_cat), its
 * eigendecomposition M_s = W·diag(σ²)·Wᴴ (`core/linalg/herm.ts`), the shrinkage σ → σ'
 * (`shrink.ts`), the slice's shares of the tensor term and the penalty, and R_s − I =
 * −W·diag(d/σ)·Wᴴ (d = σ − σ') written over M_s. A range of slices is independent of the others,
 * so ranges run on helper threads as the task 'cgl.slices' (`core/tasks.ts`), whose outputs the
 * solver's thread sums in slice order.
 */
import { hermEig, hermWork, type HermWork } from '../../linalg/herm';
import { matmulTB } from '../../linalg/kernels';
import {
  conjugateWeight,
  penaltyWeight,
  shrinkSlice,
  type Shrinkage,
  type SliceShrink,
} from './shrink';

/** Step 4's per-slice outputs for a range of slices, at j = s − first. */
export interface SliceShares {
  /** count × V: the slice's share of ½‖T_v − F̄_vF̄_vᵀ‖² (before the sum over slices). */
  readonly tensor: Float64Array;
  /** count: the slice's share of the penalty (times n). */
  readonly penalty: Float64Array;
  /** count × V: σ and σ'. */
  readonly sigma: Float64Array;
  readonly kept: Float64Array;
}

/** Largest number of singular values kept, and of t-Gamma passes, over a range of slices. */
export interface SliceRangeMax {
  readonly rank: number;
  readonly passes: number;
}
/**
 * Input of the helper task 'cgl.slices' (`core/tasks.ts`): views of the solver's shared arrays
 * for one range of slices, which the task reads (G, K) and fills (M_s then R_s − I, `out`).
 */
export interface SlicesTaskInput {
  readonly n: number;
  readonly V: number;
  readonly c: number;
  readonly sh: Shrinkage;
  /** Index of the range's first slice. */
  readonly first: number;
  /** (V,) rows 2·first … of G_v: the range's spectra ((2·count) × c each). */
  readonly G: readonly Float64Array[];
  /** K = F_catᵀF_cat (w × w). */
  readonly K: Float64Array;
  /** count × V × V, split complex: M_s, then R_s − I. */
  readonly mRe: Float64Array;
  readonly mIm: Float64Array;
  readonly out: SliceShares;
}

/** A helper's scratch for `gramRange`, kept from pass to pass (grown when a range needs more). */
let gramScratch = { Z: new Float64Array(0), Kv: new Float64Array(0) };

/** Steps 3–4 for a range of slices on a helper, in place (see `SlicesTaskInput`). */
export function slicesTask(input: SlicesTaskInput): SliceRangeMax[] {
  const { n, V, c, sh, first, G, K, mRe, mIm, out } = input;
  const count = G[0]!.length / (2 * c);
  const w = V * c;
  if (gramScratch.Z.length < 2 * count * w || gramScratch.Kv.length < w * c) {
    gramScratch = { Z: new Float64Array(2 * count * w), Kv: new Float64Array(w * c) };
  }
  gramRange(V, c, count, G, K, gramScratch.Z, gramScratch.Kv, mRe, mIm);
  return [sliceRange(n, V, sh, first, count, mRe, mIm, out, hermWork(V))];
}

/**
 * Step 3 for `count` slices: M_s[u, v] = Σ_a conj(g_{u,s}[a])·(K_uv·g_{v,s})[a] for u ≤ v, from
 * G_v's rows 2j, 2j + 1 (Re, Im of the range's slice j) at the start of `G[v]`, into
 * [(j·V + u)·V + v] of mRe / mIm. Per view v one GEMM Z_v = G_v·K[0 … (v+1)c, v-block]ᵀ
 * ((2·count) × (v+1)c, in `Z`; `Kv` holds the K block), then the c-term dot products with
 * conj(g_{u,s}).
 */
export function gramRange(
  V: number,
  c: number,
  count: number,
  G: readonly Float64Array[],
  K: Float64Array,
  Z: Float64Array,
  Kv: Float64Array,
  mRe: Float64Array,
  mIm: Float64Array,
): void {
  const w = V * c;
  for (let v = 0; v < V; v++) {
    const rows = (v + 1) * c;
    for (let p = 0; p < rows; p++)
      for (let b = 0; b < c; b++) Kv[p * c + b] = K[p * w + v * c + b]!;
    matmulTB(
      { rows: 2 * count, cols: c, data: G[v]!.subarray(0, 2 * count * c) },
      { rows, cols: c, data: Kv.subarray(0, rows * c) },
      { rows: 2 * count, cols: rows, data: Z.subarray(0, 2 * count * rows) },
    );
    for (let u = 0; u <= v; u++) sliceDots(G[u]!, Z, count, c, rows, u, v, V, mRe, mIm);
  }
}

/**
 * M_s[u, v] = g_{u,s}ᴴ·(Z_v's bin-s entries of block u) for s < count (a function of its own, so
 * V8 optimises this loop once rather than recompiling `gramRange` around it).
 */
function sliceDots(
  g: Float64Array,
  Z: Float64Array,
  count: number,
  c: number,
  rows: number,
  u: number,
  v: number,
  V: number,
  mRe: Float64Array,
  mIm: Float64Array,
): void {
  for (let s = 0; s < count; s++) {
    let re = 0;
    let im = 0;
    const go = 2 * s * c;
    const zr = 2 * s * rows + u * c;
    const zi = zr + rows;
    for (let a = 0; a < c; a++) {
      const xr = g[go + a]!;
      const xi = g[go + c + a]!;
      const yr = Z[zr + a]!;
      const yi = Z[zi + a]!;
      re += xr * yr + xi * yi;
      im += xr * yi - xi * yr;
    }
    mRe[(s * V + u) * V + v] = re;
    mIm[(s * V + u) * V + v] = im;
  }
}

/**
 * Step 4 for slices first … first + count − 1, whose M_s (upper triangle) are at
 * [(j·V + u)·V + v] of mRe / mIm for j = s − first (views of the range): eigendecomposition,
 * shrinkage, each slice's shares of the terms into `out` at j, and R_s − I (both triangles)
 * written over M_s.
 */
export function sliceRange(
  n: number,
  V: number,
  sh: Shrinkage,
  first: number,
  count: number,
  mRe: Float64Array,
  mIm: Float64Array,
  out: SliceShares,
  hw: HermWork,
): SliceRangeMax {
  const sc: SliceScratch = {
    aRe: new Float64Array(V * V),
    aIm: new Float64Array(V * V),
    sig: new Float64Array(V),
    kept: new Float64Array(V),
    diff: new Float64Array(V),
    ratio: new Float64Array(V),
    one: { rank: 0, penalty: 0, passes: 0 },
  };
  let rank = 0;
  let passes = 0;
  // One slice per call: V8 optimises the slice's work once, not the loop around it (see
  // hstep.ts on its small loop functions).
  for (let j = 0; j < count; j++) {
    sliceOne(n, V, sh, first + j, j, mRe, mIm, out, hw, sc);
    rank = Math.max(rank, sc.one.rank);
    passes = Math.max(passes, sc.one.passes);
  }
  return { rank, passes };
}

/** `sliceRange`'s per-slice buffers. */
interface SliceScratch {
  readonly aRe: Float64Array;
  readonly aIm: Float64Array;
  readonly sig: Float64Array;
  readonly kept: Float64Array;
  readonly diff: Float64Array;
  readonly ratio: Float64Array;
  readonly one: SliceShrink;
}

/** Step 4 for slice s (at j = s − first in the range's arrays); its shrink outcome in sc.one. */
function sliceOne(
  n: number,
  V: number,
  sh: Shrinkage,
  s: number,
  j: number,
  mRe: Float64Array,
  mIm: Float64Array,
  out: SliceShares,
  hw: HermWork,
  sc: SliceScratch,
): void {
  const { aRe, aIm, sig, kept, diff, ratio, one } = sc;
  const o = j * V * V;
  for (let u = 0; u < V; u++) {
    aRe[u * V + u] = mRe[o + u * V + u]!;
    aIm[u * V + u] = 0;
    for (let v = u + 1; v < V; v++) {
      const xr = mRe[o + u * V + v]!;
      const xi = mIm[o + u * V + v]!;
      aRe[u * V + v] = xr;
      aIm[u * V + v] = xi;
      aRe[v * V + u] = xr;
      aIm[v * V + u] = -xi;
    }
  }
  const e = hermEig(aRe, aIm, hw);
  for (let i = 0; i < V; i++) sig[i] = Math.sqrt(Math.max(e.values[i]!, 0));
  shrinkSlice(sh, sig, V, kept, diff, one);
  const ws = conjugateWeight(s, n);
  out.penalty[j] = penaltyWeight(sh, s, n) * one.penalty;
  for (let i = 0; i < V; i++) {
    out.sigma[j * V + i] = sig[i]!;
    out.kept[j * V + i] = kept[i]!;
    ratio[i] = sig[i]! > 0 ? diff[i]! / sig[i]! : 1;
  }
  const W = e.re;
  const Wi = e.im;
  for (let v = 0; v < V; v++) {
    let acc = 0;
    for (let i = 0; i < V; i++) {
      const wr = W[v * V + i]!;
      const wi = Wi[v * V + i]!;
      acc += (wr * wr + wi * wi) * diff[i]! * diff[i]!;
    }
    out.tensor[j * V + v] = (0.5 * ws * acc) / n;
  }
  // (R_s − I)[u, v] = −Σ_i W[u, i]·ratio_i·conj(W[v, i]) for u ≤ v; (R_s − I)[v, u] is its
  // conjugate. Written over M_s.
  for (let u = 0; u < V; u++)
    for (let v = u; v < V; v++) {
      let re = 0;
      let im = 0;
      for (let i = 0; i < V; i++) {
        const ur = W[u * V + i]!;
        const ui = Wi[u * V + i]!;
        const vr = W[v * V + i]!;
        const vi = Wi[v * V + i]!;
        re += ratio[i]! * (ur * vr + ui * vi);
        im += ratio[i]! * (ui * vr - ur * vi);
      }
      mRe[o + u * V + v] = -re;
      mIm[o + u * V + v] = u === v ? 0 : -im;
      mRe[o + v * V + u] = -re;
      mIm[o + v * V + u] = u === v ? 0 : im;
    }
}
