/**
 * DAIMC (`daimc`) as a registered solver: the declaration, the checks and the run (`daimc.ts`
 * holds the iterations, `start.ts` the reference's `newinit`). It declares `input:
 * 'incomplete'`: it applies the common input layer of the incomplete-view baselines itself
 * (unit-L2 samples; views/incomplete-input.ts) and then its own convention, missing samples
 * weighted out by W_v (zeros in the reference), the view's mean only inside the start. The
 * embedding is V (n, k) as is. See README.md.
 */
import { MAX_VIEW_VALUES } from '../../limits';
import type { Mat } from '../../linalg/types';
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
import { daimcIterate, type DaimcOptions } from './daimc';
import { daimcSchema } from './params';

export { daimcIterate, type DaimcOptions, type DaimcResult } from './daimc';
export { daimcStart, type DaimcStart } from './start';
export { daimcSchema, type DaimcParams } from './params';

type P = ParamsOf<typeof daimcSchema>;

/** The iteration options of validated parameters. */
export function daimcOptions(p: P): DaimcOptions {
  return {
    alpha: p.alpha,
    beta: p.beta,
    iterations: p.iterations,
    innerIterations: p.innerIterations,
    tol: p.tol,
    innerTol: p.innerTol,
  };
}

/** ‖M‖_F. */
function frobenius(M: Mat): number {
  let s = 0;
  for (const x of M.data) s += x * x;
  return Math.sqrt(s);
}

/** Refuses what the method cannot run, naming the view and the limit. */
function check(ds: SolverInput): void {
  if (ds.views.length === 0) throw new SolverInputError('daimc: the dataset has no views');
  ds.views.forEach((v, i) => {
    if (v.present.length === 0) {
      throw new SolverInputError(
        `daimc: view '${v.name}' (view ${i + 1}) has no present sample: its start fills the ` +
          'missing samples with the view mean; remove the view or give it samples',
      );
    }
    if (ds.n * v.d > MAX_VIEW_VALUES) {
      throw new SolverInputError(
        `daimc: the start densifies view '${v.name}' to n·d = ${ds.n}·${v.d} = ${ds.n * v.d} ` +
          `values, above the limit of ${MAX_VIEW_VALUES}`,
      );
    }
  });
}

function* run(
  ds: SolverInput,
  params: P,
  k: number,
  rng: Rng,
): Generator<SolverStep, SolverOutput, void> {
  check(ds);
  const input = incompleteInput(ds);
  yield { stage: 'prepare', iteration: 0, objective: null };
  const start = {
    kind: 'kmeans',
    replicates: params.startReplicates,
    maxIterations: params.startIterations,
    rng,
  } as const;
  const r = yield* daimcIterate(input, k, daimcOptions(params), start);
  const missing = ds.views.map((v) => ds.n - v.present.length);
  return {
    embedding: r.V,
    objective: r.objective,
    converged: r.converged,
    iterations: r.objective.length,
    notes: [
      'each present sample scaled to unit L2 norm (divided by max(1e-12, ‖x‖)); missing ' +
        'samples weighted out of every term (W_v = presence of view v), filled with the view ' +
        `mean only for the start's k-means (missing per view: ${missing.join(', ')} of ${ds.n})`,
      `start: per view k-means (k-means++, ${params.startReplicates} starts) of the mean-filled ` +
        "view, as the reference's newinit (its litekmeans draws random samples instead)",
      `V passes per iteration: ${r.vPasses.join(', ')}`,
    ],
    diagnostics: {
      vPasses: r.vPasses,
      startColumnSums: Array.from(r.startColumnSums),
      uFrobenius: r.U.map(frobenius),
      bFrobenius: r.B.map(frobenius),
    },
  };
}

/** Bytes `run` holds at its peak (see the footprint note). */
function footprintBytes({ n, dims, present, k }: ProblemShape): number {
  const copies = dims.reduce((a, d, v) => a + present[v]! * d, 0);
  const widest = Math.max(0, ...dims);
  const presentRows = present.reduce((a, m) => a + m, 0);
  const bases = dims.reduce((a, d) => a + d, 0);
  // The scaled views; the start's mean-filled view and k-means' copy of it; V, its four
  // update arrays and the k-means work; X_v·U_v and the gathered V rows; U_v, B_v, the
  // right-hand sides and the Sylvester work (≈ 8 d_v × k arrays per view).
  return 8 * (copies + 2 * n * widest + 8 * n * k + 2 * presentRows * k + 8 * bases * k);
}

/** DAIMC; see README.md. */
export const daimc = defineSolver({
  name: 'daimc',
  title: 'DAIMC (doubly aligned incomplete multi-view clustering)',
  description:
    'Hu and Chen, IJCAI 2018: a weighted semi-NMF shared by the views, X_v ≈ U_v·Vᵀ on the ' +
    'present samples only, with per-view regressions B_v that align the bases (L2,1-sparse). ' +
    'A faithful port of the survey code: same start rule, update order and stopping tests; the ' +
    'embedding is V.',
  schema: daimcSchema,
  deterministic: false,
  run,
  input: 'incomplete',
  monotone: false,
  iterationCap: (p) => p.iterations,
  footprint: (shape) => ({
    bytes: footprintBytes(shape),
    quadratic: false,
    note: 'the scaled views, one mean-filled view for the start, V and the per-view bases',
  }),
  cost: ({ n, dims, present, k }, p) => {
    // Start: per view `startReplicates` k-means of a few tens of Lloyd steps on (n, d_v).
    // Per outer iteration: X_vᵀV and X_v·U_v (2·n_v·d_v·k each), the k × k work on d_v rows,
    // and the V passes, O(n_v·k²) each.
    const start = dims.reduce((a, d) => a + 30 * p.startReplicates * n * d * k, 0);
    const iteration = dims.reduce(
      (a, d, v) =>
        a + 4 * present[v]! * d * k + 10 * d * k * k + p.innerIterations * 4 * present[v]! * k * k,
      0,
    );
    return { solve: start + p.iterations * iteration, kmeans: n * k * k, perSeed: true };
  },
});
