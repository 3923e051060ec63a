/**
 * The missingness decisions of the mapper: which samples each view holds. A mask the user chose
 * (a variable of the file or a separate mask file, and a fold) decides; else the file's own
 * encoding: an `index` cell of present samples with all-NaN columns, a presence matrix `ind`
 * with zero rows, all-NaN samples alone, or none (complete). Mask variables the user did not
 * choose are listed, never applied.
 */
import type { Decision, MissingnessEncoding } from '../../core/dataset';
import type { LoadOptions } from '../../shared/contract';
import { DataError } from '../errors';
import type { MatFile, MatValue } from '../mat/types';
import { describe } from '../mat/types';
import { isMaskName, type Matrix, type Orientation, type ViewSource } from './matrix';

/** Which samples each view holds, how the file said so, and what that used and found. */
export interface Presence {
  /** present[v][s] = 1 when view v holds sample s; V arrays of length n. */
  present: Uint8Array[];
  missingness: MissingnessEncoding;
  /** Variables read for it ('index', 'ind', the mask, `maskfile:variable`). */
  used: string[];
  decisions: Decision[];
  warnings: string[];
}

/** What both presence rules read; they fill `present`. */
interface PresenceContext {
  readonly file: MatFile;
  readonly views: readonly ViewSource[];
  readonly orientation: readonly Orientation[];
  readonly nSamples: number;
  readonly present: Uint8Array[];
  /** nanMissing[v][s] = 1 when sample s of view v is all NaN. */
  readonly nanMissing: readonly Uint8Array[];
  /** The file's mask variables, described, for messages and the "not applied" decision. */
  readonly masks: readonly string[];
}

/** The presence decision: by the chosen mask, else by the file's own encoding. */
export function decidePresence(
  file: MatFile,
  maskFile: MatFile | undefined,
  options: LoadOptions,
  views: readonly ViewSource[],
  orientation: readonly Orientation[],
  nSamples: number,
): Presence {
  const present: Uint8Array[] = views.map(() => new Uint8Array(nSamples).fill(1));
  const nanMissing = views.map((v, i) => allNanSamples(v.value, orientation[i]!, nSamples));
  const masks = maskCandidates(file);
  const ctx: PresenceContext = { file, views, orientation, nSamples, present, nanMissing, masks };
  const decided =
    options.mask !== undefined
      ? chosenMask(ctx, maskFile, options, options.mask)
      : fileEncoding(ctx);
  return { present, ...decided };
}

/** Presence from the mask the user chose (`options.mask`, fold `options.fold`). */
function chosenMask(
  ctx: PresenceContext,
  maskFile: MatFile | undefined,
  options: LoadOptions,
  mask: string,
): Omit<Presence, 'present'> {
  const { file, views, nSamples, present, nanMissing, masks } = ctx;
  let missingness: MissingnessEncoding;
  const used: string[] = [];
  const decisions: Decision[] = [];
  const warnings: string[] = [];
  const inFile = file.variables.get(mask);
  let source: MatValue;
  let sourceName: string;
  let sourceFile: string;
  if (inFile !== undefined) {
    source = inFile;
    sourceName = mask;
    sourceFile = file.path;
    missingness = 'mask-variable';
  } else if (maskFile) {
    const mf = maskFile;
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
      `mask '${mask}' is neither a variable of this file nor a readable file` +
        (masks.length ? ` (mask variables here: ${masks.join(', ')})` : ''),
      { variable: mask },
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
  return { missingness, used, decisions, warnings };
}

/** Presence from the file's own encoding (index, ind, all-NaN samples), or complete. */
function fileEncoding(ctx: PresenceContext): Omit<Presence, 'present'> {
  const { file, views, orientation, nSamples, present, nanMissing } = ctx;
  let missingness: MissingnessEncoding = 'complete';
  let masks = ctx.masks;
  const used: string[] = [];
  const decisions: Decision[] = [];
  const warnings: string[] = [];
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
  return { missingness, used, decisions, warnings };
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
