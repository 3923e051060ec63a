/**
 * CGL's and CGMVC-NC's parameters (STYLE.md rule 7): one schema each drives validation, the CLI
 * flags, the renderer's form and the README's table. They differ in ρ's default and CGMVC-NC's γ.
 */
import { penaltyWeight } from '../params';
import type { ParamSchema } from '../types';

/** Largest n for the dense path (it holds V + 2 dense n × n arrays per view). */
export const MAX_DENSE_N = 1000;

const common = (rhoDefault: number) =>
  ({
    lambda: penaltyWeight(
      0,
      'λ, weight of the view-graph term λ·tr(FᵀAF) (reference grid 1 … 5000). 0 means ' +
        '1/√n, the seed paper’s setting; the value used is in the notes.',
    ),
    rho: penaltyWeight(
      rhoDefault,
      'ρ, weight of the tensor low-rank penalty (reference grid 1 … 5000).',
    ),
    neighbors: {
      type: 'int',
      min: 1,
      max: 100,
      default: 15,
      doc: 'Neighbours k of the view graphs and of the consensus graph (PKN); the reference uses 15.',
    },
    iterations: {
      type: 'int',
      min: 2,
      max: 1000,
      default: 100,
      doc: 'Most objective values, the initial one included (the reference’s max_iter = 100).',
    },
    minIterations: {
      type: 'int',
      min: 2,
      max: 1000,
      default: 41,
      doc: 'The stop test applies from this many objective values on (the reference: iter > 40).',
    },
    tolerance: {
      type: 'number',
      min: 0,
      max: 1,
      exclusiveMin: true,
      default: 1e-6,
      doc: 'Stop when |Δobjective| / |previous objective| falls below this.',
    },
    connectivity: {
      type: 'boolean',
      default: false,
      doc:
        'The seed’s connectivity constraint (Algorithm 1): adjust the consensus graph until it has ' +
        'exactly c connected components and label by components. Off in the CGL reference.',
    },
    sampleOrder: {
      type: 'enum',
      values: ['file', 'shuffled'],
      default: 'file',
      doc:
        "The FFT runs along the sample order, so results depend on it. 'file' reproduces the " +
        "reference; 'shuffled' applies a seeded permutation (orderSeed) and maps labels back. " +
        'Files sorted by class (HW, 100Leaves) flatter file order when ρ is large.',
    },
    orderSeed: {
      type: 'int',
      min: 0,
      max: 2147483647,
      default: 0,
      doc: "Seed of the permutation when sampleOrder is 'shuffled'.",
    },
    path: {
      type: 'enum',
      values: ['factorised', 'dense'],
      default: 'factorised',
      doc:
        "'factorised' never forms an n × n array (O(n·V·c) memory); 'dense' materialises the " +
        `n × V × n tensor (n ≤ ${MAX_DENSE_N}; the tests’ ground truth).`,
    },
  }) as const satisfies ParamSchema;

export const cglSchema = common(10);

export const cgmvcNcSchema = (() => {
  const { lambda, rho, ...rest } = common(1);
  return {
    lambda,
    rho,
    gamma: {
      type: 'number',
      min: 0,
      max: 1e6,
      exclusiveMin: true,
      default: 0.1,
      doc: 'γ of the t-Gamma quasi-norm (seed paper: 0.1 works best).',
    },
    ...rest,
  } as const satisfies ParamSchema;
})();
