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
 */
import type {
  Decision,
  Labels,
  MissingnessEncoding,
  MultiViewDataset,
  View,
  ViewValues,
} from '../core/dataset';
import { makeLabels } from '../core/dataset';
import type { LoadOptions } from '../shared/contract';
import { DataError, nonFiniteWarning } from './errors';
import { MAX_SAMPLES, MAX_SPARSE_FEATURES } from './limits';
import type { MatFile, MatNumeric, MatSparse, MatValue } from './mat/types';
import { describe } from './mat/types';

type Matrix = MatNumeric | MatSparse;
type Orientation = 'n x d' | 'd x n';

interface ViewSource {
  name: string;
  value: Matrix;
}

const VIEW_CONTAINERS = ['X', 'data', 'fea', 'features', 'views', 'x', 'Data', 'Fea'];
const LABEL_NAMES = [
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
const SEPARATE_VIEW = /^(V|v|X|x|view|View|msr|fea|Fea|data)_?(\d+)$/;

/** A real 2-D matrix: complex data are never views or labels (their imaginary part matters). */
function isMatrix(v: MatValue | undefined): v is Matrix {
  return (
    v !== undefined &&
    !isComplex(v) &&
    (v.type === 'sparse' || (v.type === 'numeric' && v.dims.length === 2))
  );
}

function isComplex(v: MatValue): boolean {
  return (
    (v.type === 'numeric' && v.im !== undefined) || (v.type === 'sparse' && v.pi !== undefined)
  );
}

const COMPLEX = 'complex values are not supported';

/** Refuses a complex variable the user named as a view or as the labels. */
function refuseComplex(file: MatFile, name: string, v: MatValue): void {
  if (isComplex(v)) {
    throw new DataError(file.path, `'${name}' is a ${describe(v)} array: ${COMPLEX}`, {
      variable: name,
    });
  }
}

/** A warning per complex variable (top level or in a cell), since none can be used. */
function complexWarnings(file: MatFile): string[] {
  const out: string[] = [];
  for (const [name, v] of file.variables) {
    if (isComplex(v)) out.push(`variable '${name}': ${COMPLEX}; it was skipped`);
    else if (v.type === 'cell') {
      v.items.forEach((item, i) => {
        if (isComplex(item)) out.push(`${name}{${i + 1}}: ${COMPLEX}; it was skipped`);
      });
    }
  }
  return out;
}

function dims2(v: Matrix): [number, number] {
  return [v.dims[0]!, v.dims[1]!];
}

/** The view candidates of a file, as the user chose or as inferred, with the decision. */
function findViews(
  file: MatFile,
  options: LoadOptions,
  decisions: Decision[],
): { views: ViewSource[]; variables: string[] } {
  const vars = file.variables;
  const cellViews = (name: string): ViewSource[] | null => {
    const v = vars.get(name);
    if (v?.type !== 'cell' || v.items.length === 0) return null;
    const out: ViewSource[] = [];
    v.items.forEach((item, i) => {
      if (options.views !== undefined) refuseComplex(file, `${name}{${i + 1}}`, item);
      if (item.type === 'numeric' && item.dims.length > 2) {
        throw new DataError(
          file.path,
          `${name}{${i + 1}} is a ${describe(item)} array; views must be 2-D (samples × features)`,
          { variable: name },
        );
      }
      if (isMatrix(item)) out.push({ name: `${name}{${i + 1}}`, value: item });
    });
    return out.length === v.items.length ? out : null;
  };

  if (options.views !== undefined) {
    const names = options.views
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (names.length === 1) {
      const only = names[0]!;
      const v = vars.get(only);
      if (v === undefined) {
        throw new DataError(
          file.path,
          `no variable '${only}' (variables: ${[...vars.keys()].join(', ')})`,
          { variable: only },
        );
      }
      refuseComplex(file, only, v);
      const fromCell = cellViews(only);
      if (fromCell) {
        decisions.push({
          topic: 'views',
          choice: `${fromCell.length} views from cell '${only}'`,
          reason: 'chosen by the user',
          overridden: true,
        });
        return { views: fromCell, variables: [only] };
      }
      if (!isMatrix(v)) {
        throw new DataError(
          file.path,
          `'${only}' is a ${describe(v)}, not a cell of views or a 2-D matrix`,
          { variable: only },
        );
      }
    }
    const views = names.map((name) => {
      const v = vars.get(name);
      if (v === undefined)
        throw new DataError(file.path, `no variable '${name}'`, { variable: name });
      refuseComplex(file, name, v);
      if (!isMatrix(v)) {
        throw new DataError(file.path, `'${name}' is a ${describe(v)}, not a 2-D matrix`, {
          variable: name,
        });
      }
      return { name, value: v };
    });
    decisions.push({
      topic: 'views',
      choice: `${views.length} views: ${names.join(', ')}`,
      reason: 'chosen by the user',
      overridden: true,
    });
    return { views, variables: names };
  }

  for (const name of VIEW_CONTAINERS) {
    const views = cellViews(name);
    if (views) {
      decisions.push({
        topic: 'views',
        choice: `${views.length} views from cell '${name}'`,
        reason: `'${name}' is a cell of 2-D matrices, the usual view container`,
        overridden: false,
      });
      return { views, variables: [name] };
    }
  }

  // Separate top-level variables V1..Vk, msr1..msr5, x1..x6, ...
  const groups = new Map<string, { name: string; index: number }[]>();
  for (const [name, v] of vars) {
    const m = SEPARATE_VIEW.exec(name);
    if (m && isMatrix(v)) {
      const key = m[1]!;
      // Appended in place: copying the group per variable was quadratic in their number.
      const group = groups.get(key);
      if (group) group.push({ name, index: Number(m[2]) });
      else groups.set(key, [{ name, index: Number(m[2]) }]);
    }
  }
  const best = [...groups.values()].sort((a, b) => b.length - a.length)[0];
  if (best && best.length >= 2) {
    best.sort((a, b) => a.index - b.index);
    const names = best.map((b) => b.name);
    decisions.push({
      topic: 'views',
      choice: `${names.length} views from separate variables ${names.join(', ')}`,
      reason: 'no view cell; these variables share a name prefix and are 2-D matrices',
      overridden: false,
    });
    return {
      views: names.map((name) => ({ name, value: vars.get(name) as Matrix })),
      variables: names,
    };
  }

  // Any other cell of 2-D matrices that is not a mask or label container.
  for (const [name] of vars) {
    if (LABEL_NAMES.includes(name) || isMaskName(name) || /^(index|ind)$/i.test(name)) continue;
    const views = cellViews(name);
    if (views && views.some((v) => Math.min(...dims2(v.value)) > 1)) {
      decisions.push({
        topic: 'views',
        choice: `${views.length} views from cell '${name}'`,
        reason: `the only cell of 2-D matrices that is not a label, index or mask container`,
        overridden: false,
      });
      return { views, variables: [name] };
    }
  }

  // Nothing: say what the file holds, and refuse known non-feature layouts clearly.
  for (const [name, v] of vars) {
    if (v.type === 'numeric' && v.dims.length === 3 && v.dims[0] === v.dims[1]) {
      throw new DataError(
        file.path,
        `'${name}' is a ${v.dims.join('×')} array of precomputed graphs (one ${v.dims[0]}×${v.dims[1]} ` +
          `affinity matrix per view), not feature views; Multiview Studio needs the features ` +
          `(samples × features per view)`,
        { variable: name },
      );
    }
  }
  const listing = [...vars].map(([k, v]) => `${k} (${describe(v)})`).join(', ');
  if ([...vars.keys()].some(isMaskName)) {
    throw new DataError(
      file.path,
      `this file holds only missing-view masks (${listing}), no views; open the data file and ` +
        `choose this file as its mask`,
    );
  }
  throw new DataError(
    file.path,
    `no views found: expected a cell 'X', 'data' or 'fea' of 2-D matrices, or separate ` +
      `variables such as V1..Vk; the file holds ${listing || 'no readable variable'}` +
      (file.warnings.length || complexWarnings(file).length
        ? ` (${[...file.warnings, ...complexWarnings(file)].join('; ')})`
        : ''),
  );
}

function isMaskName(name: string): boolean {
  return /^(folds?|per\d*|miss\d*|mask\d*|W)$/i.test(name) || /^missing/i.test(name);
}

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

function findLabels(
  file: MatFile,
  options: LoadOptions,
  decisions: Decision[],
  warnings: string[],
): { name: string; values: Float64Array } | null {
  if (options.labels === 'none') {
    decisions.push({
      topic: 'labels',
      choice: 'no labels',
      reason: 'chosen by the user',
      overridden: true,
    });
    return null;
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
    decisions.push({
      topic: 'labels',
      choice: `labels from '${options.labels}'`,
      reason: 'chosen by the user',
      overridden: true,
    });
    return { name: options.labels, values };
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
      decisions.push({
        topic: 'labels',
        choice: `labels from '${name}'`,
        reason: `'${name}' is a usual label name and holds ${how}`,
        overridden: false,
      });
      return { name, values };
    }
  }
  decisions.push({
    topic: 'labels',
    choice: 'no labels',
    reason: `no variable named ${LABEL_NAMES.slice(0, 9).join(', ')}, … holds a label vector`,
    overridden: false,
  });
  return null;
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

function orient(
  views: ViewSource[],
  n: number | null,
  nSource: string,
  file: MatFile,
  options: LoadOptions,
  decisions: Decision[],
  warnings: string[],
): { n: number; orientation: Orientation[] } {
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
    return { n: ns[0]!, orientation: views.map(() => o) };
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
  return { n, orientation: orientation as Orientation[] };
}

/**
 * Refuses sizes the file declares but cannot hold, before any n-sized array is made: a dense
 * view holds all its values, but an empty one (n × 0) or a sparse one (jc bounds only its
 * columns) can declare any n or d.
 */
function checkShapeBounds(
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

/** Dense column-major matrix as (n, d) row-major rows for the given samples. */
function denseRows(
  v: MatNumeric,
  o: Orientation,
  samples: ArrayLike<number>,
): { data: Float64Array; d: number } {
  const [r, c] = [v.dims[0]!, v.dims[1]!];
  const d = o === 'd x n' ? r : c;
  const m = samples.length;
  const out = new Float64Array(m * d);
  const re = v.re;
  if (o === 'd x n') {
    // Column j of a d×n column-major array is sample j's features, contiguous.
    for (let k = 0; k < m; k++) {
      const j = samples[k]!;
      out.set(re.subarray(j * d, j * d + d), k * d);
    }
  } else {
    // n×d column-major: feature f of sample i is at i + f*n. Walk each feature column once.
    for (let f = 0; f < d; f++) {
      const col = f * r;
      for (let k = 0; k < m; k++) out[k * d + f] = re[col + samples[k]!]!;
    }
  }
  return { data: out, d };
}

/** Sparse CSC matrix as CSR (n, d) rows for the given (sorted) samples. */
function sparseRows(
  v: MatSparse,
  o: Orientation,
  samples: Int32Array,
): ViewValues & { kind: 'csr' } {
  const [r, c] = v.dims;
  const m = samples.length;
  if (o === 'd x n') {
    // Columns are samples: CSC columns are already the CSR rows.
    const d = r;
    const indptr = new Int32Array(m + 1);
    for (let k = 0; k < m; k++) {
      const j = samples[k]!;
      indptr[k + 1] = indptr[k]! + (v.jc[j + 1]! - v.jc[j]!);
    }
    const nz = indptr[m]!;
    const indices = new Int32Array(nz);
    const data = new Float64Array(nz);
    for (let k = 0; k < m; k++) {
      const j = samples[k]!;
      indices.set(v.ir.subarray(v.jc[j]!, v.jc[j + 1]!), indptr[k]!);
      data.set(v.pr.subarray(v.jc[j]!, v.jc[j + 1]!), indptr[k]!);
    }
    return { kind: 'csr', rows: m, cols: d, indptr, indices, data };
  }
  // n×d CSC -> CSR by counting entries per row (rows come out sorted by column).
  const d = c;
  const rowOf = new Int32Array(r).fill(-1);
  for (let k = 0; k < m; k++) rowOf[samples[k]!] = k;
  const indptr = new Int32Array(m + 1);
  for (let p = 0; p < v.jc[c]!; p++) {
    const k = rowOf[v.ir[p]!]!;
    if (k >= 0) indptr[k + 1]!++;
  }
  for (let k = 0; k < m; k++) indptr[k + 1]! += indptr[k]!;
  const fill = indptr.slice(0, m);
  const indices = new Int32Array(indptr[m]!);
  const data = new Float64Array(indptr[m]!);
  for (let j = 0; j < c; j++) {
    for (let p = v.jc[j]!; p < v.jc[j + 1]!; p++) {
      const k = rowOf[v.ir[p]!]!;
      if (k < 0) continue;
      const at = fill[k]!++;
      indices[at] = j;
      data[at] = v.pr[p]!;
    }
  }
  return { kind: 'csr', rows: m, cols: d, indptr, indices, data };
}

/** For each sample, whether all of its features are NaN (a missing sample). */
function allNanSamples(v: Matrix, o: Orientation, n: number): Uint8Array {
  const out = new Uint8Array(n);
  if (v.type === 'sparse') return out; // a sparse matrix stores no NaN columns in practice
  const [r, c] = [v.dims[0]!, v.dims[1]!];
  const d = o === 'd x n' ? r : c;
  if (d === 0) return out;
  for (let i = 0; i < n; i++) {
    let all = true;
    for (let f = 0; f < d && all; f++) {
      const x = o === 'd x n' ? v.re[i * d + f]! : v.re[i + f * r]!;
      if (!Number.isNaN(x)) all = false;
    }
    out[i] = all ? 1 : 0;
  }
  return out;
}

function allZeroSamples(v: Matrix, o: Orientation, n: number): Uint8Array {
  const out = new Uint8Array(n).fill(1);
  if (v.type === 'sparse') {
    for (let j = 0; j < v.dims[1]; j++) {
      for (let p = v.jc[j]!; p < v.jc[j + 1]!; p++) {
        if (v.pr[p] !== 0) out[o === 'd x n' ? j : v.ir[p]!] = 0;
      }
    }
    return out;
  }
  const r = v.dims[0]!;
  const d = o === 'd x n' ? r : v.dims[1]!;
  for (let i = 0; i < n; i++) {
    for (let f = 0; f < d; f++) {
      const x = o === 'd x n' ? v.re[i * d + f]! : v.re[i + f * r]!;
      if (x !== 0) {
        out[i] = 0;
        break;
      }
    }
  }
  return out;
}

/** A 0/1 presence mask of n×V (or V×n) as V boolean arrays of length n. */
function maskColumns(
  m: MatValue,
  label: string,
  n: number,
  nViews: number,
  file: string,
): Uint8Array[] {
  if (m.type !== 'numeric' || m.dims.length !== 2) {
    throw new DataError(file, `${label} is a ${describe(m)}, not an n×V 0/1 mask`, {
      variable: label,
    });
  }
  const [r, c] = [m.dims[0]!, m.dims[1]!];
  let byCols: boolean;
  if (r === n && c === nViews) byCols = true;
  else if (r === nViews && c === n) byCols = false;
  else {
    throw new DataError(
      file,
      `${label} is ${r}×${c}; a mask for these data must be ${n}×${nViews} (samples × views)`,
      { variable: label },
    );
  }
  const cols: Uint8Array[] = [];
  for (let v = 0; v < nViews; v++) {
    const col = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const x = byCols ? m.re[i + v * r]! : m.re[v + i * r]!;
      if (x !== 0 && x !== 1) {
        throw new DataError(
          file,
          `${label} has the value ${x} at sample ${i + 1}, view ${v + 1}; a mask holds 0 (missing) or 1 (present)`,
          { variable: label },
        );
      }
      col[i] = x;
    }
    cols.push(col);
  }
  return cols;
}

/** Flattens nested mask cells (per{i}{j}) depth-first into a list of leaf masks with labels. */
function maskFolds(v: MatValue, label: string): { label: string; value: MatValue }[] {
  if (v.type !== 'cell') return [{ label, value: v }];
  return v.items.flatMap((item, i) => maskFolds(item, `${label}{${i + 1}}`));
}

/** Mask variables a file holds, for telling the user which can be applied. */
function maskCandidates(file: MatFile): string[] {
  return [...file.variables]
    .filter(([name, v]) => isMaskName(name) && (v.type === 'cell' || v.type === 'numeric'))
    .map(([name, v]) => `${name} (${describe(v)})`);
}

export interface MapInput {
  file: MatFile;
  /** Format recorded in provenance, e.g. 'mat-v5'. */
  format: string;
  options: LoadOptions;
  /** The separate mask file named by options.mask, already read. */
  maskFile?: MatFile;
}

export function mapVariables(input: MapInput): MultiViewDataset {
  const { file, options } = input;
  const decisions: Decision[] = [];
  const warnings: string[] = [...file.warnings, ...complexWarnings(file)];
  const { views, variables } = findViews(file, options, decisions);
  const used = [...variables];

  const labelSrc = findLabels(file, options, decisions, warnings);
  let n: number | null = null;
  let nSource = '';
  if (labelSrc) {
    n = labelSrc.values.length;
    nSource = `the ${n} labels in '${labelSrc.name}'`;
    used.push(labelSrc.name);
  } else {
    const len = presenceLength(file, views.length);
    if (len !== null) {
      n = len;
      nSource = `the presence matrix 'ind'`;
    }
  }
  const { n: nSamples, orientation } = orient(
    views,
    n,
    nSource,
    file,
    options,
    decisions,
    warnings,
  );

  checkShapeBounds(file, views, orientation, nSamples);

  // Labels.
  let labels: Labels | null = null;
  if (labelSrc) {
    if (labelSrc.values.length !== nSamples) {
      throw new DataError(
        file.path,
        `labels '${labelSrc.name}' have ${labelSrc.values.length} values but the views have ${nSamples} samples`,
        { variable: labelSrc.name },
      );
    }
    const bad = labelSrc.values.findIndex((x) => !Number.isFinite(x));
    if (bad >= 0) {
      throw new DataError(
        file.path,
        `labels '${labelSrc.name}' hold ${labelSrc.values[bad]} at sample ${bad + 1}; every label must be a number`,
        { variable: labelSrc.name },
      );
    }
    labels = makeLabels(labelSrc.name, labelSrc.values);
    const min = labels.classes[0] as number;
    decisions.push({
      topic: 'label-base',
      choice: `${labels.classes.length} classes, values ${min}..${labels.classes.at(-1)}`,
      reason:
        min === 0
          ? 'the smallest label is 0: labels are 0-based'
          : min === 1
            ? 'the smallest label is 1: labels are 1-based (MATLAB)'
            : `the smallest label is ${min}; original values are kept for export`,
      overridden: false,
    });
  }

  // Presence of each sample in each view.
  const present: Uint8Array[] = views.map(() => new Uint8Array(nSamples).fill(1));
  let missingness: MissingnessEncoding = 'complete';
  const nanMissing = views.map((v, i) => allNanSamples(v.value, orientation[i]!, nSamples));
  let masks = maskCandidates(file);

  if (options.mask !== undefined) {
    const inFile = file.variables.get(options.mask);
    let source: MatValue;
    let sourceName: string;
    let sourceFile: string;
    if (inFile !== undefined) {
      source = inFile;
      sourceName = options.mask;
      sourceFile = file.path;
      missingness = 'mask-variable';
    } else if (input.maskFile) {
      const mf = input.maskFile;
      const candidates = [...mf.variables].filter(
        ([name, v]) => isMaskName(name) || v.type === 'cell' || v.type === 'numeric',
      );
      if (candidates.length === 0) {
        throw new DataError(mf.path, `no mask variable in the mask file`);
      }
      [sourceName, source] = candidates[0]!;
      sourceFile = mf.path;
      missingness = 'mask-file';
      used.push(`${mf.path}:${sourceName}`);
    } else {
      throw new DataError(
        file.path,
        `mask '${options.mask}' is neither a variable of this file nor a readable file` +
          (masks.length ? ` (mask variables here: ${masks.join(', ')})` : ''),
        { variable: options.mask },
      );
    }
    const folds = maskFolds(source, sourceName);
    const fold = options.fold ?? 1;
    if (!Number.isInteger(fold) || fold < 1 || fold > folds.length) {
      throw new DataError(
        sourceFile,
        `fold ${fold} was asked for, but '${sourceName}' holds ${folds.length} mask${folds.length === 1 ? '' : 's'} (folds 1..${folds.length})`,
        { variable: sourceName },
      );
    }
    const chosen = folds[fold - 1]!;
    const cols = maskColumns(chosen.value, chosen.label, nSamples, views.length, sourceFile);
    cols.forEach((col, v) => present[v]!.set(col));
    if (inFile !== undefined) used.push(sourceName);
    decisions.push({
      topic: 'missingness',
      choice: `mask ${chosen.label} (fold ${fold} of ${folds.length}) from ${missingness === 'mask-file' ? sourceFile : 'this file'}`,
      reason: 'chosen by the user; 1 = present, 0 = missing',
      overridden: true,
    });
    // Samples the mask keeps but whose data are all NaN cannot be used.
    views.forEach((v, i) => {
      let conflict = 0;
      for (let s = 0; s < nSamples; s++) {
        if (present[i]![s] && nanMissing[i]![s]) {
          present[i]![s] = 0;
          conflict++;
        }
      }
      if (conflict) {
        warnings.push(
          `${v.name}: ${conflict} samples the mask marks present are all NaN and were treated as missing`,
        );
      }
    });
  } else {
    const index = file.variables.get('index');
    const ind = file.variables.get('ind');
    if (index?.type === 'cell' && index.items.length === views.length) {
      missingness = 'nan-columns';
      used.push('index');
      index.items.forEach((item, v) => {
        if (item.type !== 'numeric') {
          throw new DataError(
            file.path,
            `index{${v + 1}} is a ${describe(item)}, not a list of sample numbers`,
            { variable: 'index' },
          );
        }
        const col = present[v]!;
        col.fill(0);
        for (const x of item.re) {
          if (!Number.isInteger(x) || x < 1 || x > nSamples) {
            throw new DataError(
              file.path,
              `index{${v + 1}} holds ${x}; present-sample numbers must be 1..${nSamples}`,
              { variable: 'index' },
            );
          }
          col[x - 1] = 1;
        }
        let nanButListed = 0;
        let unlistedWithData = 0;
        for (let s = 0; s < nSamples; s++) {
          if (col[s] && nanMissing[v]![s]) {
            nanButListed++;
            col[s] = 0;
          } else if (!col[s] && !nanMissing[v]![s]) unlistedWithData++;
        }
        if (nanButListed) {
          warnings.push(
            `${views[v]!.name}: ${nanButListed} samples listed in index{${v + 1}} are all NaN and were treated as missing`,
          );
        }
        if (unlistedWithData) {
          warnings.push(
            `${views[v]!.name}: ${unlistedWithData} samples not in index{${v + 1}} hold data; index was followed`,
          );
        }
      });
      decisions.push({
        topic: 'missingness',
        choice: `present samples from index{v} (1-based); missing samples are all-NaN`,
        reason: `the file has a cell 'index' with one list per view`,
        overridden: false,
      });
      if (file.variables.has('MissingStatus')) {
        masks = masks.filter((m) => !m.startsWith('MissingStatus '));
        decisions.push({
          topic: 'missingness',
          choice: `MissingStatus ignored`,
          reason: `it is the random pattern before paired samples were restored, not the final one; index and the NaN columns are`,
          overridden: false,
        });
      }
    } else if (
      ind?.type === 'numeric' &&
      ind.dims.length === 2 &&
      ((ind.dims[0] === nSamples && ind.dims[1] === views.length) ||
        (ind.dims[1] === nSamples && ind.dims[0] === views.length))
    ) {
      missingness = 'zero-rows-with-presence';
      used.push('ind');
      const cols = maskColumns(ind, 'ind', nSamples, views.length, file.path);
      cols.forEach((col, v) => {
        present[v]!.set(col);
        const zero = allZeroSamples(views[v]!.value, orientation[v]!, nSamples);
        let absentWithData = 0;
        for (let s = 0; s < nSamples; s++) if (!col[s] && !zero[s]) absentWithData++;
        if (absentWithData) {
          warnings.push(
            `${views[v]!.name}: ${absentWithData} samples marked missing in 'ind' hold non-zero data; 'ind' was followed`,
          );
        }
      });
      decisions.push({
        topic: 'missingness',
        choice: `present samples from the presence matrix 'ind' (1 = present); missing samples are zero rows`,
        reason: `the file has an n×V 0/1 matrix 'ind'`,
        overridden: false,
      });
    } else if (nanMissing.some((m) => m.some((x) => x === 1))) {
      missingness = 'nan-columns';
      views.forEach((_, v) => {
        const m = nanMissing[v]!;
        for (let s = 0; s < nSamples; s++) if (m[s]) present[v]![s] = 0;
      });
      decisions.push({
        topic: 'missingness',
        choice: 'samples whose features are all NaN are missing from that view',
        reason: 'some samples are entirely NaN and the file has no index or presence matrix',
        overridden: false,
      });
    } else {
      decisions.push({
        topic: 'missingness',
        choice: 'complete: every sample is present in every view',
        reason: 'no index, presence matrix or all-NaN sample',
        overridden: false,
      });
    }
    if (masks.length) {
      decisions.push({
        topic: 'missingness',
        choice: `mask variables not applied: ${masks.join(', ')}`,
        reason: 'a mask is applied only when chosen (mask variable and fold)',
        overridden: false,
      });
    }
  }

  // Build the views over their present samples.
  const built: View[] = views.map((src, v) => {
    const idx: number[] = [];
    const col = present[v]!;
    for (let s = 0; s < nSamples; s++) if (col[s]) idx.push(s);
    const samples = Int32Array.from(idx);
    const o = orientation[v]!;
    if (samples.length === 0) {
      throw new DataError(file.path, `view ${src.name} has no present sample`, {
        variable: src.name,
      });
    }
    const values: ViewValues =
      src.value.type === 'sparse'
        ? sparseRows(src.value, o, samples)
        : (() => {
            const { data, d } = denseRows(src.value, o, samples);
            return { kind: 'dense' as const, rows: samples.length, cols: d, data };
          })();
    if (values.cols === 0) {
      throw new DataError(file.path, `view ${src.name} has no features (d = 0)`, {
        variable: src.name,
      });
    }
    let nonFinite = 0;
    const vals = values.data;
    for (let i = 0; i < vals.length; i++) if (!Number.isFinite(vals[i]!)) nonFinite++;
    if (nonFinite) {
      warnings.push(nonFiniteWarning(src.name, nonFinite));
    }
    return { name: src.name, d: values.cols, values, present: samples };
  });

  const inNone = (() => {
    let k = 0;
    for (let s = 0; s < nSamples; s++) if (present.every((p) => !p[s])) k++;
    return k;
  })();
  if (inNone) warnings.push(`${inNone} samples are present in no view`);
  if (missingness === 'complete' && built.some((v) => v.present.length < nSamples)) {
    missingness = 'nan-columns';
  }

  return {
    n: nSamples,
    views: built,
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
