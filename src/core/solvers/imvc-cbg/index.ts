/**
 * IMVC-CBG as a registered solver: checks the dataset and parameters, draws the start(s), runs
 * the iterations of `imvc-cbg.ts` one step at a time, and returns the embedding (the first k
 * left singular vectors of Zᵀ, rows normalised) that the protocol clusters with k-means.
 *
 * Stopping (the reference's rule): after iteration t > 1, stop when
 * |obj(t−1) − obj(t)| / obj(t−1) < tol (converged), obj(t) < 1e-10 (converged), or t reaches
 * `iterations` (not converged). The reference tests `t > maxIter`, which allows one iteration
 * more than its cap; we stop at the cap.
 *
 * Restarts: with the seeded start, r starts from the streams rng.fork('start/1' … 'start/r');
 * with `start: 'best'`, candidate 1 is the reference start and candidates 2 … r the seeded
 * streams 'start/1' … 'start/(r−1)'. Each is solved to the end; the one with the lowest final
 * objective is kept (the first on a tie). No labels are used.
 */
import type { Rng } from '../../random';
import { SolverInputError } from '../params';
import {
  defineSolver,
  type ParamsOf,
  type SolverInput,
  type SolverOutput,
  type SolverStep,
} from '../types';
import {
  CbgModel,
  embedding,
  prepareViews,
  referenceStart,
  seededStart,
  type CbgOptions,
  type PreparedView,
} from './imvc-cbg';
import { imvcCbgSchema } from './params';

export { imvcCbgSchema } from './params';

/** What the GEMM kernel's packing memory adds to a run that is the first to multiply. */
const GEMM_WORKSPACE = 2 ** 20;

/** The objective below which the reference stops (a perfect fit). */
export const OBJECTIVE_FLOOR = 1e-10;

/** Thrown for a dataset or parameter the method cannot run on; the message says why. */
export class ImvcCbgInputError extends SolverInputError {
  constructor(message: string) {
    super(`imvc-cbg: ${message}`);
    this.name = 'ImvcCbgInputError';
  }
}

/** Checks what the method needs of the data; throws ImvcCbgInputError otherwise. */
export function checkDataset(ds: SolverInput, k: number, dimension: number, m: number): void {
  const { n } = ds;
  if (ds.views.length === 0) throw new ImvcCbgInputError('the dataset has no views');
  if (k > n) throw new ImvcCbgInputError(`k = ${k} clusters exceeds the ${n} samples`);
  if (m < dimension) {
    throw new ImvcCbgInputError(
      `the number of anchors m = ${m} is below the latent dimension ${dimension}: the C-step ` +
        `needs m ≥ ${dimension} (set 'anchors' to 0 for m = k, or at least ${dimension})`,
    );
  }
  if (m < k) {
    throw new ImvcCbgInputError(
      `the number of anchors m = ${m} is below k = ${k}: the embedding takes k singular ` +
        `vectors of the n × m graph (set 'anchors' to 0 for m = k, or at least ${k})`,
    );
  }
  if (m > n) throw new ImvcCbgInputError(`m = ${m} anchors exceeds the ${n} samples`);
  const views = ds.views.map((v, i) => `'${v.name}' (view ${i + 1})`);
  ds.views.forEach((v, i) => {
    if (v.present.length === 0) {
      throw new ImvcCbgInputError(`view ${views[i]} has no present sample`);
    }
  });
  const seen = new Uint8Array(n);
  for (const v of ds.views) for (const j of v.present) seen[j] = 1;
  const absent: number[] = [];
  for (let j = 0; j < n; j++) if (seen[j] === 0) absent.push(j);
  if (absent.length > 0) {
    const ids = absent.slice(0, 5).map((j) => ds.sampleIds?.[j] ?? String(j + 1));
    throw new ImvcCbgInputError(
      `${absent.length} sample(s) are present in no view (e.g. sample ${ids.join(', ')}); ` +
        'every sample must be observed in at least one view',
    );
  }
}

/** Default number of candidates of the best-of-r start. */
export const BEST_STARTS = 5;

/** The number of starts a run solves: 1 for the reference start, else `restarts` (0: default). */
export function startCount(start: string, restarts: number): number {
  if (start === 'reference') return 1;
  if (restarts > 0) return restarts;
  return start === 'best' ? BEST_STARTS : 1;
}

/** One solve from one start; yields a step per iteration, returns the final model and trace. */
function* solveFrom(
  model: CbgModel,
  maxIter: number,
  tol: number,
  restart: number,
): Generator<SolverStep, { trace: number[]; alphaTrace: number[][]; converged: boolean }, void> {
  const trace: number[] = [];
  const alphaTrace: number[][] = [];
  let converged = false;
  for (let t = 1; t <= maxIter; t++) {
    const obj = model.iterate();
    trace.push(obj);
    alphaTrace.push(Array.from(model.alpha));
    const values: Record<string, number> = { work: model.work, restart };
    model.alpha.forEach((a, v) => (values[`alpha${v + 1}`] = a));
    yield { stage: 'solve', iteration: t, objective: obj, values };
    if (t > 1) {
      const prev = trace[t - 2]!;
      if (Math.abs(prev - obj) / prev < tol || obj < OBJECTIVE_FLOOR) {
        converged = true;
        break;
      }
    }
  }
  return { trace, alphaTrace, converged };
}

function* run(
  ds: SolverInput,
  params: ParamsOf<typeof imvcCbgSchema>,
  k: number,
  rng: Rng,
): Generator<SolverStep, SolverOutput, void> {
  const dimension = params.dimension || k;
  const anchors = params.anchors || k;
  const { lambda, tol, alphaRule, start } = params;
  const maxIter = params.iterations;
  const normalise = params.normalize;
  const restarts = startCount(start, params.restarts);
  checkDataset(ds, k, dimension, anchors);
  const { n } = ds;

  const views: readonly PreparedView[] = prepareViews(ds);
  yield { stage: 'prepare', iteration: 0, objective: null };
  const opts: CbgOptions = { dimension, anchors, lambda, alphaRule };

  let best: {
    model: CbgModel;
    trace: number[];
    alphaTrace: number[][];
    converged: boolean;
  } | null = null;
  const finals: number[] = [];
  let kept = 0;
  for (let r = 1; r <= restarts; r++) {
    const stream = start === 'best' ? r - 1 : r;
    const s =
      start === 'reference' || (start === 'best' && r === 1)
        ? referenceStart(n, dimension, anchors)
        : seededStart(n, dimension, anchors, rng.fork(`start/${stream}`));
    const model = new CbgModel(views, n, opts, s);
    const out = yield* solveFrom(model, maxIter, tol, r);
    const final = out.trace[out.trace.length - 1]!;
    finals.push(final);
    if (best === null || final < best.trace[best.trace.length - 1]!) {
      best = { model, ...out };
      kept = r;
    }
  }
  const { model, trace, alphaTrace, converged } = best!;
  const emb = embedding(model.Zt, k, normalise);
  yield { stage: 'embed', iteration: 0, objective: null };

  const notes: string[] = [];
  const winner =
    start === 'best'
      ? kept === 1
        ? 'the reference start'
        : `seeded start ${kept - 1}`
      : `start ${kept}`;
  notes.push(
    start === 'seeded'
      ? `start=seeded: C with orthonormal rows, Z on the simplex, from the run's seed`
      : start === 'reference'
        ? 'start=reference: C = 0, Z = [I 0]; its first C-step is rank-deficient, so the ' +
          'result depends on floating-point details'
        : `start=best: the reference start and ${restarts - 1} seeded start(s), the lowest ` +
          'final objective kept',
  );
  if (restarts > 1) {
    notes.push(
      `${restarts} starts solved; kept ${winner} with the lowest final objective ` +
        `${finals[kept - 1]!.toPrecision(8)} (range ${Math.min(...finals).toPrecision(6)}–` +
        `${Math.max(...finals).toPrecision(6)})`,
    );
  }
  views.forEach((v, i) => {
    const name = ds.views[i]!.name;
    if (v.nonFinite > 0) {
      notes.push(`view '${name}': ${v.nonFinite} non-finite value(s) of present samples set to 0`);
    }
    if (v.madeSparse) notes.push(`view '${name}': multiplied as a sparse matrix (few non-zeros)`);
  });
  if (emb.zeroColumns > 0) {
    notes.push(
      `Z has rank below k = ${k}: ${emb.zeroColumns} embedding column(s) have a zero ` +
        'singular value and were left at zero',
    );
  }
  if (!converged) notes.push(`stopped at the iteration cap (${maxIter}) before the tolerance`);

  const Zd = model.Zt.data;
  let nnz = 0;
  let zmax = 0;
  for (let i = 0; i < Zd.length; i++) {
    if (Zd[i] !== 0) nnz++;
    if (Zd[i]! > zmax) zmax = Zd[i]!;
  }
  return {
    embedding: emb.F,
    graph: { kind: 'anchor', Z: model.Zt },
    objective: trace,
    converged,
    iterations: trace.length,
    notes,
    charts: {
      spectrum: {
        kind: 'bars',
        title:
          'The k largest singular values of Zᵀ (their left singular vectors are the embedding)',
        values: Array.from(emb.singularValues),
      },
      weights: {
        title: 'View weights α_v',
        labels: ds.views.map((v) => v.name),
        values: Array.from(model.alpha),
        trace: alphaTrace,
      },
    },
    diagnostics: {
      start,
      anchors,
      dimension,
      lambda,
      alphaRule,
      alpha: Array.from(model.alpha),
      alphaTrace,
      residualNorms: Array.from(model.M),
      singularValues: Array.from(emb.singularValues),
      restarts,
      restartObjectives: finals,
      keptRestart: kept,
      Z: { nnz, max: zmax, rows: anchors, cols: n },
      work: model.work,
    },
  };
}

/** IMVC-CBG (Improved version by default); see README.md. */
export const imvcCbg = defineSolver({
  name: 'imvc-cbg',
  title: 'IMVC-CBG (consensus bipartite graph)',
  description:
    'Incomplete multi-view clustering with a consensus bipartite (anchor) graph (Wang et al., ' +
    'CVPR 2022): each view is projected to a shared latent space whose m anchors connect to ' +
    'every sample through one graph Z, learned from the views each sample is present in. ' +
    'Linear in the number of samples; built for missing views. Defaults follow the reference ' +
    'code’s Improved version, from the best of the reference start and four seeded starts by ' +
    'final objective.',
  schema: imvcCbgSchema,
  deterministic: false,
  run,
  input: 'incomplete',
  // No proof of descent: the default α rule ('norm', the reference code's) does not minimise the
  // objective over α, and the Z-step's projection is the exact block minimiser only for m = ℓ.
  monotone: false,
  graph: 'the anchor graph Z (n × m anchors)',
  iterationCap: (p) => p.iterations,
  footprint: ({ n, dims, k }, p) => {
    const m = p.anchors || k;
    const l = p.dimension || k;
    // Per sample: Zᵀ and its Z-step work (n × m, a few times), each view's latent coordinates
    // and products (n_v × ℓ, three per view); plus the d_v × ℓ factors and the GEMM kernel's
    // packing memory, allocated on first use.
    const perSample = 4 * m + 3 * dims.length * l;
    const factors = 3 * l * dims.reduce((a, d) => a + d, 0);
    return {
      bytes: 8 * (n * perSample + factors) + GEMM_WORKSPACE,
      quadratic: false,
      note: 'the n × m anchor graph and per view n × ℓ factors',
    };
  },
  cost: ({ n, dims, present, k }, p) => {
    // README "Complexity": per iteration Σ_v n_v·d_v·ℓ + n·m·ℓ + Σ_v d_v·ℓ², to the iteration
    // cap, for every start; the embedding O(n·m²) once. Seeded starts: solved again per seed.
    const m = p.anchors || k;
    const l = p.dimension || k;
    const starts = startCount(p.start, p.restarts);
    const views = dims.reduce((a, d, v) => a + present[v]! * d * l + d * l * l, 0);
    const iteration = views + n * m * l;
    return {
      solve: starts * p.iterations * iteration + n * m * m,
      kmeans: n * k * k,
      perSeed: true,
    };
  },
});
