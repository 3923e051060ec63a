/**
 * MKKM-IK (multiple kernel k-means with incomplete kernels) as a registered solver: the
 * declaration, the checks and the run (`mkkm-ik.ts` holds the math and the operator path,
 * `dense.ts` the reference's dense arithmetic, `mkc.ts` the mutual kernel completion option).
 * It declares `input: 'incomplete'`: it applies the common input layer of the incomplete-view
 * baselines itself (unit-L2 samples; views/incomplete-input.ts), then builds each view's kernel
 * on its observed samples only. The embedding is H with unit rows. See README.md.
 */
import type { Rng } from '../../random';
import { incompleteInput } from '../../views/incomplete-input';
import { SolverInputError } from '../params';
import {
  defineSolver,
  type ParamsOf,
  type ProblemShape,
  type SolverInput,
  type SolverOutput,
  type SolverStep,
} from '../types';
import { denseEngine, denseStore } from './dense';
import { mkcLoop } from './mkc';
import {
  mkkmIkLoop,
  normaliseRows,
  observedKernel,
  operatorEngine,
  type MkkmIkResult,
  type ObservedKernel,
} from './mkkm-ik';
import { MAX_DENSE_N, MAX_N, mkkmIkSchema, type MkkmIkParams } from './params';

export { MAX_DENSE_N, MAX_N, mkkmIkSchema, type MkkmIkParams } from './params';

const GiB = 2 ** 30;
const gib = (bytes: number): string => `${(bytes / GiB).toFixed(2)} GiB`;

/** Refuses what the method cannot run, naming the view or parameter and the limit. */
function check(ds: SolverInput, p: MkkmIkParams, k: number): void {
  const fail = (message: string): never => {
    throw new SolverInputError(`mkkm-ik: ${message}`);
  };
  const { n } = ds;
  if (ds.views.length === 0) fail('the dataset has no views');
  const shape = problemShape(ds, k);
  const dense = p.path === 'dense' || p.mkc;
  if (n > MAX_N || (dense && n > MAX_DENSE_N)) {
    const limit = dense ? MAX_DENSE_N : MAX_N;
    fail(
      `n = ${n} samples is above the limit of ${limit} for ${dense ? "path 'dense' / mkc" : 'the method'}: ` +
        `it holds ${dense ? 'dense n × n kernels' : 'each view’s n_v × n_v kernel'}, about ` +
        `${gib(footprintBytes(shape, p))} here`,
    );
  }
  if (p.mkc && p.qnorm !== 2) {
    fail(
      `mkc needs qnorm = 2 (the MKKM-IK-MKC objective weights kernels by γ²); qnorm is ${p.qnorm}`,
    );
  }
  if (k > n) fail(`k = ${k} clusters exceeds n = ${n} samples`);
  ds.views.forEach((v, i) => {
    if (v.present.length < 2) {
      fail(
        `view '${v.name}' (view ${i + 1}) has ${v.present.length} present sample(s): its kernel ` +
          'cannot be centred and normalised; remove the view',
      );
    }
    if (v.d === 0) fail(`view '${v.name}' (view ${i + 1}) has no features`);
  });
}

function problemShape(ds: SolverInput, k: number): ProblemShape {
  return {
    n: ds.n,
    dims: ds.views.map((v) => v.d),
    present: ds.views.map((v) => v.present.length),
    k,
  };
}

/**
 * Peak bytes (README "Footprint"). Operator path: per view K_cc and its packed copy while
 * packing (2·n_v²), the densified view (n_v·d_v), the block eigensolver's 8 blocks of n × b and
 * the scratch (≈ 16·n·(k + 8)). Dense path / MKC: V kernels, KC and its eigendecomposition's
 * working copies (V + 3 n × n), plus one view's n_v × n_v block.
 */
function footprintBytes({ n, dims, present: given, k }: ProblemShape, p: MkkmIkParams): number {
  const V = dims.length;
  const present = given.map((m) => Math.min(m, n));
  const blocks = present.reduce((a, m) => a + m * m, 0);
  const widest = Math.max(0, ...present.map((m) => m * m));
  const views = Math.max(0, ...dims.map((d, v) => present[v]! * d));
  // The block eigensolver's blocks, or below its dense threshold (n ≤ 200) the dense
  // eigendecomposition's n × n working arrays.
  const thin = n <= 200 ? 12 * n * n : 16 * n * (k + 8);
  if (p.path === 'dense' || p.mkc) return 8 * ((V + 3) * n * n + widest + views + thin);
  return 8 * (blocks + widest + views + thin);
}

function kernelsOf(ds: SolverInput): ObservedKernel[] {
  const input = incompleteInput(ds);
  return input.views.map((v, i) => {
    try {
      return observedKernel(v, ds.n);
    } catch (e) {
      throw new SolverInputError(
        `mkkm-ik: view '${v.name}' (view ${i + 1}): ${(e as Error).message} (a sample equal to ` +
          'the mean of the view’s samples has no direction after centring; the reference gives NaN)',
      );
    }
  });
}

function* run(
  ds: SolverInput,
  params: ParamsOf<typeof mkkmIkSchema>,
  k: number,
  _rng: Rng,
): Generator<SolverStep, SolverOutput, void> {
  check(ds, params, k);
  const { n } = ds;
  const V = ds.views.length;
  const kernels = kernelsOf(ds);
  yield { stage: 'prepare', iteration: 0, objective: null };
  const options = {
    iterations: params.iterations,
    tol: params.tol,
    qnorm: params.qnorm,
    alpha0: params.alpha0,
  };
  let r: MkkmIkResult;
  if (params.mkc) {
    r = yield* mkcLoop(denseStore(kernels, n), k, { ...options, lambda: params.lambda });
  } else {
    const engine =
      params.path === 'dense'
        ? denseEngine(denseStore(kernels, n), params.alpha0)
        : operatorEngine(kernels, n, params.alpha0);
    r = yield* mkkmIkLoop(engine, V, k, options);
  }
  const { Hn, zeroRows } = normaliseRows(r.H);
  const missing = ds.views.map((v) => n - v.present.length);
  const notes = [
    'each present sample scaled to unit L2 norm; per view the linear kernel of its present ' +
      'samples, centred and normalised to a unit diagonal; the rows and columns of its missing ' +
      `samples imputed with the clustering (missing per view: ${missing.join(', ')} of ${n})`,
    `kernel weights γ = ${[...r.gamma].map((g) => g.toPrecision(4)).join(', ')} after ` +
      `${r.objective.length} iteration(s) (${r.converged ? 'converged' : 'iteration cap reached'})`,
    ...(params.mkc
      ? [
          'mkc: the mutual kernel completion term of MKKM-IK-MKC (TPAMI 2020) was added; it has ' +
            'no public reference code, so this variant is not checked against a reference run',
        ]
      : []),
    ...(zeroRows > 0
      ? [`${zeroRows} row(s) of H were zero and left at 0 (the reference gives NaN)`]
      : []),
  ];
  return {
    embedding: Hn,
    objective: r.objective,
    converged: r.converged,
    iterations: r.objective.length,
    notes,
    charts: {
      weights: {
        title: 'Kernel weight γ per view',
        labels: ds.views.map((v) => v.name),
        values: [...r.gamma],
        trace: r.gammaTrace,
      },
    },
    diagnostics: { gamma: [...r.gamma], path: params.mkc ? 'dense' : params.path, mkc: params.mkc },
  };
}

/** Multiple kernel k-means with incomplete kernels; see README.md. */
export const mkkmIk = defineSolver({
  name: 'mkkm-ik',
  title: 'MKKM-IK (multiple kernel k-means, incomplete kernels)',
  description:
    'Multiple kernel k-means in which each view’s kernel lacks the rows and columns of the ' +
    'samples the view misses; those are imputed jointly with the clustering and the kernel ' +
    'weights (Liu et al., AAAI 2017 / TPAMI 2020). Optionally with the mutual kernel ' +
    'completion term of MKKM-IK-MKC (no reference code).',
  schema: mkkmIkSchema,
  deterministic: true,
  input: 'incomplete',
  monotone: false,
  iterationCap: (p) => p.iterations,
  footprint: (shape, p) => ({
    bytes: footprintBytes(shape, p),
    quadratic: true,
    note:
      p.path === 'dense' || p.mkc
        ? 'V + 3 dense n × n arrays (the kernels, their sum, the eigensolver)'
        : 'one n_v × n_v kernel per view (the observed blocks)',
  }),
  cost: ({ n, dims, present, k }, p) => {
    // Kernels: n_v²·d_v per view. Per iteration: operator path ≈ 60 products of width k + 8
    // with each observed block (2·n_v² each) and k-column products; dense path a full
    // eigendecomposition (≈ 9n³) and per view a solve and two products (≈ 2n³).
    const kernels = dims.reduce((a, d, v) => a + present[v]! ** 2 * d, 0);
    const V = dims.length;
    const perIteration =
      p.path === 'dense' || p.mkc
        ? 9 * n ** 3 + 2 * V * n ** 3
        : present.reduce((a, m) => a + 2 * m * m * (60 * (k + 8) + k), 0);
    return { solve: kernels + p.iterations * perIteration, kmeans: n * k * k, perSeed: false };
  },
  run,
});
