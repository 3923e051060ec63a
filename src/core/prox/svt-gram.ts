/**
 * Singular-value thresholding prox_{τ‖·‖_*}(B) = U·diag(max(σ − τ, 0))·Vᵀ for a square B (n, n)
 * through the eigendecomposition of the Gram matrix BᵀB = V·diag(σ²)·Vᵀ instead of an SVD: one
 * SYRK (n³ flops), one symmetric eigendecomposition (≈ 4.7n³, mostly GEMM, against ≈ 4n³ + 8n³
 * of the Golub–Kahan SVD), one SYRK for G below (n³) and one GEMM (2n³), into caller-owned
 * buffers. Two forms:
 *
 * - **full rank** (every σ > τ): prox(B) = B − τ·P with P = B·V·diag(1/σ)·Vᵀ the orthogonal
 *   polar factor of B; accepted a priori where the bound below allows, otherwise P is checked
 *   after the fact, so the route needs no bound on κ(B).
 * - **rank r < n**: prox(B) = B·G, G = V·diag(f)·Vᵀ, f_i = max(σ_i − τ, 0)/σ_i, accepted a
 *   priori only (see RATIO).
 *
 * Accuracy, against the SVD's normwise error bound n·ε·σ_max (LAPACK's p(n)·ε·σ_max with the
 * customary p(n) = n). The eigenvalues of BᵀB carry an absolute error of about n·ε·σ_max², so σ_i
 * has an error of n·ε·σ_max²/(2σ_i) and f_i one of τ·n·ε·σ_max²/(2σ_i³); through B·G this moves
 * the result by up to τ·n·ε·σ_max²/(2σ_i²). The a-priori test asks that worst case to be at most
 * RATIO times the SVD's bound, i.e. the smallest kept σ satisfies σ_k² ≥ τ·σ_max/(2·RATIO). It
 * overstates what happens by orders of magnitude on real matrices, so where it fails the
 * full-rank form measures its error instead: P differs
 * from the true polar factor by a symmetric part (‖PᵀP − I‖_F) and a rotation Ω with
 * ‖Ω‖_F ≤ ‖skew(PᵀB)‖_F / σ_min (PᵀB is exactly symmetric for the true factor); the larger of
 * the two, times τ, bounds the extra error of the result, and the form is accepted when that is
 * at most RATIO times the SVD's bound (the check costs one SYRK and one GEMM more). The
 * rank-deficient form has the a-priori test only. Both require that no σ² lie
 * within MARGIN·n·ε·σ_max² of τ² (the kept set is decided without doubt); otherwise the function
 * returns −1 and the caller runs the SVD.
 */
import { matmul, matmulTA, symEig, syrk } from '../linalg/kernels';
import type { Mat } from '../linalg/types';

/** The extra rounding error allowed, as a multiple of the SVD's normwise bound n·ε·σ_max. */
const RATIO = 100;
/** Distance from τ², in units of n·ε·σ_max², below which the kept set is in doubt. */
const MARGIN = 100;

/**
 * Buffers of `svtGramInto` for order n: three (n, n) matrices, reused across calls (the
 * eigendecomposition allocates its own two (n, n) arrays per call: its copy and the vectors).
 */
export interface SvtGramWork {
  readonly W: Mat;
  readonly G: Mat;
  readonly P: Mat;
}

export function svtGramWork(n: number): SvtGramWork {
  const sq = (): Mat => ({ rows: n, cols: n, data: new Float64Array(n * n) });
  return { W: sq(), G: sq(), P: sq() };
}

/**
 * prox_{τ‖·‖_*}(B) into out (n, n; not B's memory), by the Gram route above. Returns the rank
 * (the number of σ > τ), or −1 when the accuracy test sends the call to the SVD (out is then
 * unspecified: the caller overwrites it).
 */
export function svtGramInto(B: Mat, tau: number, out: Mat, w: SvtGramWork): number {
  const n = B.rows;
  syrk(B, w.W);
  const { values, vectors } = symEig(w.W);
  const kept = keptRank(values, tau, n);
  if (kept < 0) return -1;
  if (kept === 0) {
    out.data.fill(0, 0, n * n);
    return 0;
  }
  if (kept === n) {
    // Where the a-priori test passes, the result B − τ·B·V·diag(1/σ)·Vᵀ needs no check; where
    // it fails, the check after the fact decides.
    if (!aPriori(values, tau)) return polarForm(B, tau, out, w, values, vectors) ? n : -1;
    scaledGram(vectors, inverseRoots(values), w.P, w.G);
    matmul(B, w.G, out);
    const o = out.data;
    const b = B.data;
    for (let i = 0; i < n * n; i++) o[i] = b[i]! - tau * o[i]!;
    return n;
  }
  if (!aPriori(values, tau)) return -1;
  // f ≥ 0, so G = (V·diag(√f))·(V·diag(√f))ᵀ; out = B·G.
  const tau2 = tau * tau;
  const rf = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    const l = values[j]!;
    if (l > tau2) {
      const s = Math.sqrt(l);
      rf[j] = Math.sqrt((s - tau) / s);
    }
  }
  scaledGram(vectors, rf, w.P, w.G);
  matmul(B, w.G, out);
  return kept;
}

/**
 * The full-rank form: P = B·V·diag(1/σ)·Vᵀ, checked (see the file comment), out = B − τ·P.
 * Returns false (out unspecified) when the check fails.
 */
function polarForm(
  B: Mat,
  tau: number,
  out: Mat,
  w: SvtGramWork,
  values: Float64Array,
  vectors: Mat,
): boolean {
  const n = B.rows;
  let lmin = Infinity;
  let lmax = 0;
  for (let j = 0; j < n; j++) {
    lmin = Math.min(lmin, values[j]!);
    lmax = Math.max(lmax, values[j]!);
  }
  // G = V·diag(1/σ)·Vᵀ (W, free since the eigensolver copied it, as scratch); P = B·G.
  scaledGram(vectors, inverseRoots(values), w.W, w.G);
  matmul(B, w.G, w.P);
  // The check: ‖PᵀP − I‖_F and ‖skew(PᵀB)‖_F / σ_min, into W.
  const p = w.P.data;
  const g = w.W.data;
  syrk(w.P, w.W);
  let orth = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const d = g[i * n + j]! - (i === j ? 1 : 0);
      orth += d * d;
    }
  }
  matmulTA(w.P, B, w.W);
  let skew = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const d = (g[i * n + j]! - g[j * n + i]!) / 2;
      skew += 2 * d * d;
    }
  }
  const defect = Math.max(Math.sqrt(orth), Math.sqrt(skew / lmin));
  if (!(tau * defect <= RATIO * n * Number.EPSILON * Math.sqrt(lmax))) return false;
  const o = out.data;
  const b = B.data;
  for (let i = 0; i < n * n; i++) o[i] = b[i]! - tau * p[i]!;
  return true;
}

/** σ_j^(−1/2) for the squared singular values sq: the column scales of V in V·diag(1/σ)·Vᵀ. */
function inverseRoots(sq: Float64Array): Float64Array {
  const r = new Float64Array(sq.length);
  for (let j = 0; j < sq.length; j++) r[j] = 1 / Math.sqrt(Math.sqrt(sq[j]!));
  return r;
}

/**
 * G = Y·Yᵀ with Y = V·diag(r) (V n×n): Yᵀ written into scratch, then its SYRK (n³ flops, half
 * a GEMM; G exactly symmetric).
 */
function scaledGram(V: Mat, r: Float64Array, scratch: Mat, G: Mat): void {
  const n = V.rows;
  const v = V.data;
  const yt = scratch.data;
  for (let i = 0; i < n; i++) {
    const o = i * n;
    for (let j = 0; j < n; j++) yt[j * n + i] = v[o + j]! * r[j]!;
  }
  syrk(scratch, G);
}

/**
 * The kept rank for squared singular values sq (any order) of an order-n matrix and threshold
 * τ: the number of σ > τ (0 when B = 0), or −1 when some σ² lies within MARGIN·n·ε·σ_max² of τ².
 */
function keptRank(sq: ArrayLike<number>, tau: number, n: number): number {
  let lmax = 0;
  for (let i = 0; i < sq.length; i++) lmax = Math.max(lmax, sq[i]!);
  if (lmax === 0) return 0;
  const noise = MARGIN * n * Number.EPSILON * lmax;
  const tau2 = tau * tau;
  let rank = 0;
  for (let i = 0; i < sq.length; i++) {
    const l = sq[i]!;
    if (Math.abs(l - tau2) <= noise) return -1;
    if (l > tau2) rank++;
  }
  return rank;
}

/** The a-priori test of the rank-deficient form (file comment). */
function aPriori(sq: ArrayLike<number>, tau: number): boolean {
  let lmax = 0;
  let minKept = Infinity;
  const tau2 = tau * tau;
  for (let i = 0; i < sq.length; i++) {
    lmax = Math.max(lmax, sq[i]!);
    if (sq[i]! > tau2) minKept = Math.min(minKept, sq[i]!);
  }
  return minKept >= (tau * Math.sqrt(lmax)) / (2 * RATIO);
}

/**
 * Whether the Gram route is worth trying on a matrix near one with squared singular values sq
 * (any order, order n) at threshold τ: the kept rank when it would be taken (n: the full-rank
 * form, whose after-the-fact check still decides; 0 when nothing is kept or B = 0), −1 when it
 * would not. Callers that ran an SVD ask it about the next, nearby matrix.
 */
export function gramVerdict(sq: ArrayLike<number>, tau: number, n: number): number {
  const kept = keptRank(sq, tau, n);
  if (kept <= 0 || kept === sq.length) return kept;
  return aPriori(sq, tau) ? kept : -1;
}
