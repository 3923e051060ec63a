/**
 * MIC's parameters (STYLE.md rule 7): one schema drives validation, the CLI flags, the
 * renderer's form and the README's table. Defaults are the reference's test-script settings
 * (specs/baselines-incomplete.md §2), the settings of the recorded run 'MIC'.
 */
import type { ParamSchema, ParamsOf } from '../types';

export const micSchema = {
  iterations: {
    type: 'int',
    min: 1,
    max: 1000,
    default: 30,
    doc:
      'Outer rounds (the reference’s Rounds): each computes the consensus U* and the objective, then updates every ' +
      'view. The reference runs exactly this many (its convergence test only prints).',
  },
  innerIterations: {
    type: 'int',
    min: 1,
    max: 10000,
    default: 100,
    doc: 'Multiplicative iterations of each view’s U_v, V_v per round (the reference’s maxIter).',
  },
  alpha: {
    type: 'number',
    min: 0,
    max: 1e8,
    exclusiveMin: true,
    default: 0.01,
    doc: 'α_v, the weight of ‖W_v(U_v − U*)‖² (the pull of each view to the consensus), every view.',
  },
  beta: {
    type: 'number',
    min: 0,
    max: 1e8,
    default: 1e4,
    doc:
      'β_v, the weight of the ℓ2,1 term, every view. The reference’s 1e4 collapses U_v on ' +
      'unit-length samples (recorded run MIC, ACC ≈ chance); 0.01 is the second recorded setting.',
  },
  alphaPerView: {
    type: 'numbers',
    min: 0,
    max: 1e8,
    exclusiveMin: true,
    default: null,
    doc: 'α_v per view, overriding alpha (one value per view).',
  },
  betaPerView: {
    type: 'numbers',
    min: 0,
    max: 1e8,
    default: null,
    doc: 'β_v per view, overriding beta (one value per view).',
  },
  missingWeight: {
    type: 'numbers',
    min: 0,
    max: 1,
    default: null,
    doc:
      'Weight w of a missing sample in each view (present samples weigh 1). Default: the ' +
      'paper’s rule, n_v / n (the view’s share of present samples).',
  },
  passes: {
    type: 'int',
    min: 1,
    max: 100,
    default: 3,
    doc: 'Start: passes of plain NMF over the views, each view starting from the previous one’s coefficients.',
  },
  restarts: {
    type: 'int',
    min: 1,
    max: 1000,
    default: 30,
    doc:
      'Start: random restarts of each NMF call (the reference’s nRepeat); the lowest ' +
      'reconstruction error is kept. With 1, a single start runs refineIter iterations.',
  },
  restartIter: {
    type: 'int',
    min: 1,
    max: 10000,
    default: 50,
    doc: 'Start: iterations of each restart (the reference’s minIter).',
  },
  refineIter: {
    type: 'int',
    min: 0,
    max: 10000,
    default: 100,
    doc: 'Start: iterations from the best restart (the reference’s maxIter, shared with innerIterations).',
  },
  negatives: {
    type: 'enum',
    values: ['shift', 'refuse'],
    default: 'shift',
    doc:
      'MIC factorises non-negative data. A view with a negative value (after the unit-length ' +
      "scaling): 'shift' adds to each feature minus its smallest present value (nothing " +
      "changes on non-negative data), 'refuse' stops with an error naming the view.",
  },
} as const satisfies ParamSchema;

export type MicParams = ParamsOf<typeof micSchema>;
