/**
 * Singular-value thresholding prox_{τ‖·‖_*}(B) = U·diag(max(σ − τ, 0))·Vᵀ for a square B (n, n)
 * through the eigendecomposition of the Gram matrix BᵀB = V·diag(σ²)·Vᵀ instead of an SVD:
 *
 *   prox(B) = B·G,   G = V·diag(f)·Vᵀ,   f_i = max(σ_i − τ, 0) / σ_i,
 *
 * one SYRK (n³ flops), one symmetric eigendecomposition (≈ 4.7n³, mostly GEMM, against ≈ 4n³ +
 * 8n³ of the Golub–Kahan SVD) and two GEMMs (4n³), into caller-owned buffers.
 *
 * Accuracy. The eigenvalues of BᵀB carry an absolute error of about n·ε·σ_max², so σ_i has an
 * error of n·ε·σ_max²/(2σ_i) and f_i one of τ·n·ε·σ_max²/(2σ_i³); through B·G this moves the
 * result by τ·n·ε·σ_max²/(2σ_i²), against the ε·σ_max an SVD's recomposition already makes.
 * The route is therefore taken only when the smallest kept σ satisfies
 * σ_k² ≥ τ·n·σ_max / (2·RATIO) (the extra error at most RATIO times the SVD's) and no σ² lies
 * within MARGIN·n·ε·σ_max² of τ² (the kept set is decided without doubt); otherwise the
 * function returns −1 and the caller runs the SVD.
 */
import { matmul, matmulTB, symEig, syrk } from '../linalg/kernels';
import type { Mat } from '../linalg/types';

/** The extra rounding error allowed, as a multiple of the SVD route's own. */
const RATIO = 100;
/** Distance from τ², in units of n·ε·σ_max², below which the kept set is in doubt. */
const MARGIN = 100;

/**
 * Buffers of `svtGramInto` for order n: two (n, n) matrices, reused across calls (the
 * eigendecomposition allocates its own two (n, n) arrays per call: its copy and the vectors).
 */
export interface SvtGramWork {
  readonly W: Mat;
  readonly G: Mat;
}

export function svtGramWork(n: number): SvtGramWork {
  const sq = (): Mat => ({ rows: n, cols: n, data: new Float64Array(n * n) });
  return { W: sq(), G: sq() };
}

/**
 * prox_{τ‖·‖_*}(B) into out (n, n; not B's memory), by the Gram route above. Returns the rank
 * (the number of σ > τ), or −1 (out untouched) when the accuracy guard sends the call to the SVD.
 */
export function svtGramInto(B: Mat, tau: number, out: Mat, w: SvtGramWork): number {
  const n = B.rows;
  syrk(B, w.W);
  const { values, vectors } = symEig(w.W);
  const verdict = gramVerdict(values, tau, n);
  if (verdict < 0) return -1;
  if (verdict === 0) {
    out.data.fill(0, 0, n * n);
    return 0;
  }
  const rank = verdict;
  const tau2 = tau * tau;
  // f ≥ 0, so G = (V·diag(√f))·(V·diag(√f))ᵀ, scaled in the eigenvectors' own memory; out = B·G.
  const v = vectors.data;
  const rf = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    const l = values[j]!;
    if (l > tau2) {
      const s = Math.sqrt(l);
      rf[j] = Math.sqrt((s - tau) / s);
    }
  }
  for (let i = 0; i < n; i++) {
    const o = i * n;
    for (let j = 0; j < n; j++) v[o + j]! *= rf[j]!;
  }
  matmulTB(vectors, vectors, w.G);
  matmul(B, w.G, out);
  return rank;
}

/**
 * The accuracy guard of the Gram route for squared singular values sq (any order) of an order-n
 * matrix and threshold τ: the kept rank when the route is accurate (0 when nothing is kept or
 * B = 0), −1 when it is not (see the file comment). Callers that ran an SVD can ask it whether
 * the next, nearby matrix is worth trying by the Gram route.
 */
export function gramVerdict(sq: ArrayLike<number>, tau: number, n: number): number {
  let lmax = 0;
  for (let i = 0; i < sq.length; i++) lmax = Math.max(lmax, sq[i]!);
  if (lmax === 0) return 0;
  const noise = MARGIN * n * Number.EPSILON * lmax;
  const tau2 = tau * tau;
  let rank = 0;
  let minKept = Infinity;
  for (let i = 0; i < sq.length; i++) {
    const l = sq[i]!;
    if (Math.abs(l - tau2) <= noise) return -1;
    if (l > tau2) {
      rank++;
      minKept = Math.min(minKept, l);
    }
  }
  if (rank > 0 && minKept < (tau * n * Math.sqrt(lmax)) / (2 * RATIO)) return -1;
  return rank;
}
