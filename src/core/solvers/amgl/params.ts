/**
 * AMGL's parameters (STYLE.md rule 7). The method itself has none (it is "parameter-free"); these
 * are the public code's fixed settings, exposed with its values as defaults so that a run with no
 * flags is the reference's: PKN graphs with k = 5 (`constructW_PKN`'s default), at most 100
 * iterations, tolerance 1e-8; and the eigensolver path ('dense' is the reference's full
 * decomposition, kept for tests).
 */
import type { ParamSchema, ParamsOf } from '../types';

/** Largest n for the 'dense' path (it holds a dense n × n M and its full decomposition). */
export const MAX_DENSE_N = 3000;

export const amglSchema = {
  neighbors: {
    type: 'int',
    min: 1,
    max: 100,
    default: 5,
    doc:
      'Neighbours k of each view’s PKN graph (at most n − 2); the reference code calls ' +
      '`constructW_PKN` without k, i.e. 5.',
  },
  iterations: {
    type: 'int',
    min: 1,
    max: 1000,
    default: 100,
    doc: 'Cap on iterations (each: one eigenproblem of M = Σ_v α_v·L_v, then the weights α_v).',
  },
  tolerance: {
    type: 'number',
    min: 0,
    max: 1,
    default: 1e-8,
    doc:
      'From iteration 3 on, stop when (Obj(t−1) − Obj(t)) / Obj(t−1) falls below this; the test ' +
      'is signed, as in the reference, so an increase of the objective also stops.',
  },
  eigensolver: {
    type: 'enum',
    values: ['sparse', 'dense'],
    default: 'sparse',
    doc:
      '‘sparse’: the block eigensolver on the sparse M, warm-started from the previous F ' +
      '(O(n·k·V) memory). ‘dense’: the reference’s full eigendecomposition of the dense M ' +
      `(O(n³) per iteration, n ≤ ${MAX_DENSE_N}), for tests.`,
  },
} as const satisfies ParamSchema;

export type AmglParams = ParamsOf<typeof amglSchema>;
