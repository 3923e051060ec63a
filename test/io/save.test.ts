/**
 * saveDataset: the incomplete dataset "Make views missing" makes (HW with a generated mask)
 * saved as .mat and .npz reads back with our loader as the same dataset (values, presence,
 * labels), and scipy.io.loadmat / numpy.load (test/fixtures/save/loadmat_summary.py) see the
 * layout the module documents. A hand-made dataset covers sparse views and named classes.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLabels, type MultiViewDataset } from '../../src/core/dataset';
import { writeMaskFile } from '../../src/backend/missing';
import { presenceBits } from '../../src/shared/contract';
import { loadDataset } from '../../src/io/load';
import { saveDataset, saveFormatOf } from '../../src/io/save';
import { DATASETS, REPO } from '../helpers/paths';

const HW = join(DATASETS, 'HW/HW.mat');
const SUMMARY = join(REPO, 'test/fixtures/save/loadmat_summary.py');

let dir: string;
let incomplete: MultiViewDataset;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'save-'));
  const hw = await loadDataset(HW);
  const presence = {
    n: hw.n,
    views: hw.views.map((v) => v.name),
    bits: hw.views.map((v) => presenceBits(hw.n, v.present)),
  };
  const mask = await writeMaskFile(dir, 'HW', presence, 0.3, 1);
  incomplete = await loadDataset(HW, { mask, fold: 1 });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The view's values of the samples it holds, row by row (dense). */
function rows(ds: MultiViewDataset, v: number): number[] {
  const values = ds.views[v]!.values;
  if (values.kind !== 'dense') throw new Error('dense expected');
  return Array.from(values.data);
}

function expectSame(back: MultiViewDataset, ds: MultiViewDataset): void {
  expect(back.n).toBe(ds.n);
  expect(back.views.length).toBe(ds.views.length);
  ds.views.forEach((view, v) => {
    expect(back.views[v]!.d).toBe(view.d);
    expect(Array.from(back.views[v]!.present)).toEqual(Array.from(view.present));
    expect(rows(back, v)).toEqual(rows(ds, v));
  });
  expect(back.labels?.classes).toEqual(ds.labels?.classes);
  expect(Array.from(back.labels!.codes)).toEqual(Array.from(ds.labels!.codes));
}

type Summary = { shape: number[]; nan: number; sum: number };

function python(path: string): Record<string, Summary & { items?: (Summary | string)[] }> {
  return JSON.parse(execFileSync('python3', [SUMMARY, path], { encoding: 'utf8' })) as Record<
    string,
    Summary & { items?: (Summary | string)[] }
  >;
}

/** What loadmat must see of view v: (n, d) with NaN rows for the missing samples. */
function expected(ds: MultiViewDataset, v: number): Summary {
  const view = ds.views[v]!;
  return {
    shape: [ds.n, view.d],
    nan: (ds.n - view.present.length) * view.d,
    sum: rows(ds, v).reduce((a, b) => a + b, 0),
  };
}

describe('saveDataset', () => {
  it('the generated incomplete HW is incomplete (the premise)', () => {
    expect(incomplete.provenance.missingness).toBe('mask-file');
    expect(incomplete.views.some((v) => v.present.length < incomplete.n)).toBe(true);
  });

  it('.mat reads back with our loader as the same incomplete dataset', async () => {
    const path = join(dir, 'HW-missing.mat');
    await saveDataset(incomplete, path);
    const back = await loadDataset(path);
    expect(back.provenance.format).toBe('mat-v5');
    expect(back.provenance.missingness).toBe('nan-columns');
    expect(back.provenance.warnings).toEqual([]);
    expectSame(back, incomplete);
  });

  it('.mat is what scipy.io.loadmat reads: X cell, Y, index, mask', () => {
    const m = python(join(dir, 'HW-missing.mat'));
    const V = incomplete.views.length;
    expect(m['X']!.shape).toEqual([1, V]);
    m['X']!.items!.forEach((item, v) => {
      const e = expected(incomplete, v);
      const got = item as Summary;
      expect(got.shape).toEqual(e.shape);
      expect(got.nan).toBe(e.nan);
      expect(got.sum).toBeCloseTo(e.sum, 6);
    });
    const y = m['Y']!;
    expect(y.shape).toEqual([incomplete.n, 1]);
    // HW's labels are 1..10, 200 each.
    expect(y.sum).toBe(200 * 55);
    const present = incomplete.views.reduce((s, v) => s + v.present.length, 0);
    expect(m['mask']!).toEqual({ shape: [incomplete.n, V], nan: 0, sum: present });
    m['index']!.items!.forEach((item, v) => {
      const p = incomplete.views[v]!.present;
      expect(item).toEqual({
        shape: [p.length, 1],
        nan: 0,
        sum: Array.from(p).reduce((a, b) => a + b + 1, 0),
      });
    });
  });

  it('.npz reads back with our loader and with numpy.load', async () => {
    const path = join(dir, 'HW-missing.npz');
    await saveDataset(incomplete, path);
    const back = await loadDataset(path);
    expect(back.provenance.format).toBe('npz');
    expect(back.provenance.missingness).toBe('nan-columns');
    expectSame(back, incomplete);
    const m = python(path);
    incomplete.views.forEach((_, v) => {
      const e = expected(incomplete, v);
      const got = m[`X${v + 1}`]!;
      expect(got.shape).toEqual(e.shape);
      expect(got.nan).toBe(e.nan);
      expect(got.sum).toBeCloseTo(e.sum, 6);
    });
    expect(m['Y']!.shape).toEqual([incomplete.n]);
    expect(m['mask']!.shape).toEqual([incomplete.n, incomplete.views.length]);
  });

  it('writes sparse views densely and named classes as numbers plus a classes cell', async () => {
    const ds: MultiViewDataset = {
      n: 4,
      views: [
        {
          name: 'dense',
          d: 2,
          present: Int32Array.from([0, 1, 3]),
          values: { kind: 'dense', rows: 3, cols: 2, data: Float64Array.from([1, 2, 3, 4, 5, 6]) },
        },
        {
          name: 'sparse',
          d: 3,
          present: Int32Array.from([1, 2, 3]),
          values: {
            kind: 'csr',
            rows: 3,
            cols: 3,
            indptr: Int32Array.from([0, 1, 1, 3]),
            indices: Int32Array.from([2, 0, 1]),
            data: Float64Array.from([7, 8, 9]),
          },
        },
      ],
      labels: makeLabels('y', ['cat', 'dog', 'cat', 'eel']),
      sampleIds: null,
      provenance: {
        file: 'toy',
        format: 'synthetic',
        variables: [],
        orientation: ['n x d', 'n x d'],
        missingness: 'mask-variable',
        decisions: [],
        warnings: [],
      },
    };
    const path = join(dir, 'toy.mat');
    await saveDataset(ds, path);
    const m = python(path);
    expect(m['classes']!.items).toEqual(['cat', 'dog', 'eel']);
    expect(m['Y']!.sum).toBe(1 + 2 + 1 + 3);
    expect(m['X']!.items![1]).toEqual({ shape: [4, 3], nan: 3, sum: 24 });
    const back = await loadDataset(path, { orientation: 'n x d' });
    expect(Array.from(back.views[1]!.present)).toEqual([1, 2, 3]);
    expect(Array.from(back.views[0]!.present)).toEqual([0, 1, 3]);
    expect(Array.from(back.labels!.codes)).toEqual([0, 1, 0, 2]);
  });

  it('refuses a name that is neither .mat nor .npz, writing nothing', async () => {
    expect(() => saveFormatOf('/x/data.csv')).toThrow(
      '/x/data.csv: a dataset is saved as .mat (MAT v5) or .npz: end the name with one',
    );
    await expect(saveDataset(incomplete, join(dir, 'HW.txt'))).rejects.toThrow(
      /\.mat \(MAT v5\) or \.npz/,
    );
    expect((await readdir(dir)).filter((f) => f.startsWith('HW.txt'))).toEqual([]);
  });
});
