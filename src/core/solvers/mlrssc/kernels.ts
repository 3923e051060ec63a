/**
 * The kernels of MLRSSC's views as `construct_kernel.m` forms them (linear, polynomial, or
 * Gaussian with `opt_sigma.m`'s median width), one view at a time. The views are independent:
 * with helper threads installed (`core/parallel`) and Gaussian kernels of at least
 * KERNELS_THREADS_FROM_N samples, the threads claim them from a shared counter, the widest
 * first; each kernel is the same bits whichever thread forms it.
 */
import { linearKernel, polynomialKernel, sparseGram } from '../../kernels/gram';
import {
  gaussianFromDistances,
  optSigma,
  referenceSquaredDistances,
} from '../../kernels/reference';
import type { Mat } from '../../linalg/types';
import { claimAll, claimEach, type ClaimInput } from '../../parallel';
import { denseValues } from '../complete';
import { SolverInputError } from '../params';
import type { SolverInput } from '../types';

export type KernelKind = 'linear' | 'gaussian' | 'polynomial';

/** The kernel settings of a run (the linear variants: always 'linear'). */
export interface KernelChoice {
  readonly kernel: KernelKind;
  readonly sigma: readonly number[] | null;
  readonly sigmaScale: number;
  readonly degree: number;
}

export interface Kernels {
  readonly K: Mat[];
  readonly sigma: number[] | null;
  readonly optSigma: number[] | null;
}

/** One view's kernel; a Gaussian's width σ and the median distance, or null. */
interface ViewKernel {
  readonly K: Mat | null;
  readonly sigma: number;
  readonly opt: number;
}

/** Input of the helper task 'mlrssc.kernels' (`core/tasks.ts`). */
export interface KernelsTaskInput extends ClaimInput {
  readonly views: readonly Mat[];
  readonly choice: KernelChoice;
}

/**
 * The kernel of each view this thread claims: [view, kernel] pairs. A Gaussian whose width is
 * unusable comes back with K = null (the caller says why).
 */
export function kernelsTask(input: KernelsTaskInput): [number, ViewKernel][] {
  const k = input.choice;
  return claimEach(input, (v): ViewKernel => {
    const x = input.views[v]!;
    if (k.kernel === 'linear') return { K: sparseGram(x) ?? linearKernel(x), sigma: NaN, opt: NaN };
    if (k.kernel === 'polynomial') {
      return { K: polynomialKernel(x, undefined, k.degree, 1, 0), sigma: NaN, opt: NaN };
    }
    const D = referenceSquaredDistances(x);
    const opt = optSigma(D);
    const sigma = k.sigma ? k.sigma[v]! : k.sigmaScale * opt;
    if (!(sigma > 0) || !Number.isFinite(1 / (2 * sigma * sigma))) return { K: null, sigma, opt };
    return { K: gaussianFromDistances(D, sigma), sigma, opt };
  });
}

/**
 * From this many samples a Gaussian kernel's elementwise work (distances, median, exponentials:
 * O(n²) each) repays a helper's copy of the views and its GEMM workspace; the linear and
 * polynomial kernels are one product each and stay on this thread.
 */
export const KERNELS_THREADS_FROM_N = 512;

/** Each view's kernel, as construct_kernel.m forms it. */
export function buildKernels(method: string, ds: SolverInput, k: KernelChoice): Kernels {
  const { n } = ds;
  const views = ds.views.map((v) => denseValues(v, n));
  const out = claimAll(
    'mlrssc.kernels',
    views.map((X) => X.cols),
    { views, choice: k },
    kernelsTask,
    k.kernel === 'gaussian' && n >= KERNELS_THREADS_FROM_N,
  );
  const K = out.map((r, v) => {
    if (r.K) return r.K;
    throw new SolverInputError(
      `${method}: view '${ds.views[v]!.name}': the Gaussian width σ = ${r.sigma} is unusable` +
        (k.sigma ? '' : ' (the median of its n² distances is 0: most samples coincide)') +
        "; give widths with parameter 'sigma'",
    );
  });
  if (k.kernel !== 'gaussian') return { K, sigma: null, optSigma: null };
  return { K, sigma: out.map((r) => r.sigma), optSigma: out.map((r) => r.opt) };
}
