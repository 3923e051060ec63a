/**
 * The reference path of the MLRSSC iteration (mlrssc.ts has the model and the update order):
 * K + 3μI factorised by Cholesky in every iteration, the singular-value threshold by a full
 * Golub–Kahan SVD, the pairwise sum over the other views' C2 from a copy of every C2. Kept,
 * unchanged in its arithmetic, as the oracle of the fast path's tests (`path: 'dense'`).
 * Memory: 7V + 3 + V (the per-iteration C2 copies, pairwise) (n, n) arrays besides K.
 */
import { choleskyFactor, choleskySolve, matmulTB, svdTop } from '../../linalg/kernels';
import type { Mat } from '../../linalg/types';
import type { MlrsscIteration, MlrsscOptions, MlrsscResult } from './mlrssc';

/** Applies (K + 3μI)⁻¹ to B, into out. */
type Inverse = (v: number, mu: number, B: Mat, out: Mat) => void;

function denseInverse(K: readonly Mat[], n: number): Inverse {
  const M: Mat = { rows: n, cols: n, data: new Float64Array(n * n) };
  return (v, mu, B, out) => {
    M.data.set(K[v]!.data.subarray(0, n * n));
    for (let i = 0; i < n; i++) M.data[i * n + i]! += 3 * mu;
    choleskySolve(choleskyFactor(M), B, out);
  };
}

/**
 * prox of τ‖·‖_* into out: Golub–Kahan SVD (divide and conquer, linalg/svd-gk.ts) with the
 * singular vectors formed for the kept r pairs only (`svdTop`: the same bits as the full SVD's
 * first r columns), shrink, recompose (one (n, r)·(r, n) GEMM). Returns r; sOut, when given,
 * receives the singular values.
 */
export function svtInto(B: Mat, tau: number, out: Mat, sOut?: Float64Array): number {
  const { U, s, V } = svdTop(B, (sv) => {
    let k = 0;
    while (k < sv.length && sv[k]! > tau) k++;
    return k;
  });
  sOut?.set(s);
  const r = U.cols;
  if (r === 0) {
    out.data.fill(0, 0, B.rows * B.cols);
    return 0;
  }
  const u = U.data;
  for (let i = 0; i < U.rows; i++)
    for (let j = 0; j < r; j++) u[i * r + j] = u[i * r + j]! * (s[j]! - tau);
  matmulTB(U, V, out);
  return r;
}

const square = (n: number): Mat => ({ rows: n, cols: n, data: new Float64Array(n * n) });

/** One view's iterates C1, C2, C3 and multipliers Λ2, Λ3, Λ4 (n² each). */
export interface ViewIterates {
  readonly c1: Float64Array;
  readonly c2: Float64Array;
  readonly c3: Float64Array;
  readonly l2: Float64Array;
  readonly l3: Float64Array;
  readonly l4: Float64Array;
}

/**
 * The end of a view's iteration, as the reference: Λ2 += μ(A − C2), Λ3 += μ(A − C1),
 * Λ4 += μ(A − C3), and res (the iteration's four residuals, maxima over views) raised to this
 * view's max|A − C1|, max|A − C2|, max|A − C3|, max|A − A_prev| (the last left to the caller
 * when aPrev is null).
 */
export function multiplierStep(
  a: Float64Array,
  aPrev: Float64Array | null,
  { c1, c2, c3, l2, l3, l4 }: ViewIterates,
  mu: number,
  res: number[],
): void {
  let r1 = 0;
  let r2 = 0;
  let r3 = 0;
  let r4 = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const d1 = x - c1[i]!;
    const d2 = x - c2[i]!;
    const d3 = x - c3[i]!;
    l2[i]! += mu * d2;
    l3[i]! += mu * d1;
    l4[i]! += mu * d3;
    r1 = Math.max(r1, Math.abs(d1));
    r2 = Math.max(r2, Math.abs(d2));
    r3 = Math.max(r3, Math.abs(d3));
    if (aPrev) r4 = Math.max(r4, Math.abs(x - aPrev[i]!));
  }
  res[0] = Math.max(res[0]!, r1);
  res[1] = Math.max(res[1]!, r2);
  res[2] = Math.max(res[2]!, r3);
  res[3] = Math.max(res[3]!, r4);
}

/** MLRSSC on the kernels K (all n × n) by the reference arithmetic (see the file comment), a step per iteration. */
export function* mlrsscDense(
  K: readonly Mat[],
  o: MlrsscOptions,
): Generator<MlrsscIteration, MlrsscResult, void> {
  const V = K.length;
  const n = K[0]!.rows;
  const nn = n * n;
  const inverse = denseInverse(K, n);
  const A = K.map(() => square(n));
  const C1 = K.map(() => square(n));
  const C2 = K.map(() => square(n));
  const C3 = K.map(() => square(n));
  const L2 = K.map(() => square(n));
  const L3 = K.map(() => square(n));
  const L4 = K.map(() => square(n));
  const Cstar = square(n);
  const Csum = square(n);
  const B = square(n);
  const Aprev = new Float64Array(nn);
  const rankC1 = new Array<number>(V).fill(0);
  const muTrace: number[] = [];
  const residuals: [number, number, number, number][] = [];
  let mu = o.mu0;
  let converged = false;
  let t = 0;
  const { lambda1, lambda2, lambda3 } = o;
  while (t < o.iterations) {
    t++;
    muTrace.push(mu);
    const res: [number, number, number, number] = [0, 0, 0, 0];
    const allC2 = o.variant === 'pairwise' ? C2.map((c) => c.data.slice(0, nn)) : [];
    for (let v = 0; v < V; v++) {
      const a = A[v]!.data;
      const c1 = C1[v]!.data;
      const c2 = C2[v]!.data;
      const c3 = C3[v]!.data;
      const l2 = L2[v]!.data;
      const l3 = L3[v]!.data;
      const l4 = L4[v]!.data;
      const k = K[v]!.data;
      Aprev.set(a.subarray(0, nn));
      const b = B.data;
      for (let i = 0; i < nn; i++) {
        b[i] = k[i]! + mu * c2[i]! - l2[i]! + mu * c1[i]! - l3[i]! + mu * c3[i]! - l4[i]!;
      }
      inverse(v, mu, B, A[v]!);
      // C2 = soft(A + Λ2/μ, λ2/μ), zero diagonal.
      const s2 = lambda2 / mu;
      for (let i = 0; i < nn; i++) {
        const x = a[i]! + l2[i]! / mu;
        c2[i] = x > s2 ? x - s2 : x < -s2 ? x + s2 : 0;
      }
      for (let i = 0; i < n; i++) c2[i * n + i] = 0;
      // C1 = SVT(A + Λ3/μ, λ1/μ).
      for (let i = 0; i < nn; i++) b[i] = a[i]! + l3[i]! / mu;
      rankC1[v] = svtInto(B, lambda1 / mu, C1[v]!);
      // C3: the agreement with the other views (pairwise) or with the centroid.
      if (o.variant === 'pairwise') {
        const cs = Csum.data;
        cs.fill(0);
        for (let w = 0; w < V; w++) {
          if (w === v) continue;
          const cw = allC2[w]!;
          for (let i = 0; i < nn; i++) cs[i]! += cw[i]!;
        }
        const den = 2 * lambda3 * (V - 1) + mu;
        for (let i = 0; i < nn; i++) c3[i] = (2 * lambda3 * cs[i]! + mu * a[i]! + l4[i]!) / den;
      } else {
        const cs = Cstar.data;
        const den = 2 * lambda3 + mu;
        for (let i = 0; i < nn; i++) c3[i] = (2 * lambda3 * cs[i]! + mu * a[i]! + l4[i]!) / den;
      }
      multiplierStep(a, Aprev, { c1, c2, c3, l2, l3, l4 }, mu, res);
    }
    if (o.variant === 'centroid') {
      // C* = (C* + λ3 Σ_v C2_v) / (V λ3): the reference adds the previous centroid; kept.
      const cs = Cstar.data;
      for (let i = 0; i < nn; i++) {
        let s = 0;
        for (let v = 0; v < V; v++) s += C2[v]!.data[i]!;
        cs[i] = (cs[i]! + lambda3 * s) / (V * lambda3);
      }
    }
    residuals.push(res);
    yield { iteration: t, mu, residuals: res };
    mu = Math.min(mu * o.rho, o.maxMu);
    if (res.every((r) => r <= o.tolerance)) {
      converged = true;
      break;
    }
  }
  let C: Mat;
  if (o.variant === 'centroid') C = Cstar;
  else {
    C = square(n);
    for (let v = 0; v < V; v++) {
      const c2 = C2[v]!.data;
      for (let i = 0; i < nn; i++) C.data[i]! += c2[i]! / V;
    }
  }
  return { C, C2, rankC1, mu: muTrace, residuals, iterations: t, converged, svdFallbacks: V * t };
}
