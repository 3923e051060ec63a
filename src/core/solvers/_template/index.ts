/**
 * The solver template: the declaration every new method copies. A method is one folder
 * (STYLE.md rule 14): `index.ts` (this file: what hosts read), `params.ts` (the schema),
 * `<name>.ts` (the math) and `README.md` (equations, parameter table, references).
 *
 * COPYING, step by step:
 * 1. Copy the folder to `src/core/solvers/<name>/`, rename `_template.ts` to `<name>.ts` and
 *    every `template…` identifier after the method.
 * 2. Replace the math in `<name>.ts` and the schema in `params.ts`.
 * 3. Fill in the declaration below honestly: the conformance suite
 *    (test/core/solvers/conformance.test.ts) checks each field against the running method.
 * 4. Add one line to `../registry.ts`: `register(<name>)`. Nothing in backend, renderer or CLI
 *    names a solver; they read this declaration.
 * 5. Write `test/core/solvers/<name>/<name>.test.ts` (properties, hand-checked toys) and a
 *    reference test through `referenceSuite` (test/helpers/reference.ts, STYLE.md rule 6).
 * 6. Regenerate the README's parameter table between its `params:` markers.
 *
 * This template is not registered; the conformance suite adds it through a test-only list.
 */
import { SolverInputError } from '../params';
import { defineSolver, type SolverInput } from '../types';
import { templateFootprint, templateIterate } from './_template';
import { templateSchema } from './params';

/**
 * Refuses a view the method cannot use, naming it: here one without present samples or
 * features. COPYING: keep what your method needs; the message names the view and the fix.
 */
function checkViews(input: SolverInput): void {
  for (const view of input.views) {
    if (view.present.length === 0 || view.d === 0) {
      throw new SolverInputError(
        `template: view '${view.name}' is empty (${view.present.length} present samples, ` +
          `${view.d} features); remove it before running`,
      );
    }
  }
}

/** Multi-view k-means over present samples. See README.md. */
export const template = defineSolver({
  // COPYING: the CLI and registry name (lower-case, dashes), a title and one paragraph.
  name: 'template',
  title: 'Multi-view k-means (solver template)',
  description:
    'Lloyd’s k-means with one centroid per cluster in every view: each sample is assigned by ' +
    'the sum of its squared distances over the views it is present in, so missing samples are ' +
    'never imputed. The template every new method starts from.',
  schema: templateSchema,
  // COPYING: true only when the output does not depend on the rng (the suite runs two seeds).
  deterministic: false,
  // COPYING: 'complete' when the math needs every sample in every view (the protocol fills
  // the missing ones first); 'incomplete' when it reads each view's present samples itself.
  input: 'incomplete',
  // COPYING: true only when the objective can never increase (the suite checks every step).
  monotone: true,
  // COPYING: the most iterations the parameters allow, null without iterations.
  iterationCap: (params) => params.iterations,
  // COPYING: the main arrays at their peak, within 2× of the measured peak (the suite checks);
  // quadratic when any grows as n².
  footprint: (shape) => ({
    bytes: templateFootprint(shape),
    quadratic: false,
    note: 'the n × k assignment costs and the k × Σd centroids',
  }),
  // COPYING: the work of one solve in flops, up to a constant (the host calibrates it on
  // finished runs); `kmeans` the work of one Lloyd iteration on the embedding (n·k·c), 0 when
  // the method sets its labels; `perSeed` false exactly when the method is deterministic.
  cost: ({ dims, present, k }, params) => ({
    solve: 2 * params.iterations * k * dims.reduce((a, d, v) => a + present[v]! * d, 0),
    kmeans: 0,
    perSeed: true,
  }),
  *run(input, params, k, rng) {
    checkViews(input);
    const r = yield* templateIterate(
      input,
      k,
      { iterations: params.iterations, tol: params.tol },
      rng,
    );
    const present = new Set<number>();
    for (const view of input.views) for (const i of view.present) present.add(i);
    const absent = input.n - present.size;
    return {
      // COPYING: an (n, c) embedding the protocol clusters with k-means, or `labels` when the
      // method decides them itself (the embedding is then what the silhouette reads).
      embedding: r.costs,
      labels: r.labels,
      objective: r.objective,
      converged: r.converged,
      iterations: r.objective.length,
      notes: [
        'missing samples are not imputed: each sample is assigned over the views it is present in',
        ...(absent > 0
          ? [`${absent} sample(s) present in no view were put in the first cluster`]
          : []),
      ],
      // COPYING: typed chart data; the renderer draws what is there and nothing else.
      charts: {
        weights: {
          title: 'Share of the objective per view',
          labels: input.views.map((v) => v.name),
          values: r.viewCosts.map((c) => c / Math.max(Number.MIN_VALUE, sum(r.viewCosts))),
        },
      },
    };
  },
});

function sum(xs: readonly number[]): number {
  return xs.reduce((a, x) => a + x, 0);
}
