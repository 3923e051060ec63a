/**
 * The mapper's decisions on hand-made variable sets (orientation, labels, views, overrides,
 * errors) and the five missingness encodings on the real files that use them.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { mapVariables } from '../../../src/io/mapper';
import { loadDataset, readVariables } from '../../../src/io/load';
import { DataError } from '../../../src/io/errors';
import type { MatFile, MatNumeric, MatSparse, MatValue } from '../../../src/io/mat/types';
import type { LoadOptions } from '../../../src/shared/contract';
import { samplesByViewCount } from '../../../src/core/dataset';
import { DATASETS } from '../../helpers/paths';

/** A dense column-major matrix whose (i, j) entry is f(i, j). */
function mat(
  rows: number,
  cols: number,
  f: (i: number, j: number) => number = (i, j) => i * 100 + j,
): MatNumeric {
  const re = new Float64Array(rows * cols);
  for (let j = 0; j < cols; j++) for (let i = 0; i < rows; i++) re[i + j * rows] = f(i, j);
  return { type: 'numeric', class: 'double', dims: [rows, cols], re };
}
const vec = (xs: number[], column = true): MatNumeric => ({
  type: 'numeric',
  class: 'double',
  dims: column ? [xs.length, 1] : [1, xs.length],
  re: Float64Array.from(xs),
});
const cell = (items: MatValue[], row = true): MatValue => ({
  type: 'cell',
  dims: row ? [1, items.length] : [items.length, 1],
  items,
});
const file = (vars: Record<string, MatValue>): MatFile => ({
  path: 'toy.mat',
  version: 'v5',
  header: '',
  variables: new Map(Object.entries(vars)),
  warnings: [],
});
const map = (vars: Record<string, MatValue>, options: LoadOptions = {}) =>
  mapVariables({ file: file(vars), format: 'mat-v5', options });
const mapError = (vars: Record<string, MatValue>, options: LoadOptions = {}): DataError => {
  try {
    map(vars, options);
  } catch (e) {
    expect(e).toBeInstanceOf(DataError);
    expect((e as Error).message.startsWith('toy.mat')).toBe(true);
    return e as DataError;
  }
  throw new Error('expected a DataError');
};
const labels5 = vec([1, 2, 1, 2, 3]);

describe('orientation', () => {
  it('n x d views are transposed into row-major samples', () => {
    const ds = map({ X: cell([mat(5, 3)]), Y: labels5 });
    const v = ds.views[0]!;
    expect(ds.provenance.orientation).toEqual(['n x d']);
    expect(v.d).toBe(3);
    expect(Array.from(v.values.data.subarray(0, 6))).toEqual([0, 1, 2, 100, 101, 102]);
  });

  it('d x n views are read as columns = samples', () => {
    const ds = map({ data: cell([mat(3, 5)]), truelabel: labels5 });
    expect(ds.provenance.orientation).toEqual(['d x n']);
    expect(ds.views[0]!.d).toBe(3);
    // Sample 1 = column 1 = entries (0..2, 1).
    expect(Array.from(ds.views[0]!.values.data.subarray(3, 6))).toEqual([1, 101, 201]);
  });

  it('a square view follows the other views', () => {
    const ds = map({ X: cell([mat(5, 7), mat(5, 5), mat(5, 2)]), Y: labels5 });
    expect(ds.provenance.orientation).toEqual(['n x d', 'n x d', 'n x d']);
    const d = ds.provenance.decisions.find((x) => x.choice === 'X{2} n x d')!;
    expect(d.reason).toMatch(/square .* the other views are n x d/);
  });

  it('a square view among d x n views is read d x n', () => {
    const ds = map({ X: cell([mat(7, 5), mat(5, 5)]), Y: labels5 });
    expect(ds.provenance.orientation).toEqual(['d x n', 'd x n']);
    expect(Array.from(ds.views[1]!.values.data.subarray(0, 5))).toEqual([0, 100, 200, 300, 400]);
  });

  it('all views square: assumed n x d, with a warning', () => {
    const ds = map({ X: cell([mat(5, 5), mat(5, 5)]), Y: labels5 });
    expect(ds.provenance.orientation).toEqual(['n x d', 'n x d']);
    expect(ds.provenance.warnings.join('\n')).toMatch(/square/);
  });

  it('without labels, n is the dimension the views share', () => {
    const ds = map({ X: cell([mat(4, 9), mat(4, 2)]) });
    expect(ds.n).toBe(4);
    expect(ds.labels).toBeNull();
    expect(ds.provenance.orientation).toEqual(['n x d', 'n x d']);
  });

  it('the user can force the orientation', () => {
    const ds = map({ X: cell([mat(5, 5)]), Y: labels5 }, { orientation: 'd x n' });
    expect(ds.provenance.orientation).toEqual(['d x n']);
    expect(ds.provenance.decisions.find((d) => d.topic === 'orientation')!.overridden).toBe(true);
  });

  it('a view matching neither dimension is named in the error', () => {
    const e = mapError({ X: cell([mat(5, 3), mat(6, 3)]), Y: labels5 });
    expect(e.message).toMatch(/X\{2\} is 6x3 double, but the data have 5 samples/);
  });
});

describe('labels', () => {
  it('per-view copies are accepted, and a differing copy is reported', () => {
    const ds = map({
      data: cell([mat(3, 5)]),
      truelabel: cell([labels5, vec([1, 2, 1, 2, 2])]),
    });
    expect(Array.from(ds.labels!.codes)).toEqual([0, 1, 0, 1, 2]);
    expect(ds.provenance.warnings).toContain(
      'truelabel{2} differs from truelabel{1} at 1 samples; truelabel{1} was used',
    );
  });

  it('an n x V label matrix with identical columns (y0) is a label vector', () => {
    const y0 = mat(5, 2, (i) => [1, 2, 1, 2, 3][i]!);
    const ds = map({ X: cell([mat(5, 2), mat(5, 2)]), y0 });
    expect(ds.labels!.source).toBe('y0');
    expect(ds.labels!.classes).toEqual([1, 2, 3]);
  });

  it('0-based labels keep their values and say so', () => {
    const ds = map({ X: cell([mat(5, 2)]), Y: vec([0, 1, 0, 1, 2]) });
    expect(ds.labels!.classes).toEqual([0, 1, 2]);
    expect(ds.provenance.decisions.find((d) => d.topic === 'label-base')!.reason).toMatch(
      /0-based/,
    );
  });

  it('a label vector of the wrong length is refused with both lengths', () => {
    const vars = { X: cell([mat(5, 3)]), Y: vec([1, 2, 3, 4]) };
    expect(mapError(vars).message).toMatch(
      /X\{1\} is 5x3 double, but the data have 4 samples \(from the 4 labels in 'Y'\)/,
    );
    expect(mapError(vars, { orientation: 'n x d' }).message).toMatch(
      /has 5 samples where 4 are expected \(from the 4 labels in 'Y'\)/,
    );
  });

  it('NaN labels are refused', () => {
    const e = mapError({ X: cell([mat(5, 3)]), Y: vec([1, 2, NaN, 1, 1]) });
    expect(e.message).toMatch(/NaN at sample 3/);
  });

  it('labels can be chosen or switched off', () => {
    const vars = { X: cell([mat(5, 3)]), Y: labels5, other: vec([5, 5, 6, 6, 6]) };
    expect(map(vars, { labels: 'other' }).labels!.classes).toEqual([5, 6]);
    expect(map(vars, { labels: 'none' }).labels).toBeNull();
    expect(mapError(vars, { labels: 'nope' }).message).toMatch(/no variable 'nope'/);
  });
});

describe('views', () => {
  it('separate variables V1..Vk are views in numeric order', () => {
    const ds = map({ V2: mat(5, 2), V1: mat(5, 3), V10: mat(5, 4), label: labels5 });
    expect(ds.views.map((v) => v.name)).toEqual(['V1', 'V2', 'V10']);
  });

  it('the user can name the view variables', () => {
    const ds = map({ a: mat(5, 2), b: mat(5, 3), Y: labels5 }, { views: 'b,a' });
    expect(ds.views.map((v) => [v.name, v.d])).toEqual([
      ['b', 3],
      ['a', 2],
    ]);
  });

  it('a 3-D array of graphs is refused with what it is', () => {
    const A: MatNumeric = {
      type: 'numeric',
      class: 'double',
      dims: [5, 5, 2],
      re: new Float64Array(50),
    };
    expect(mapError({ A, Y: labels5 }).message).toMatch(/5×5×2 array of precomputed graphs/);
  });

  it('a file with no views lists what it holds', () => {
    expect(mapError({ Y: labels5 }).message).toMatch(/no views found.*Y \(5x1 double\)/);
  });

  it('sparse views convert CSC to CSR in both orientations', () => {
    // 5 samples x 3 features: nonzeros (0,1)=2, (2,0)=1, (4,2)=3, (2,2)=4.
    const nxd: MatSparse = {
      type: 'sparse',
      class: 'double',
      dims: [5, 3],
      jc: Int32Array.from([0, 1, 2, 4]),
      ir: Int32Array.from([2, 0, 2, 4]),
      pr: Float64Array.from([1, 2, 4, 3]),
    };
    const a = map({ X: cell([nxd]), Y: labels5 }).views[0]!.values;
    expect(a.kind).toBe('csr');
    if (a.kind !== 'csr') return;
    expect(Array.from(a.indptr)).toEqual([0, 1, 1, 3, 3, 4]);
    expect(Array.from(a.indices)).toEqual([1, 0, 2, 2]);
    expect(Array.from(a.data)).toEqual([2, 1, 4, 3]);
    // The same matrix stored d x n (3 x 5): CSC columns are samples.
    const dxn: MatSparse = {
      type: 'sparse',
      class: 'double',
      dims: [3, 5],
      jc: Int32Array.from([0, 1, 1, 3, 3, 4]),
      ir: Int32Array.from([1, 0, 2, 2]),
      pr: Float64Array.from([2, 1, 4, 3]),
    };
    const b = map({ X: cell([dxn]), Y: labels5 }).views[0]!.values;
    expect(b).toEqual(a);
  });
});

describe('missingness on hand-made data', () => {
  it('index{v} with all-NaN columns', () => {
    const x = mat(2, 5, (i, j) => (j === 1 || j === 3 ? NaN : i + j));
    const ds = map({
      data: cell([x, mat(2, 5)]),
      truelabel: labels5,
      index: cell([vec([1, 3, 5]), vec([1, 2, 3, 4, 5])]),
    });
    expect(ds.provenance.missingness).toBe('nan-columns');
    expect(Array.from(ds.views[0]!.present)).toEqual([0, 2, 4]);
    expect(Array.from(ds.views[0]!.values.data)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('an index out of range is refused', () => {
    const e = mapError({ data: cell([mat(2, 5)]), Y: labels5, index: cell([vec([0, 1])]) });
    expect(e.message).toMatch(/index\{1\} holds 0; present-sample numbers must be 1..5/);
  });

  it('all-NaN samples without an index are missing', () => {
    const x = mat(5, 2, (i) => (i === 4 ? NaN : i));
    const ds = map({ X: cell([x, mat(5, 2)]), Y: labels5 });
    expect(Array.from(ds.views[0]!.present)).toEqual([0, 1, 2, 3]);
    expect(ds.provenance.missingness).toBe('nan-columns');
  });

  it('zero rows alone are not missing samples', () => {
    const x = mat(5, 2, (i, j) => (i === 0 ? 0 : i + j));
    const ds = map({ X: cell([x]), Y: labels5 });
    expect(ds.views[0]!.present.length).toBe(5);
    expect(ds.provenance.missingness).toBe('complete');
  });

  it('nested mask cells per{i}{j} are addressed by flattened fold number', () => {
    const m = (absent: number) => mat(5, 2, (i, j) => (j === 0 && i === absent ? 0 : 1));
    const per = cell([cell([m(0), m(1)]), cell([m(2), m(3)])]);
    const ds = map({ X: cell([mat(5, 2), mat(5, 2)]), Y: labels5, per }, { mask: 'per', fold: 3 });
    expect(Array.from(ds.views[0]!.present)).toEqual([0, 1, 3, 4]);
    expect(ds.views[1]!.present.length).toBe(5);
    expect(ds.provenance.decisions.at(-1)!.choice).toMatch(/^mask per\{2\}\{1\} \(fold 3 of 4\)/);
  });

  it('a mask that is not 0/1 or of the wrong size is refused', () => {
    const vars = {
      X: cell([mat(5, 2)]),
      Y: labels5,
      bad: mat(5, 1, () => 2),
      small: mat(4, 1, () => 1),
    };
    expect(mapError(vars, { mask: 'bad' }).message).toMatch(/value 2 at sample 1, view 1/);
    expect(mapError(vars, { mask: 'small' }).message).toMatch(
      /4×1; a mask for these data must be 5×1/,
    );
    expect(mapError(vars, { mask: 'bad', fold: 2 }).message).toMatch(/fold 2 was asked for/);
  });
});

describe('the five missingness encodings on the shared files', () => {
  const at = (f: string) => join(DATASETS, f);

  it('1. all-NaN columns + index{v} (IMVC-CBG Per files)', async () => {
    const path = at('NGs/NGs_Per0.5.mat');
    const ds = await loadDataset(path);
    const raw = await readVariables(path);
    const index = raw.variables.get('index') as unknown as { items: MatNumeric[] };
    expect(ds.provenance.missingness).toBe('nan-columns');
    ds.views.forEach((v, i) => {
      expect(Array.from(v.present)).toEqual(Array.from(index.items[i]!.re).map((x) => x - 1));
      // No present sample is all NaN, and the values are the file's columns.
      expect(v.values.data.some((x) => Number.isNaN(x))).toBe(false);
    });
  });

  it('2. all-zero rows + presence matrix ind (APMC Data_3Sources)', async () => {
    const path = at('3Sources/Data_3Sources.mat');
    const ds = await loadDataset(path);
    const ind = (await readVariables(path)).variables.get('ind') as MatNumeric;
    expect(ds.provenance.missingness).toBe('zero-rows-with-presence');
    ds.views.forEach((v, k) => {
      const expected: number[] = [];
      for (let i = 0; i < 416; i++) if (ind.re[i + k * 416] === 1) expected.push(i);
      expect(Array.from(v.present)).toEqual(expected);
    });
  });

  it('3. folds in a separate file (percentDel), v5 and v7.3', async () => {
    for (const [data, folds, fold] of [
      ['3Sources/3sources3vbigRnSp.mat', '3Sources/3sources3vbigRnSp_percentDel_0.3.mat', 4],
      ['BBCSport/bbcsport4vbigRnSp.mat', 'BBCSport/bbcsport4vbigRnSp_percentDel_0.5.mat', 30],
    ] as const) {
      const ds = await loadDataset(at(data), { mask: at(folds), fold });
      const m = (await readVariables(at(folds))).variables.get('folds') as unknown as {
        items: MatNumeric[];
      };
      const mask = m.items[fold - 1]!;
      const n = ds.n;
      expect(ds.provenance.missingness).toBe('mask-file');
      ds.views.forEach((v, k) => {
        const expected: number[] = [];
        for (let i = 0; i < n; i++) if (mask.re[i + k * n] === 1) expected.push(i);
        expect(Array.from(v.present)).toEqual(expected);
      });
      expect(samplesByViewCount(ds).none).toBe(0);
    }
  });

  it('4. mask cells inside the data file (per10..per70), chosen with a fold', async () => {
    const path = at('MNIST-USPS_incomplete/Mfeat.mat');
    const plain = await loadDataset(path);
    expect(plain.provenance.missingness).toBe('complete');
    expect(plain.provenance.decisions.at(-1)!.choice).toMatch(/^mask variables not applied: per10/);
    const ds = await loadDataset(path, { mask: 'per30', fold: 7 });
    const per30 = (await readVariables(path)).variables.get('per30') as unknown as {
      items: MatNumeric[];
    };
    const mask = per30.items[6]!;
    expect(ds.provenance.missingness).toBe('mask-variable');
    ds.views.forEach((v, k) => {
      let present = 0;
      for (let i = 0; i < 10000; i++) present += mask.re[i + k * 10000]!;
      expect(v.present.length).toBe(present);
    });
    expect(ds.views[0]!.present.length).toBe(7000);
    expect(ds.views[1]!.present.length).toBe(10000);
  });

  it('5. naturally incomplete sets (PIC *Incomplete.mat)', async () => {
    const ds = await loadDataset(at('BBCSport/bbcsportIncomplete.mat'));
    expect(ds.n).toBe(737);
    expect(ds.views.map((v) => v.present.length)).toEqual([737 - 93, 737 - 100]);
    expect(samplesByViewCount(ds).none).toBe(0);
  });
});
