/**
 * The mutual kernel completion option (`mkc`): MKKM-IK-MKC of the TPAMI 2020 paper (Liu et al.,
 * "Multiple kernel k-means with incomplete kernels", IEEE TPAMI 42(5)), for which no public code
 * exists, so nothing here is checked against a reference run. Objective over H (HᵀH = I), γ ∈ Δ_V
 * and the kernels K_p (observed block fixed):
 *
 *   J = Σ_p γ_p²·tr(K_p·(I − HHᵀ)) + (λ/2)·Σ_p ‖K_p − Σ_{q≠p} γ_q·K_q‖²_F,
 *
 * each kernel also pulled towards the weighted sum of the others. Block coordinate descent,
 * each step an exact minimiser, so J never increases:
 *   1. H: the top-k eigenvectors of Σ_p γ_p²·K_p;
 *   2. each incomplete kernel in turn (the others at their latest values): setting the gradient
 *      in K_p to zero,
 *        (1 + (V−1)γ_p²)·K_p = Σ_{q≠p} (γ_p + γ_q − (V−2)·γ_p·γ_q)·K_q − (γ_p²/λ)·(I − HHᵀ),
 *      and the entries in a missing sample's row or column take that value (the observed block
 *      stays). The positive semidefinite constraint of MKKM-IK is relaxed here (the imputed
 *      entries are the unconstrained minimiser): the one departure from the paper's constraint
 *      set we know of, stated in the README;
 *   3. γ: min ½γᵀZγ − fᵀγ over Δ_V with M_pq = tr(K_p·K_q), Z = A∘M + (2/λ)·diag(a),
 *      A = (V−2)·11ᵀ + I, f_p = Σ_{q≠p} M_pq and a_p = tr(K_p·(I − HHᵀ)) (prox/simplex-qp.ts);
 *   4. stop as MKKM-IK (t > 2 and |ΔJ|/J < tol, or the cap).
 * Dense n × n kernels (dense.ts): O(V²n² + n³) per iteration.
 */
import { simplexQp } from '../../prox/simplex-qp';
import type { Mat } from '../../linalg/types';
import type { SolverStep } from '../types';
import { combine, denseTop, residualTrace, type DenseStore } from './dense';
import {
  recordIteration,
  symmetrise,
  type IterationLog,
  type MkkmIkOptions,
  type MkkmIkResult,
} from './mkkm-ik';

export interface MkcOptions extends MkkmIkOptions {
  readonly lambda: number;
}

/** Step 2 for kernel p (in place). */
export function mkcKernelStep(
  store: DenseStore,
  p: number,
  H: Mat,
  gamma: Float64Array,
  lambda: number,
): void {
  const { n } = store;
  const V = store.K.length;
  const k = H.cols;
  const gp = gamma[p]!;
  const coef = Float64Array.from(gamma, (gq, q) => (q === p ? 0 : gp + gq - (V - 2) * gp * gq));
  const denom = 1 + (V - 1) * gp * gp;
  const u = (gp * gp) / lambda;
  const missing = new Uint8Array(n);
  for (const i of store.views[p]!.missing) missing[i] = 1;
  const K = store.K[p]!.data;
  const h = H.data;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (!missing[i] && !missing[j]) continue;
      let s = 0;
      for (let q = 0; q < V; q++) if (coef[q] !== 0) s += coef[q]! * store.K[q]!.data[i * n + j]!;
      let hh = 0;
      for (let l = 0; l < k; l++) hh += h[i * k + l]! * h[j * k + l]!;
      K[i * n + j] = (s - u * ((i === j ? 1 : 0) - hh)) / denom;
    }
  }
  symmetrise(K, n);
}

/** M_pq = tr(K_p·K_q) = Σ_ij K_p[i, j]·K_q[i, j] (the kernels are symmetric). */
function gram(store: DenseStore): Float64Array {
  const V = store.K.length;
  const M = new Float64Array(V * V);
  for (let p = 0; p < V; p++) {
    for (let q = p; q < V; q++) {
      const a = store.K[p]!.data;
      const b = store.K[q]!.data;
      let s = 0;
      for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
      M[p * V + q] = s;
      M[q * V + p] = s;
    }
  }
  return M;
}

/** J of the file comment from a, M and γ. */
export function mkcObjective(
  a: Float64Array,
  M: Float64Array,
  gamma: Float64Array,
  lambda: number,
): number {
  const V = a.length;
  let J = 0;
  for (let p = 0; p < V; p++) J += gamma[p]! * gamma[p]! * a[p]!;
  let r = 0;
  for (let p = 0; p < V; p++) {
    // ‖K_p − Σ_{q≠p} γ_q K_q‖² = M_pp − 2Σ_{q≠p} γ_q M_pq + Σ_{q,s≠p} γ_q γ_s M_qs.
    r += M[p * V + p]!;
    for (let q = 0; q < V; q++) {
      if (q === p) continue;
      r -= 2 * gamma[q]! * M[p * V + q]!;
      for (let s = 0; s < V; s++) if (s !== p) r += gamma[q]! * gamma[s]! * M[q * V + s]!;
    }
  }
  return J + (lambda / 2) * r;
}

/** The MKKM-IK-MKC alternation (file comment) on dense kernels. */
export function* mkcLoop(
  store: DenseStore,
  k: number,
  o: MkcOptions,
): Generator<SolverStep, MkkmIkResult, void> {
  const V = store.K.length;
  let gamma: Float64Array = new Float64Array(V).fill(1 / V);
  const log: IterationLog = { objective: [], gammaTrace: [], converged: false };
  let H: Mat | null = null;
  for (let t = 1; ; t++) {
    H = denseTop(
      combine(
        store,
        gamma.map((g) => g * g),
      ),
      k,
    );
    for (let p = 0; p < V; p++) {
      if (store.views[p]!.missing.length > 0) mkcKernelStep(store, p, H, gamma, o.lambda);
    }
    const a = Float64Array.from(store.K, (K) => residualTrace(K, H!));
    const M = gram(store);
    const Z = new Float64Array(V * V);
    const f = new Float64Array(V);
    for (let p = 0; p < V; p++) {
      for (let q = 0; q < V; q++) {
        Z[p * V + q] =
          (p === q ? V - 1 : V - 2) * M[p * V + q]! + (p === q ? (2 / o.lambda) * a[p]! : 0);
        if (q !== p) f[p]! += M[p * V + q]!;
      }
    }
    gamma = simplexQp(Z, f);
    const J = mkcObjective(a, M, gamma, o.lambda);
    if (yield* recordIteration(log, t, J, gamma, o)) break;
  }
  return { H, gamma, ...log };
}
