/**
 * The labels decisions of the mapper: which variable holds the labels (a vector, per-view copies
 * in a cell, or an n×V matrix of identical columns) and, once n is known, the label base.
 */
import type { Decision, Labels } from '../../core/dataset';
import { makeLabels } from '../../core/dataset';
import type { LoadOptions } from '../../shared/contract';
import { DataError } from '../errors';
import type { MatFile, MatValue } from '../mat/types';
import { describe } from '../mat/types';
import { isComplex, refuseComplex } from './matrix';

/** The label vector found: the variable's name and its n values. */
export interface LabelSource {
  name: string;
  values: Float64Array;
}

/** Usual names of the label variable, in the order they are tried. */
export const LABEL_NAMES = [
  'Y',
  'y',
  'gt',
  'GT',
  'gnd',
  'truth',
  'truelabel',
  'truelabels',
  'true_label',
  'label',
  'labels',
  'Label',
  'Labels',
  'y0',
  'Y0',
  'class',
  'target',
];

/** A label vector: numeric, n×1 or 1×n, or n×V with identical columns. */
function labelVector(
  v: MatValue,
  name: string,
  file: MatFile,
  warnings: string[],
): Float64Array | null {
  if (v.type === 'cell') {
    // Per-view copies (truelabel{v}): all must be vectors of one length.
    const copies = v.items.map((item, i) => labelVector(item, `${name}{${i + 1}}`, file, warnings));
    const first = copies[0];
    if (!first || copies.some((c) => c === null || c.length !== first.length)) return null;
    copies.forEach((c, i) => {
      if (i === 0 || c === null) return;
      let diff = 0;
      for (let k = 0; k < first.length; k++) if (c[k] !== first[k]) diff++;
      if (diff > 0) {
        warnings.push(
          `${name}{${i + 1}} differs from ${name}{1} at ${diff} samples; ${name}{1} was used`,
        );
      }
    });
    return first;
  }
  if (v.type !== 'numeric' || v.dims.length !== 2 || isComplex(v)) return null;
  const [r, c] = [v.dims[0]!, v.dims[1]!];
  if (r === 1 || c === 1) return v.re;
  // n×V matrix of per-view label copies (y0): use column 1 if the columns agree.
  const n = Math.max(r, c);
  const k = Math.min(r, c);
  // An empty matrix (n × 0) holds no labels whatever n it declares.
  if (k === 0 || k > 8) return null;
  const byCols = r >= c;
  const at = (i: number, j: number): number => (byCols ? v.re[i + j * r]! : v.re[j + i * r]!);
  for (let j = 1; j < k; j++) for (let i = 0; i < n; i++) if (at(i, j) !== at(i, 0)) return null;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = at(i, 0);
  return out;
}

/**
 * The labels decision: the label vector the user named (`options.labels`, or 'none'), else the
 * first variable of LABEL_NAMES that holds one; with the decision record and the warnings of
 * per-view copies that disagree.
 */
export function decideLabels(
  file: MatFile,
  options: LoadOptions,
): { source: LabelSource | null; decision: Decision; warnings: string[] } {
  const warnings: string[] = [];
  if (options.labels === 'none') {
    const decision: Decision = {
      topic: 'labels',
      choice: 'no labels',
      reason: 'chosen by the user',
      overridden: true,
    };
    return { source: null, decision, warnings };
  }
  if (options.labels !== undefined) {
    const v = file.variables.get(options.labels);
    if (v === undefined) {
      throw new DataError(file.path, `no variable '${options.labels}'`, {
        variable: options.labels,
      });
    }
    refuseComplex(file, options.labels, v);
    const values = labelVector(v, options.labels, file, warnings);
    if (!values) {
      throw new DataError(
        file.path,
        `'${options.labels}' is a ${describe(v)}; labels must be a numeric vector (n×1 or 1×n)`,
        { variable: options.labels },
      );
    }
    const decision: Decision = {
      topic: 'labels',
      choice: `labels from '${options.labels}'`,
      reason: 'chosen by the user',
      overridden: true,
    };
    return { source: { name: options.labels, values }, decision, warnings };
  }
  for (const name of LABEL_NAMES) {
    const v = file.variables.get(name);
    if (v === undefined) continue;
    const values = labelVector(v, name, file, warnings);
    if (values) {
      const how =
        v.type === 'cell'
          ? `a cell of ${v.items.length} per-view copies`
          : v.type === 'numeric' && v.dims[0] !== 1 && v.dims[1] !== 1
            ? `a ${describe(v)} matrix of identical per-view columns`
            : `a ${describe(v)} vector`;
      const decision: Decision = {
        topic: 'labels',
        choice: `labels from '${name}'`,
        reason: `'${name}' is a usual label name and holds ${how}`,
        overridden: false,
      };
      return { source: { name, values }, decision, warnings };
    }
  }
  const decision: Decision = {
    topic: 'labels',
    choice: 'no labels',
    reason: `no variable named ${LABEL_NAMES.slice(0, 9).join(', ')}, … holds a label vector`,
    overridden: false,
  };
  return { source: null, decision, warnings };
}

/**
 * The label-base decision: the labels checked against the n samples of the views (one finite
 * number each) and made into classes; whether they are 0- or 1-based is recorded.
 */
export function decideLabelBase(
  file: MatFile,
  source: LabelSource,
  nSamples: number,
): { labels: Labels; decision: Decision } {
  if (source.values.length !== nSamples) {
    throw new DataError(
      file.path,
      `labels '${source.name}' have ${source.values.length} values but the views have ${nSamples} samples`,
      { variable: source.name },
    );
  }
  const bad = source.values.findIndex((x) => !Number.isFinite(x));
  if (bad >= 0) {
    throw new DataError(
      file.path,
      `labels '${source.name}' hold ${source.values[bad]} at sample ${bad + 1}; every label must be a number`,
      { variable: source.name },
    );
  }
  const labels = makeLabels(source.name, source.values);
  const min = labels.classes[0] as number;
  const decision: Decision = {
    topic: 'label-base',
    choice: `${labels.classes.length} classes, values ${min}..${labels.classes.at(-1)}`,
    reason:
      min === 0
        ? 'the smallest label is 0: labels are 0-based'
        : min === 1
          ? 'the smallest label is 1: labels are 1-based (MATLAB)'
          : `the smallest label is ${min}; original values are kept for export`,
    overridden: false,
  };
  return { labels, decision };
}
