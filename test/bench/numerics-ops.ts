/**
 * Every call the numerics benchmark (numerics.bench.ts) times, in one place, so that wiring a
 * new kernel in is an edit here only. An entry is the call and the name of the function it runs;
 * `null` means the kernel is not on this branch, and its rows print that (the anchor is still
 * timed). Where the agreed function (names in issue 19) is missing but an older one does the
 * same job, the entry calls the older one and says so in `impl`.
 */
import { kmeans, kmeansSteps } from '../../src/core/cluster/kmeans';
import { gemmBackend, setGemmBackend, type GemmBackend } from '../../src/core/linalg/gemm';
import {
  choleskyFactor,
  choleskySolve,
  ldlFactor,
  ldlSolve,
  luFactor,
  luSolve,
  matmul,
  svd,
  symEig,
  symEigSelect,
} from '../../src/core/linalg/kernels';
import type { Mat } from '../../src/core/linalg/types';
import { createRng } from '../../src/core/random';
import { median } from './util';

/** A timed call and what it runs; `run` returns the summary compared with the anchor's. */
export interface Op<A extends unknown[]> {
  readonly impl: string;
  readonly run: ((...args: A) => Check) | null;
}

/**
 * What a call's result is checked by: values (eigen- or singular values, compared entry by
 * entry with the anchor's) or one number (‖C‖_F, ‖X‖_F, a k-means SSE, with the Lloyd
 * iterations of the winning replicate).
 */
export type Check =
  { readonly values: Float64Array } | { readonly value: number; readonly iterations?: number };

export const K_SELECT = 10;
export const K_MEANS = 10;

const fro = (A: Mat): number => {
  let s = 0;
  for (let i = 0; i < A.data.length; i++) s += A.data[i]! ** 2;
  return Math.sqrt(s);
};

/** C = A·B (n×n), into `C`. */
export const gemmOp: Op<[Mat, Mat, Mat]> = {
  impl: 'matmul',
  run: (A, B, C) => ({ value: fro(matmul(A, B, C)) }),
};

/** All eigenpairs of a symmetric n×n A. */
export const eigOp: Op<[Mat]> = { impl: 'symEig', run: (A) => ({ values: symEig(A).values }) };

/** The K_SELECT highest eigenpairs of a symmetric n×n A. */
export const eigSelectOp: Op<[Mat]> = {
  impl: 'symEigSelect',
  run: (A) => ({ values: symEigSelect(A, K_SELECT, 'highest').values }),
};

/** Thin SVD, singular values descending. */
export const svdOp: Op<[Mat]> = { impl: 'svd', run: (A) => ({ values: svd(A).s }) };

/** X with A·X = B, A symmetric positive definite: Cholesky factor, then solve. */
export const cholOp: Op<[Mat, Mat]> = {
  impl: 'choleskyFactor + choleskySolve',
  run: (A, B) => ({ value: fro(choleskySolve(choleskyFactor(A), B)) }),
};

/** X with A·X = B, A symmetric indefinite: LDLᵀ factor, then solve. */
export const ldlOp: Op<[Mat, Mat]> = {
  impl: 'ldlFactor + ldlSolve',
  run: (A, B) => ({ value: fro(ldlSolve(ldlFactor(A), B)) }),
};

/** X with A·X = B, A general: LU with partial pivoting, then solve. */
export const luOp: Op<[Mat, Mat]> = {
  impl: 'luFactor + luSolve',
  run: (A, B) => ({ value: fro(luSolve(luFactor(A), B)) }),
};

/**
 * One k-means run of at most 20 Lloyd iterations (K_MEANS clusters, k-means++ start, one
 * replicate), each iteration timed: `perIteration` is the median ms of iterations 2…last (the
 * first also carries the seeding), as the anchor's (fit − seeding) / iterations.
 */
export function kmeansIterations(
  X: Mat,
  seed: number,
): { perIteration: number; sse: number; iterations: number } {
  const steps = kmeansSteps(X, K_MEANS, { maxIterations: 20 }, createRng(seed));
  const times: number[] = [];
  let t = performance.now();
  for (;;) {
    const s = steps.next();
    const now = performance.now();
    if (s.done) {
      const later = times.slice(1);
      const perIteration = later.length ? median(later) : Number.NaN;
      return { perIteration, sse: s.value.sse, iterations: s.value.iterations };
    }
    times.push(now - t);
    t = now;
  }
}

/** A whole 20-replicate k-means call (K_MEANS clusters, k-means++ starts, helper threads used). */
export function kmeansReplicates(X: Mat, seed: number): { sse: number; iterations: number } {
  const r = kmeans(X, K_MEANS, { replicates: 20, maxIterations: 100 }, createRng(seed));
  return { sse: r.sse, iterations: r.iterations };
}

/**
 * The GEMM backends: 'fma' (relaxed SIMD) needs MVSTUDIO_RELAXED_SIMD=1 on Node 20 (run.ts sets
 * V8's flag), else it falls back to 'wasm' and the row says so.
 */
export const GEMM_BACKENDS: readonly string[] = ['fma', 'wasm', 'ts'];

/** Asks for a GEMM backend; returns the one now in use, or null when this branch lacks it. */
export function useGemmBackend(name: string): string | null {
  if (!GEMM_BACKENDS.includes(name)) return null;
  return setGemmBackend(name as GemmBackend);
}

export { gemmBackend };
