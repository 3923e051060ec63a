/**
 * The orientation decisions of the mapper: n, the number of samples, and for each view whether
 * samples are its rows or its columns; then the bounds n and d must respect before any n-sized
 * array is made.
 */
import type { Decision } from '../../core/dataset';
import type { LoadOptions } from '../../shared/contract';
import { DataError } from '../errors';
import { MAX_SAMPLES, MAX_SPARSE_FEATURES } from '../limits';
import type { MatFile } from '../mat/types';
import { describe } from '../mat/types';
import type { LabelSource } from './labels';
import { dims2, type Orientation, type ViewSource } from './matrix';

/**
 * What n should be before the views are oriented: the number of labels, else the length of a
 * presence matrix 'ind', else unknown (null; the views then tell). `nSource` says where n came
 * from, for the decisions and errors.
 */
export function sampleCountHint(
  file: MatFile,
  labels: LabelSource | null,
  nViews: number,
): { n: number | null; nSource: string } {
  if (labels) {
    const n = labels.values.length;
    return { n, nSource: `the ${n} labels in '${labels.name}'` };
  }
  const len = presenceLength(file, nViews);
  if (len !== null) return { n: len, nSource: `the presence matrix 'ind'` };
  return { n: null, nSource: '' };
}

/** The length of a presence structure (index cell, ind, mask), for inferring n. */
function presenceLength(file: MatFile, views: number): number | null {
  const ind = file.variables.get('ind');
  if (ind?.type === 'numeric' && ind.dims.length === 2) {
    if (ind.dims[1] === views) return ind.dims[0]!;
    if (ind.dims[0] === views) return ind.dims[1]!;
  }
  return null;
}

/**
 * The orientation decisions: whether each view holds samples as rows or as columns, and n.
 * Forced by `options.orientation`, else each view's dimension equal to n (from the hint, or
 * the dimension all views share) is its samples; a square view follows the other views.
 */
export function decideOrientation(
  views: ViewSource[],
  n: number | null,
  nSource: string,
  file: MatFile,
  options: LoadOptions,
): { n: number; orientation: Orientation[]; decisions: Decision[]; warnings: string[] } {
  const decisions: Decision[] = [];
  const warnings: string[] = [];
  if (options.orientation !== undefined) {
    const o = options.orientation;
    const ns = views.map((v) => (o === 'n x d' ? dims2(v.value)[0] : dims2(v.value)[1]));
    const bad = views.findIndex((_, i) => ns[i] !== ns[0] || (n !== null && ns[i] !== n));
    if (bad >= 0) {
      throw new DataError(
        file.path,
        `orientation '${o}' was forced, but then ${views[bad]!.name} (${describe(views[bad]!.value)}) ` +
          `has ${ns[bad]} samples where ${n ?? ns[0]} are expected${n !== null ? ` (from ${nSource})` : ''}`,
        { variable: views[bad]!.name },
      );
    }
    decisions.push({
      topic: 'orientation',
      choice: `every view ${o}`,
      reason: 'chosen by the user',
      overridden: true,
    });
    return { n: ns[0]!, orientation: views.map(() => o), decisions, warnings };
  }

  if (n === null) {
    // No labels: n is the dimension all views share.
    const rows = new Set(views.map((v) => dims2(v.value)[0]));
    const cols = new Set(views.map((v) => dims2(v.value)[1]));
    const rowN = rows.size === 1 ? [...rows][0]! : null;
    const colN = cols.size === 1 ? [...cols][0]! : null;
    if (rowN !== null && colN !== null && rowN !== colN) {
      n = Math.max(rowN, colN);
      nSource = `the dimension all views share (${rowN} rows, ${colN} columns each; the larger was taken)`;
      warnings.push(
        `every view is ${rowN}×${colN} and there are no labels: n = ${n} was assumed; ` +
          `force the orientation if that is wrong`,
      );
    } else if (rowN !== null || colN !== null) {
      n = (rowN ?? colN)!;
      nSource = `the dimension all views share`;
    } else {
      throw new DataError(
        file.path,
        `the views share no dimension (${views.map((v) => `${v.name}: ${describe(v.value)}`).join(', ')}), ` +
          `so the number of samples cannot be told`,
      );
    }
  }

  const orientation: (Orientation | null)[] = views.map((v) => {
    const [r, c] = dims2(v.value);
    if (r === n && c !== n) return 'n x d';
    if (c === n && r !== n) return 'd x n';
    if (r === n && c === n) return null; // square: decided by the other views below
    throw new DataError(
      file.path,
      `${v.name} is ${describe(v.value)}, but the data have ${n} samples (from ${nSource}): ` +
        `neither dimension matches`,
      { variable: v.name },
    );
  });
  const decided = orientation.filter((o): o is Orientation => o !== null);
  const majority: Orientation =
    decided.filter((o) => o === 'd x n').length > decided.length / 2 ? 'd x n' : 'n x d';
  views.forEach((v, i) => {
    if (orientation[i] === null) {
      orientation[i] = majority;
      decisions.push({
        topic: 'orientation',
        choice: `${v.name} ${majority}`,
        reason: decided.length
          ? `${v.name} is square (${describe(v.value)}); the other views are ${majority}`
          : `${v.name} is square and so are all views; ${majority} assumed`,
        overridden: false,
      });
      if (!decided.length) warnings.push(`${v.name} is square: orientation '${majority}' assumed`);
    }
  });
  const kinds = new Set(decided);
  if (decided.length) {
    decisions.push({
      topic: 'orientation',
      choice:
        kinds.size === 1
          ? `${decided[0]} (samples are ${decided[0] === 'n x d' ? 'rows' : 'columns'})`
          : `mixed: ${views.map((v, i) => `${v.name} ${orientation[i]}`).join(', ')}`,
      reason: `n = ${n} from ${nSource} matches that dimension`,
      overridden: false,
    });
  }
  return { n, orientation: orientation as Orientation[], decisions, warnings };
}

/**
 * Refuses sizes the file declares but cannot hold, before any n-sized array is made: a dense
 * view holds all its values, but an empty one (n × 0) or a sparse one (jc bounds only its
 * columns) can declare any n or d.
 */
export function checkShapeBounds(
  file: MatFile,
  views: readonly ViewSource[],
  orientation: readonly Orientation[],
  n: number,
): void {
  views.forEach((v, i) => {
    const [r, c] = dims2(v.value);
    const d = orientation[i] === 'd x n' ? r : c;
    if (n > MAX_SAMPLES) {
      throw new DataError(
        file.path,
        `${v.name} (${describe(v.value)}) declares ${n} samples; at most ${MAX_SAMPLES} are supported`,
        { variable: v.name },
      );
    }
    if (v.value.type === 'sparse' && d > MAX_SPARSE_FEATURES) {
      throw new DataError(
        file.path,
        `${v.name} (${describe(v.value)}) declares ${d} features; a sparse view has at most ${MAX_SPARSE_FEATURES}`,
        { variable: v.name },
      );
    }
  });
}
