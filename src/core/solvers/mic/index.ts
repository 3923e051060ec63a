/**
 * MIC (`mic`) as a registered solver: the declaration, the checks and the run (`mic.ts` holds
 * the math). It declares `input: 'incomplete'` and applies the reference's input itself: the
 * common layer (unit-L2 samples, views/incomplete-input.ts), then each view's missing samples
 * set to the mean of its present ones, weighted n_v / n against 1 for a present sample. The
 * consensus U* (n, k) is the embedding the protocol clusters. See README.md.
 */
import type { View } from '../../dataset';
import { incompleteInput } from '../../views/incomplete-input';
import { meanFilledOp, type MeanFilledOp } from '../../views/mean-filled-op';
import { SolverInputError } from '../params';
import { defineSolver, type ParamsOf, type ProblemShape, type SolverInput } from '../types';
import { micSteps, type MicSettings } from './mic';
import { micSchema } from './params';

export { micSteps, type MicResult, type MicSettings, type MicStart } from './mic';
export { micSchema, type MicParams } from './params';

type P = ParamsOf<typeof micSchema>;

/** Refuses what the method cannot run, naming the view or parameter and what was expected. */
function check(ds: SolverInput, p: P): void {
  const V = ds.views.length;
  if (V === 0) throw new SolverInputError('mic: the dataset has no views');
  ds.views.forEach((v, i) => {
    if (v.present.length === 0 || v.d === 0) {
      throw new SolverInputError(
        `mic: view '${v.name}' (view ${i + 1}) is empty (${v.present.length} present samples, ` +
          `${v.d} features): its missing samples cannot be filled with its mean; remove the view`,
      );
    }
  });
  for (const name of ['alphaPerView', 'betaPerView', 'missingWeight'] as const) {
    const list = p[name];
    if (list !== null && list.length !== V) {
      throw new SolverInputError(
        `mic: parameter '${name}' has ${list.length} values, but the dataset has ${V} views ` +
          '(give one value per view)',
      );
    }
  }
}

/**
 * The view with `shift_j = −min(0, min_r x_rj)` added to each feature of its present samples
 * (dense; nothing changes where no value is negative). Throws under 'refuse'.
 */
function nonNegative(view: View, p: P): { view: View; shifted: number } {
  const x = view.values;
  let negative = false;
  for (const a of x.data) if (a < 0) negative = true;
  if (!negative) return { view, shifted: 0 };
  if (p.negatives === 'refuse') {
    throw new SolverInputError(
      `mic: view '${view.name}' has negative values; MIC factorises non-negative data ` +
        "(use negatives 'shift', or transform the view)",
    );
  }
  const m = view.present.length;
  const d = view.d;
  const data = new Float64Array(m * d);
  if (x.kind === 'dense') data.set(x.data.subarray(0, m * d));
  else {
    for (let r = 0; r < m; r++)
      for (let q = x.indptr[r]!; q < x.indptr[r + 1]!; q++)
        data[r * d + x.indices[q]!] = x.data[q]!;
  }
  const low = new Float64Array(d);
  for (let q = 0; q < m * d; q++) low[q % d] = Math.min(low[q % d]!, data[q]!);
  let shifted = 0;
  for (let j = 0; j < d; j++) if (low[j]! < 0) shifted++;
  for (let q = 0; q < m * d; q++) data[q] = data[q]! - low[q % d]!;
  return { view: { ...view, values: { kind: 'dense', rows: m, cols: d, data } }, shifted };
}

/** Per-view values of a parameter pair (the list when given, else the common value). */
const perView = (list: readonly number[] | null, common: number, V: number): number[] =>
  list ? [...list] : new Array<number>(V).fill(common);

/** The settings of a run on views with `present[v]` samples out of n. */
export function micSettings(p: P, n: number, present: readonly number[]): MicSettings {
  const V = present.length;
  return {
    alpha: perView(p.alphaPerView, p.alpha, V),
    beta: perView(p.betaPerView, p.beta, V),
    missingWeight: p.missingWeight ? [...p.missingWeight] : present.map((m) => m / n),
    rounds: p.iterations,
    inner: p.innerIterations,
    passes: p.passes,
    restarts: p.restarts,
    restartIter: p.restartIter,
    refineIter: p.refineIter,
  };
}

/**
 * MIC's input (file comment): the checked, unit-L2, non-negative views as mean-filled operators,
 * and how many features of each view `negatives: 'shift'` moved.
 */
export function micInput(ds: SolverInput, p: P): { ops: MeanFilledOp[]; shifted: number[] } {
  check(ds, p);
  const prepared = incompleteInput(ds).views.map((v) => nonNegative(v, p));
  return {
    ops: prepared.map((x) => meanFilledOp(x.view, ds.n)),
    shifted: prepared.map((x) => x.shifted),
  };
}

/** Multiplicative iterations per view of a whole solve (start and rounds). */
function viewIterations(p: P): number {
  const perCall = p.restarts === 1 ? p.refineIter : p.restarts * p.restartIter + p.refineIter;
  return p.passes * perCall + (p.iterations - 1) * p.innerIterations;
}

/** Bytes MIC allocates: the normalised views, then per view its factors and work arrays. */
function footprintBytes({ n, dims, present, k }: ProblemShape): number {
  let doubles = 3 * n * k + n * dims.length;
  dims.forEach((d, v) => {
    const m = present[v] ?? n;
    // Four n_v × d_v arrays at most (dense bound): the normalised copy, its shifted copy (data
    // with negative values) and a dense view's X and Xᵀ packed for GEMM (a CSR view keeps its
    // transpose instead). Then U_v and V_v, the start's best and current factors, and the work
    // arrays (two n × k, two d × k, one n_v × k).
    doubles += 4 * m * d + 4 * n * k + 5 * d * k + m * k + 2 * n;
  });
  return 8 * doubles;
}

/** MIC: weighted multi-view NMF with an ℓ2,1 term; see README.md. */
export const mic = defineSolver({
  name: 'mic',
  title: 'MIC (weighted multi-view NMF, ℓ2,1)',
  description:
    'Multiple Incomplete views Clustering (Shao, He & Yu, ECML-PKDD 2015): each view’s missing ' +
    'samples are filled with its mean and down-weighted (n_v / n), each view is factorised by ' +
    'weighted non-negative matrix factorisation pulled towards a consensus, with an ℓ2,1 term. ' +
    'The consensus U* is clustered. Starts from random NMF restarts.',
  schema: micSchema,
  deterministic: false,
  input: 'incomplete',
  monotone: false,
  iterationCap: (p) => p.iterations,
  footprint: (shape) => ({
    bytes: footprintBytes(shape),
    quadratic: false,
    note: 'the normalised views packed for GEMM, and per view U_v (n × k), V_v (d_v × k) and work arrays',
  }),
  cost: ({ n, dims, present, k }, p) => ({
    solve:
      viewIterations(p) *
      dims.reduce((a, d, v) => a + 4 * (present[v] ?? n) * d * k + 3 * (n + d) * k * k, 0),
    kmeans: n * k * k,
    perSeed: true,
  }),
  *run(ds, params, k, rng) {
    const { n } = ds;
    const { ops, shifted: moved } = micInput(ds, params);
    const present = ds.views.map((v) => v.present.length);
    const s = micSettings(params, n, present);
    yield { stage: 'prepare', iteration: 0, objective: null };
    const draws = rng.fork('nmf-start');
    const r = yield* micSteps(ops, k, s, { draw: () => draws.next() });
    const last = r.change[r.change.length - 1] ?? Infinity;
    const shifted = moved.map((c, v) => [c, v] as const).filter(([c]) => c > 0);
    const notes = [
      'each present sample scaled to unit L2 norm (divided by max(1e-12, ‖x‖)), then each ' +
        'view’s missing samples set to the mean of its present samples and weighted ' +
        `${s.missingWeight.map((w) => w.toPrecision(4)).join(', ')} (present: 1)`,
      `${params.iterations} rounds run as the reference does; the last change of U*, ` +
        `‖ΔU*‖² = ${last.toExponential(3)}, ${last < 1e-12 ? 'meets' : 'does not meet'} the ` +
        'reference’s printed test (< 1e-12)',
      ...shifted.map(
        ([c, v]) =>
          `view '${ds.views[v]!.name}' has negative values: ${c} feature(s) shifted by minus ` +
          'their smallest present value (negatives: shift)',
      ),
      ...(r.zeroRowGuards > 0
        ? [
            `${r.zeroRowGuards} time(s) a zero row of some U_v got D = 0 in its ℓ2,1 step: ` +
              'the reference’s 1/0 there gives NaN, which its max(·, 1e-30) drops, so the row ' +
              'stays 0 either way',
          ]
        : []),
    ];
    return {
      embedding: r.consensus,
      objective: r.objective,
      converged: last < 1e-12,
      iterations: r.objective.length,
      notes,
      charts: {
        weights: {
          title: 'Weight of a missing sample per view (present: 1)',
          labels: ds.views.map((v) => v.name),
          values: s.missingWeight,
        },
      },
      diagnostics: {
        startObjective: r.startObjective,
        change: r.change,
        zeroRowGuards: r.zeroRowGuards,
      },
    };
  },
});
