/**
 * Which mapping overrides (LoadOptions) a file kind can honour. Every option either takes
 * effect or is refused here, before anything is read, with a DataError naming the option and
 * why: an override that the loader would skip while the app shows it as "set by you" is the
 * failure this module exists to prevent.
 *
 * MAT and NPZ files hold named variables, so `views`, `labels`, `orientation`, `mask` and
 * `fold` (with a mask) map them; a labels file is refused (their labels are a variable).
 * CSV and NPY files are one view per file with samples as rows: a labels file applies,
 * `labels: 'none'` and `orientation: 'n x d'` agree with what they are, and every option that
 * names a variable, a mask or samples as columns is refused.
 */
import type { Decision } from '../../core/dataset';
import type { LoadOptions } from '../../shared/contract';
import { DataError } from '../errors';

/** What a file kind is, for the overrides: named variables, or one view per file. */
export type OverrideKind = 'variables' | 'view-files';

/** The words the form and the CLI use for an option, so a refusal names what the user set. */
const OPTION_NAMES: Readonly<Record<keyof LoadOptions, string>> = {
  mask: "the mask ('mask')",
  fold: "the fold ('fold')",
  views: "the view container ('views')",
  labels: "the label variable ('labels')",
  orientation: "the orientation ('orientation')",
  labelsFile: "the labels file ('labelsFile')",
};

/**
 * Throws a DataError for the first option `kind` cannot honour; `file` is the first data
 * file and `label` the format in words (e.g. 'CSV').
 */
export function refuseOverrides(
  kind: OverrideKind,
  label: string,
  file: string,
  options: LoadOptions,
): void {
  const refuse = (option: keyof LoadOptions, why: string): never => {
    throw new DataError(file, `${OPTION_NAMES[option]} cannot be applied: ${why}`);
  };
  if (options.fold !== undefined && options.mask === undefined) {
    refuse('fold', 'a fold chooses one mask of a mask variable or file; give the mask too');
  }
  if (kind === 'variables') {
    if (options.labelsFile !== undefined) {
      refuse(
        'labelsFile',
        `a labels file goes with CSV or NPY view files; a ${label} file keeps its labels in a variable (choose it as the label variable)`,
      );
    }
    return;
  }
  const oneViewPerFile = `a ${label} file holds one view and no named variables`;
  if (options.views !== undefined) {
    refuse('views', `${oneViewPerFile}; add each view as its own file instead`);
  }
  if (options.labels !== undefined && options.labels !== 'none') {
    refuse('labels', `${oneViewPerFile}; choose a labels file instead`);
  }
  if (options.labels === 'none' && options.labelsFile !== undefined) {
    refuse('labels', "'none' and a labels file were both given; keep one");
  }
  if (options.orientation === 'd x n') {
    refuse(
      'orientation',
      `samples are the rows of every ${label} view file; transpose the file to use samples as columns`,
    );
  }
  if (options.mask !== undefined) {
    refuse(
      'mask',
      `masks apply to MAT and NPZ files; in ${label} view files a missing sample is a row that is entirely empty or NaN`,
    );
  }
}

/**
 * Marks the decisions of a one-view-per-file dataset that the user's options set (the
 * orientation 'n x d', labels 'none'), so the app shows them as set by the user.
 */
export function markOverridden(decisions: readonly Decision[], options: LoadOptions): Decision[] {
  return decisions.map((d) => {
    if (d.topic === 'orientation' && options.orientation !== undefined) {
      return {
        ...d,
        reason: 'chosen by the user; samples are rows in every file',
        overridden: true,
      };
    }
    if (d.topic === 'labels' && options.labels === 'none') {
      return { ...d, reason: 'chosen by the user', overridden: true };
    }
    return d;
  });
}
