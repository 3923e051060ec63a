/**
 * Best Single View by k-means (`bsv-kmeans`) as a registered solver: the declaration, the
 * checks and the run (`bsv-kmeans.ts` holds the math). It declares `input: 'incomplete'`: it
 * applies the common input layer of the incomplete-view baselines itself (unit-L2 samples,
 * then the view's mean for its missing samples; views/incomplete-input.ts), so the fill is the
 * reference's. The chosen view's filled matrix is the embedding the protocol clusters. See
 * README.md.
 */
import { MAX_VIEW_VALUES } from '../../limits';
import type { Mat } from '../../linalg/types';
import type { Rng } from '../../random';
import { incompleteInput, unitMeanFilled } from '../../views/incomplete-input';
import { SolverInputError } from '../params';
import {
  defineSolver,
  type ParamsOf,
  type SolverInput,
  type SolverOutput,
  type SolverStep,
} from '../types';
import { scoreStep, scoreView, type ViewScore } from './bsv-kmeans';
import { bsvKmeansSchema } from './params';

export { scoreView, totalSumOfSquares, type ViewScore } from './bsv-kmeans';
export { bsvKmeansSchema, type BsvKmeansParams } from './params';

/** Refuses what the method cannot run, naming the view or parameter and the limit. */
function check(ds: SolverInput, params: ParamsOf<typeof bsvKmeansSchema>): void {
  const V = ds.views.length;
  if (V === 0) throw new SolverInputError('bsv-kmeans: the dataset has no views');
  if (params.criterion === 'view' && params.view > V) {
    throw new SolverInputError(
      `bsv-kmeans: parameter 'view' is ${params.view}, but the dataset has ${V} views (1..${V})`,
    );
  }
  ds.views.forEach((v, i) => {
    if (v.present.length === 0) {
      throw new SolverInputError(
        `bsv-kmeans: view '${v.name}' (view ${i + 1}) has no present sample: its missing ` +
          'samples cannot be filled with its mean; remove the view or give it samples',
      );
    }
    if (ds.n * v.d > MAX_VIEW_VALUES) {
      throw new SolverInputError(
        `bsv-kmeans: view '${v.name}' would densify to n·d = ${ds.n}·${v.d} = ${ds.n * v.d} ` +
          `values, above the limit of ${MAX_VIEW_VALUES}`,
      );
    }
  });
}

function* run(
  ds: SolverInput,
  params: ParamsOf<typeof bsvKmeansSchema>,
  k: number,
  rng: Rng,
): Generator<SolverStep, SolverOutput, void> {
  check(ds, params);
  const { n } = ds;
  const V = ds.views.length;
  const input = incompleteInput(ds);
  yield { stage: 'prepare', iteration: 0, objective: null };
  const forced = params.criterion === 'view';
  const candidates = forced ? [params.view - 1] : input.views.map((_, v) => v);
  const scores: (ViewScore | null)[] = new Array<ViewScore | null>(V).fill(null);
  let best = -1;
  let embedding: Mat | null = null;
  for (const v of candidates) {
    const { filled } = unitMeanFilled(input.views[v]!, n);
    if (forced) {
      best = v;
      embedding = filled;
      break;
    }
    const s = scoreView(filled, k, params, rng.fork(`view-${v + 1}`));
    scores[v] = s;
    if (best < 0 || s.ratio < scores[best]!.ratio) {
      best = v;
      embedding = filled;
    }
    yield scoreStep(v + 1, s);
  }
  const missing = ds.views.map((v) => n - v.present.length);
  const name = ds.views[best]!.name;
  const notes = [
    forced
      ? `view ${best + 1} of ${V} ('${name}') chosen: forced by parameter 'view' (criterion ` +
        "'view'; other views not computed)"
      : `view ${best + 1} of ${V} ('${name}') chosen without labels: lowest k-means SSE / TSS ` +
        `${scores[best]!.ratio.toPrecision(4)} (criterion 'sse-ratio'; per view: ` +
        `${scores.map((s) => s!.ratio.toPrecision(4)).join(', ')})`,
    'each present sample scaled to unit L2 norm (divided by max(1e-12, ‖x‖)), then each view’s ' +
      'missing samples set to the mean of its present samples ' +
      `(missing per view: ${missing.join(', ')} of ${n})`,
  ];
  return {
    embedding: embedding!,
    objective: [],
    converged: true,
    iterations: 0,
    notes,
    ...(forced
      ? {}
      : {
          charts: {
            weights: {
              title: 'k-means SSE / TSS per view (the lowest is chosen)',
              labels: ds.views.map((v) => v.name),
              values: scores.map((s) => s!.ratio),
            },
          },
        }),
    diagnostics: {
      chosenView: best + 1,
      criterion: params.criterion,
      sseRatio: scores.map((s) => s?.ratio ?? null),
      sse: scores.map((s) => s?.sse ?? null),
      tss: scores.map((s) => s?.tss ?? null),
    },
  };
}

/** Best Single View by k-means; see README.md. */
export const bsvKmeans = defineSolver({
  name: 'bsv-kmeans',
  title: 'Best Single View (k-means, survey protocol)',
  description:
    'Baseline of the incomplete multi-view surveys: each view’s samples scaled to unit length, ' +
    'its missing samples filled with the view’s mean, and one view clustered by k-means. The ' +
    'view is chosen without labels, by the lowest k-means SSE / TSS, or forced by the user.',
  schema: bsvKmeansSchema,
  deterministic: false,
  run,
  input: 'incomplete',
  monotone: false,
  iterationCap: () => null,
  footprint: ({ n, dims, present }) => {
    // The normalised copies of the views (dense here: Σ n_v·d_v), then two filled (n, d_v)
    // arrays (the view scored and the best so far) and k-means' work arrays (≈ n·(k + 4)).
    const copies = dims.reduce((a, d, v) => a + present[v]! * d, 0);
    const widest = Math.max(0, ...dims);
    return {
      bytes: 8 * (copies + 2 * n * widest + 8 * n),
      quadratic: false,
      note: 'the normalised views and two mean-filled views',
    };
  },
  cost: ({ n, dims, k }, p) => {
    // 'sse-ratio': per view, `replicates` k-means of a few tens of Lloyd iterations, each
    // n·d_v·k; 'view': the fill alone. The protocol's k-means then runs on n × d_v.
    const views = p.criterion === 'view' ? [dims[p.view - 1] ?? 0] : dims;
    const lloyd = p.criterion === 'view' ? 0 : 30 * p.replicates * k;
    return {
      solve: views.reduce((a, d) => a + n * d * (1 + lloyd), 0),
      kmeans: n * k * Math.max(0, ...views),
      perSeed: true,
    };
  },
});
