/**
 * BSV's parameters (STYLE.md rule 7): one schema drives validation, the CLI flags, the
 * renderer's form and the README's table.
 */
import type { ParamSchema } from '../types';

export const bsvSchema = {
  neighbors: {
    type: 'int',
    min: 3,
    max: 100,
    default: 10,
    doc: 'Neighbours per sample in each view’s PKN (adaptive-neighbour) graph.',
  },
  criterion: {
    type: 'enum',
    values: ['eigengap', 'view'],
    default: 'eigengap',
    doc:
      "How the single view is chosen. 'eigengap' (label-free): the view whose normalised " +
      "affinity has the largest gap λ_k − λ_{k+1}. 'view': the view given by `view`.",
  },
  view: {
    type: 'int',
    min: 1,
    max: 64,
    default: 1,
    doc: "1-based view to use when criterion is 'view' (ignored otherwise).",
  },
} as const satisfies ParamSchema;
