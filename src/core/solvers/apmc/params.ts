/**
 * APMC's parameters (STYLE.md rule 7): one schema drives validation, the CLI flags, the
 * renderer's form and the README's table. Defaults are the recorded reference settings
 * (`Demo_3Sources.m`: k = 12; the published code, unguarded).
 */
import type { ParamSchema, ParamsOf } from '../types';

export const apmcSchema = {
  anchors: {
    type: 'int',
    min: 1,
    max: 1000,
    default: 12,
    doc:
      'Nearest anchors per sample (the reference’s para.k): in each view of a view pair, each ' +
      'sample is linked to this many of the pair’s paired samples, weighted by a Gaussian of ' +
      'the squared distance. Every view pair needs at least this many paired samples.',
  },
  guard: {
    type: 'boolean',
    default: false,
    doc:
      'Give anchors that no sample picks weight 0 instead of the published code’s 1/0, which ' +
      'makes the similarity NaN (duplicate samples, e.g. the all-zero samples of BDGP). Off ' +
      'reproduces the published code and refuses such data with the count per view pair; on ' +
      'is the recorded “APMC (guarded)” variant.',
  },
} as const satisfies ParamSchema;

export type ApmcParams = ParamsOf<typeof apmcSchema>;
