/**
 * The one rule by which the protocol completes the views of a solver declaring
 * `input: 'complete'`: each view's missing samples take the mean of its present ones
 * (`impute.ts`, the literature's protocol for complete-data baselines). A view with a missing
 * sample becomes dense (n, d_v); a complete view is kept as it is (dense or CSR, no copy).
 * `observed` keeps each view's original present samples, for a method whose statistics must
 * come from them alone (kmeans-concat's 'zscore').
 * Cost O(n·d_v) time and memory per view with a missing sample; nothing for complete views.
 */
import type { View } from '../dataset';
import type { Mat } from '../linalg/types';
import { meanImputed } from './impute';
import { SolverInputError } from './params';
import type { SolverInput } from './types';

/** A completed input and the sentence the run's notes carry about it (null: nothing filled). */
export interface FilledInput {
  readonly input: SolverInput;
  readonly note: string | null;
}

/** 0..n−1: the present samples of a complete view. */
function allSamples(n: number): Int32Array {
  return Int32Array.from({ length: n }, (_, i) => i);
}

/**
 * `input` with every view holding all n samples (see the file comment). When no view misses a
 * sample, `input` itself is returned (same object), without `observed`.
 */
export function fillMissing(input: SolverInput): FilledInput {
  const { n } = input;
  if (input.observed || input.views.every((v) => v.present.length === n)) {
    return { input, note: fillNote(input) };
  }
  input.views.forEach((v, i) => {
    // A mean over no sample would fill the view with zeros: a silent wrong answer.
    if (v.present.length === 0) {
      throw new SolverInputError(
        `view '${v.name}' (view ${i + 1}) has no present sample: its missing samples cannot be ` +
          'filled with its mean; remove the view or give it samples',
      );
    }
  });
  const every = allSamples(n);
  const views: View[] = input.views.map((v) =>
    v.present.length === n
      ? v
      : { name: v.name, d: v.d, present: every, values: { kind: 'dense', ...meanImputed(v, n) } },
  );
  const filled: SolverInput = {
    n,
    views,
    sampleIds: input.sampleIds,
    observed: input.views.map((v) => v.present),
  };
  return { input: filled, note: fillNote(filled) };
}

/**
 * The note of a filled input (`fillMissing`): the rule and the count missing per view; null when
 * nothing was filled. A solver may place it among its own notes; the protocol adds it otherwise.
 */
export function fillNote(input: SolverInput): string | null {
  const { observed, n } = input;
  if (!observed) return null;
  const missing = observed.map((p) => n - p.length);
  return (
    'missing samples of each view imputed with the mean of that view’s present samples ' +
    `(missing per view: ${missing.join(', ')} of ${n}; views with missing samples densified)`
  );
}

/** The samples a view held before filling: `observed[v]`, else its own `present`. */
export function observedSamples(input: SolverInput, v: number): Int32Array {
  return input.observed?.[v] ?? input.views[v]!.present;
}

/**
 * A complete view's values as a dense (n, d) matrix: the view's own array when dense, a dense
 * copy of a CSR view. Throws when the view misses samples (the protocol fills them first).
 */
export function denseValues(view: View, n: number): Mat {
  if (view.present.length !== n) {
    throw new Error(
      `view '${view.name}' holds ${view.present.length} of ${n} samples; fill it first (fillMissing)`,
    );
  }
  const x = view.values;
  if (x.kind === 'dense') return { rows: x.rows, cols: x.cols, data: x.data };
  return meanImputed(view, n);
}
