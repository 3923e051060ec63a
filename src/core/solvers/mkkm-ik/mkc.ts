/**
 * The mutual kernel completion option (`mkc`) of MKKM-IK-MKC (Liu et al., "Multiple kernel
 * k-means with incomplete kernels", IEEE TPAMI 42(5), 2020), for which no public code exists,
 * so nothing here is checked against a reference run. The form is the one the authors'
 * repository carries as commented-out lines (`myabsentmultikernelclustering.m`: the kernel
 * step's U gains −λ·Σ_{q≠p} γ_q·K_q; `calObjV2.m`: the objective gains
 * λ·Σ_p γ_p·Σ_{q≠p} tr(K_p·(−K_q))): each kernel's missing entries are chosen to agree with the
 * other kernels as well as with the clustering. Per iteration t, with q = 2:
 *
 *   1. H: the top-k eigenvectors of Σ_p γ_p²·K_p;
 *   2. each incomplete kernel imputed as in MKKM-IK (dense.ts) from
 *        U_p = I − HHᵀ − λ·Σ_{q≠p} γ_q·K_q    (the kernels and γ of iteration t − 1),
 *      T = −U_cm·(U_mm + α₀I)⁻¹, K_cm = K_cc·T, K_mm = Tᵀ·K_cc·T: still Qᵀ·K_cc·Q, so every
 *      imputed kernel stays positive semidefinite;
 *   3. γ_p ∝ 1/tr(K_p·(I − HHᵀ)) as MKKM-IK;
 *   4. J = Σ_p γ_p²·tr(K_p·(I − HHᵀ)) − λ·Σ_p γ_p·Σ_{q≠p} tr(K_p·K_q); the stop rule of MKKM-IK.
 * With λ large enough that U_mm + α₀I is not positive definite the step is ill-posed; it is
 * refused, naming λ. Dense n × n kernels: O(V²n² + n³) per iteration.
 */
import { NumericalError } from '../../linalg/errors';
import type { Mat } from '../../linalg/types';
import { SolverInputError } from '../params';
import type { SolverStep } from '../types';
import { combine, denseTop, imputeDense, residualTrace, type DenseStore } from './dense';
import {
  kernelWeights,
  recordIteration,
  type IterationLog,
  type MkkmIkOptions,
  type MkkmIkResult,
} from './mkkm-ik';

export interface MkcOptions extends MkkmIkOptions {
  readonly lambda: number;
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

/** J of the file comment from a_p, M and γ. */
export function mkcObjective(
  a: Float64Array,
  M: Float64Array,
  gamma: Float64Array,
  lambda: number,
): number {
  const V = a.length;
  let J = 0;
  for (let p = 0; p < V; p++) {
    J += gamma[p]! * gamma[p]! * a[p]!;
    for (let q = 0; q < V; q++) if (q !== p) J -= lambda * gamma[p]! * M[p * V + q]!;
  }
  return J;
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
    const previous = store.K.map((K) => ({ rows: K.rows, cols: K.cols, data: K.data.slice() }));
    for (let p = 0; p < V; p++) {
      if (store.views[p]!.missing.length === 0) continue;
      const weights = [...gamma].map((g, q) => (q === p ? 0 : -o.lambda * g));
      try {
        imputeDense(store, p, H, o.alpha0, { weights, matrices: previous });
      } catch (e) {
        if (!(e instanceof NumericalError)) throw e;
        throw new SolverInputError(
          `mkkm-ik: with mkc and lambda = ${o.lambda}, the imputation of view ${p + 1} at ` +
            `iteration ${t} is ill-posed ((I − HHᵀ − λΣγK)_mm + α₀I is not positive definite); ` +
            'lower lambda',
        );
      }
    }
    const a = Float64Array.from(store.K, (K) => residualTrace(K, H!));
    gamma = kernelWeights(a, o.qnorm);
    const J = mkcObjective(a, gram(store), gamma, o.lambda);
    if (yield* recordIteration(log, t, J, gamma, o)) break;
  }
  return { H, gamma, ...log };
}
