/**
 * The two singular-value shrinkages of the T-step (README.md, "T-step"), applied per Fourier
 * slice to its singular values σ_1 ≥ … ≥ σ_r:
 *
 * - CGL, weighted tensor nuclear norm (the reference's `prox_wtnn` with weight ρ):
 *     t_i = (σ_i − ε)² − 4(ρ − ε·σ_i);  σ'_i = max(σ_i − ε + √t_i, 0)/2 if t_i > 0, else 0;
 *   penalty of the slice Σ_i σ'_i·ρ/(σ'_i + ε) (≈ ρ × kept count), slices 1 … ⌊n/2⌋+1 counted
 *   once, divided by n.
 * - CGMVC-NC, t-Gamma (seed paper Eq. 17), from ω⁰ = σ, all values of the slice together:
 *     ω^{k+1} = max(σ − ργ(1+γ)/(γ + ω^k)², 0) until max|ω^{k+1} − ω^k| < 1e-10 or 100 passes;
 *   penalty ρ·(1/n)·Σ_i (1+γ)ω_i/(γ + ω_i) over all n slices (conjugate slices counted).
 *
 * Besides σ' each shrinkage returns d_i = σ_i − σ'_i computed without cancellation
 * (CGL: d = 2ρ/(σ + ε + √t); t-Gamma: the last step's ργ(1+γ)/(γ + ω)²), because the tensor
 * term ½‖T − F̄F̄ᵀ‖² of the objective is (1/n)·Σ d_i² (Parseval) and d ≪ σ in practice.
 * ε = 2⁻⁵² (MATLAB's eps), as in the reference.
 */

export const EPS = 2.220446049250313e-16;

export type Shrinkage =
  | { readonly kind: 'wtnn'; readonly rho: number }
  | { readonly kind: 'tgamma'; readonly rho: number; readonly gamma: number };

export interface SliceShrink {
  /** Singular values kept (σ' > 0). */
  rank: number;
  /** The slice's penalty before the 1/n factor and the conjugate weight (see `penaltyWeight`). */
  penalty: number;
  /** Fixed-point passes (t-Gamma; 0 for CGL). */
  passes: number;
}

/**
 * Shrinks sigma[0..r) (descending, ≥ 0) into kept[0..r) and diff[0..r) = σ − σ'. Returns the
 * slice's rank, penalty and passes in `out`.
 */
export function shrinkSlice(
  sh: Shrinkage,
  sigma: Float64Array,
  r: number,
  kept: Float64Array,
  diff: Float64Array,
  out: SliceShrink,
): void {
  let rank = 0;
  let penalty = 0;
  let passes = 0;
  if (sh.kind === 'wtnn') {
    const rho = sh.rho;
    for (let i = 0; i < r; i++) {
      const s = sigma[i]!;
      const t = (s - EPS) * (s - EPS) - 4 * (rho - EPS * s);
      if (t > 0) {
        const rt = Math.sqrt(t);
        const k = Math.max(s - EPS + rt, 0) / 2;
        kept[i] = k;
        diff[i] = k > 0 ? (2 * rho) / (s + EPS + rt) : s;
        if (k > 0) rank++;
        penalty += k * (rho / (k + EPS));
      } else {
        kept[i] = 0;
        diff[i] = s;
      }
    }
  } else {
    const { rho, gamma } = sh;
    const a = rho * gamma * (1 + gamma);
    for (let i = 0; i < r; i++) {
      kept[i] = sigma[i]!;
      diff[i] = 0;
    }
    for (passes = 1; passes <= 100; passes++) {
      let delta = 0;
      for (let i = 0; i < r; i++) {
        const w = kept[i]!;
        const g = gamma + w;
        const step = a / (g * g);
        const next = Math.max(sigma[i]! - step, 0);
        delta = Math.max(delta, Math.abs(next - w));
        kept[i] = next;
        diff[i] = next > 0 ? step : sigma[i]!;
      }
      if (delta < 1e-10) break;
    }
    if (passes > 100) passes = 100;
    for (let i = 0; i < r; i++) {
      const w = kept[i]!;
      if (w > 0) rank++;
      penalty += ((1 + gamma) * w) / (gamma + w);
    }
    penalty *= rho;
  }
  out.rank = rank;
  out.penalty = penalty;
  out.passes = passes;
}

/**
 * How often slice s (0-based, s ≤ ⌊n/2⌋) counts in the penalty: CGL counts each of the
 * ⌊n/2⌋+1 computed slices once (as the reference does); t-Gamma counts all n slices, so a slice
 * with a distinct conjugate counts twice.
 */
export function penaltyWeight(sh: Shrinkage, s: number, n: number): number {
  if (sh.kind === 'wtnn') return 1;
  return conjugateWeight(s, n);
}

/** 1 for the slices equal to their own conjugate (s = 0, and s = n/2 for even n), else 2. */
export function conjugateWeight(s: number, n: number): number {
  return s === 0 || 2 * s === n ? 1 : 2;
}
