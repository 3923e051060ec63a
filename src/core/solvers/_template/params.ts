/**
 * The template's parameters (STYLE.md rule 7): one schema drives validation, the CLI flags, the
 * renderer's form and the README's table.
 *
 * COPYING: rename `templateSchema` after the method and declare its own parameters. Keep the
 * schema `as const` (via `satisfies`): `run`, `footprint` and `iterationCap` then receive
 * `ParamsOf<typeof schema>`, so a misspelt name fails to compile. Give the iteration cap an
 * 'int' parameter: the conformance suite lowers it (and nothing else) to keep its runs short.
 */
import type { ParamSchema, ParamsOf } from '../types';

export const templateSchema = {
  iterations: {
    type: 'int',
    min: 1,
    max: 1000,
    default: 100,
    doc: 'Cap on Lloyd iterations (each: an assignment step, then a centroid step).',
  },
  tol: {
    type: 'number',
    min: 0,
    max: 1,
    exclusiveMin: true,
    default: 1e-9,
    doc:
      'Stop when the relative decrease of the objective, (J(t−1) − J(t)) / J(t−1), falls ' +
      'below this (or when no label changes).',
  },
} as const satisfies ParamSchema;

export type TemplateParams = ParamsOf<typeof templateSchema>;
