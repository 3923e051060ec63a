/**
 * bsv-kmeans's parameters (STYLE.md rule 7): one schema drives validation, the CLI flags, the
 * renderer's form and the README's table.
 */
import type { ParamSchema, ParamsOf } from '../types';

export const bsvKmeansSchema = {
  criterion: {
    type: 'enum',
    values: ['sse-ratio', 'view'],
    default: 'sse-ratio',
    doc:
      "How the single view is chosen. 'sse-ratio' (label-free): k-means on each mean-filled " +
      'view, the view with the lowest within-cluster share of its total sum of squares, ' +
      "SSE / TSS. 'view': the view given by `view` (no selection k-means). The survey's " +
      'choice by ACC against the labels (an oracle) is not a solver option: solvers never see ' +
      'labels; score each view with criterion view to reproduce it.',
  },
  view: {
    type: 'int',
    min: 1,
    max: 64,
    default: 1,
    doc: "1-based view to use when criterion is 'view' (ignored otherwise).",
  },
  replicates: {
    type: 'int',
    min: 1,
    max: 100,
    default: 20,
    doc: "k-means++ starts per view for the 'sse-ratio' selection (lowest SSE kept).",
  },
  iterations: {
    type: 'int',
    min: 1,
    max: 10000,
    default: 1000,
    doc: "Cap on Lloyd iterations of each selection k-means ('sse-ratio' only).",
  },
} as const satisfies ParamSchema;

export type BsvKmeansParams = ParamsOf<typeof bsvKmeansSchema>;
