/**
 * kmeans-concat's parameters (STYLE.md rule 7): one schema drives validation, the CLI flags, the
 * renderer's form and the README's table.
 */
import type { ParamSchema } from '../types';

export const kmeansConcatSchema = {
  normalize: {
    type: 'enum',
    values: ['none', 'zscore', 'l2-rows'],
    default: 'none',
    doc:
      "Scaling applied to each view before concatenation. 'none': raw features. 'zscore': every " +
      'feature centred and divided by its standard deviation over the present samples (constant ' +
      "features become 0; imputed samples become 0). 'l2-rows': each sample's row of each view " +
      'scaled to unit Euclidean length, so every view weighs the same in the distances.',
  },
} as const satisfies ParamSchema;
