/**
 * The mapper: from the variables of a file (MAT v5, MAT v7.3, NPZ) to a MultiViewDataset.
 *
 * Real files disagree on everything: where the views are (`X`, `data`, `fea` cells or
 * separate `V1..V3` / `msr1..msr5` variables), what the labels are called (`Y`, `truelabel`
 * copies per view, an n×V `y0`), whether samples are rows or columns, and how missing views are
 * marked. The mapper infers each of these, records every decision with its reason, and lets
 * every decision be forced through LoadOptions. The five missingness encodings it knows
 * (../shared/specs/datasets.md):
 *   1. all-NaN sample columns plus `index{v}` (1-based present samples)    -> 'nan-columns'
 *   2. all-zero sample rows plus an n×V presence matrix `ind`             -> 'zero-rows-with-presence'
 *   3. a separate file of n×V 0/1 masks (`folds{k}`), chosen by the user  -> 'mask-file'
 *   4. mask cells inside the data file (`per10{k}`, `per{i}{j}`), chosen  -> 'mask-variable'
 *   5. naturally incomplete data (NaN columns with or without `index`)    -> 'nan-columns'
 * Without any of these a view is complete. Zero rows alone never mean "missing": complete
 * data contain all-zero samples too (BDGP view 3: 1915 of 2500).
 *
 * Each decision is a function of its own module that returns its Decision record:
 * views (`./views.ts`), labels and label base (`./labels.ts`), n and orientation
 * (`./orientation.ts`), missingness (`./presence.ts`); `./build.ts` gathers the views.
 */
import type { Decision, Labels, MultiViewDataset } from '../../core/dataset';
import type { LoadOptions } from '../../shared/contract';
import type { MatFile } from '../mat/types';
import { buildViews } from './build';
import { decideLabelBase, decideLabels } from './labels';
import { complexWarnings } from './matrix';
import { checkShapeBounds, decideOrientation, sampleCountHint } from './orientation';
import { decidePresence } from './presence';
import { decideViews } from './views';

export interface MapInput {
  file: MatFile;
  /** Format recorded in provenance, e.g. 'mat-v5'. */
  format: string;
  options: LoadOptions;
  /** The separate mask file named by options.mask, already read. */
  maskFile?: MatFile;
}

/**
 * Maps a file's variables to a dataset: views, labels, n and orientation, label base,
 * missingness, in that order (each may refuse the file), then the views over their present
 * samples. Sample ids are not read from MAT or NPZ files (`sampleIds: null`).
 */
export function mapVariables(input: MapInput): MultiViewDataset {
  const { file, options } = input;
  const warnings: string[] = [...file.warnings, ...complexWarnings(file)];
  const found = decideViews(file, options);
  const { views } = found;
  const decisions: Decision[] = [found.decision];
  const used = [...found.variables];

  const labelled = decideLabels(file, options);
  decisions.push(labelled.decision);
  warnings.push(...labelled.warnings);
  const labelSrc = labelled.source;
  if (labelSrc) used.push(labelSrc.name);

  const hint = sampleCountHint(file, labelSrc, views.length);
  const oriented = decideOrientation(views, hint.n, hint.nSource, file, options);
  decisions.push(...oriented.decisions);
  warnings.push(...oriented.warnings);
  const { n: nSamples, orientation } = oriented;
  checkShapeBounds(file, views, orientation, nSamples);

  let labels: Labels | null = null;
  if (labelSrc) {
    const based = decideLabelBase(file, labelSrc, nSamples);
    labels = based.labels;
    decisions.push(based.decision);
  }

  const presence = decidePresence(file, input.maskFile, options, views, orientation, nSamples);
  decisions.push(...presence.decisions);
  warnings.push(...presence.warnings);
  used.push(...presence.used);

  const built = buildViews(file, views, orientation, presence.present, nSamples);
  warnings.push(...built.warnings);
  let { missingness } = presence;
  if (missingness === 'complete' && built.views.some((v) => v.present.length < nSamples)) {
    missingness = 'nan-columns';
  }

  return {
    n: nSamples,
    views: built.views,
    labels,
    sampleIds: null,
    provenance: {
      file: file.path,
      format: input.format,
      variables: used,
      orientation,
      missingness,
      decisions,
      warnings,
    },
  };
}
