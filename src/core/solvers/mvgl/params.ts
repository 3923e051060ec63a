/** MVGL's parameters: the recorded settings of the reference runs are the defaults. */
import type { ParamSchema, ParamsOf } from '../types';

export const mvglSchema = {
  neighbors: {
    type: 'int',
    min: 1,
    max: 1000,
    default: 15,
    doc: 'k: neighbours of the PKN graphs and of each sample’s learnt support (islocal = 1).',
  },
  innerIterations: {
    type: 'int',
    min: 1,
    max: 1000,
    default: 30,
    doc: 'Cap on the rank-constrained λ iterations of each view graph and of each global step.',
  },
  outerIterations: {
    type: 'int',
    min: 1,
    max: 1000,
    default: 30,
    doc: 'Cap on outer passes (global graph, weights, S0); the recorded runs use 30.',
  },
  tolerance: {
    type: 'number',
    min: 0,
    max: 1,
    exclusiveMin: true,
    default: 1e-3,
    doc: 'Stop when |J_t − J_{t−1}| / J_{t−1} ≤ this (J = ‖S − S0‖_F²).',
  },
  eigensolver: {
    type: 'enum',
    values: ['sparse', 'dense'],
    default: 'sparse',
    doc:
      '‘sparse’: c + 1 smallest Laplacian eigenpairs by the block eigensolver (zero eigenvalues ' +
      'from the connected components); ‘dense’: the reference’s full n × n decomposition.',
  },
} as const satisfies ParamSchema;

export type MvglParams = ParamsOf<typeof mvglSchema>;
