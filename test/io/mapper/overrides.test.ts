/**
 * Every mapping override against every file kind: it takes effect, or the load is refused
 * with a DataError naming the option (issue 18, point 2). Toy files of 6 samples, 2 views
 * (2 and 3 features), 3 classes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { MultiViewDataset } from '../../../src/core/dataset';
import { DataError } from '../../../src/io/errors';
import { loadDataset } from '../../../src/io/load';
import { refuseOverrides } from '../../../src/io/mapper/overrides';
import { writeNpz } from '../../../src/io/npz-write';
import type { LoadOptions } from '../../../src/shared/contract';
import { doubleMatrix, doubles, matFile, npy } from '../../helpers/io-build';

const dir = mkdtempSync(join(tmpdir(), 'mvstudio-overrides-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const N = 6;
/** (n, d) row-major values of view v: sample i, feature j. */
const view = (v: number, d: number): number[] =>
  Array.from({ length: N * d }, (_, k) => (v + 1) * 10 + Math.floor(k / d) + (k % d) / 10);
const LABELS = [1, 1, 2, 2, 3, 3];
/** The mask: sample 6 lacks view 2. */
const MASK = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0];

/** Row-major (n, d) to MATLAB's column-major. */
function colMajor(values: readonly number[], n: number, d: number): number[] {
  const out: number[] = [];
  for (let j = 0; j < d; j++) for (let i = 0; i < n; i++) out.push(values[i * d + j]!);
  return out;
}

function writeMat(): string {
  const p = join(dir, 'toy.mat');
  writeFileSync(
    p,
    matFile([
      doubleMatrix('X1', [N, 2], colMajor(view(0, 2), N, 2)),
      doubleMatrix('X2', [N, 3], colMajor(view(1, 3), N, 3)),
      doubleMatrix('Y', [N, 1], LABELS),
      doubleMatrix('mask', [N, 2], colMajor(MASK, N, 2)),
    ]),
  );
  return p;
}

async function writeToyNpz(): Promise<string> {
  const p = join(dir, 'toy.npz');
  await writeNpz(p, [
    { name: 'X1', shape: [N, 2], data: Float64Array.from(view(0, 2)) },
    { name: 'X2', shape: [N, 3], data: Float64Array.from(view(1, 3)) },
    { name: 'Y', shape: [N], data: Float64Array.from(LABELS) },
    { name: 'mask', shape: [N, 2], data: Float64Array.from(MASK) },
  ]);
  return p;
}

function writeCsv(): string[] {
  const rows = (v: number, d: number): string =>
    Array.from({ length: N }, (_, i) =>
      view(v, d)
        .slice(i * d, (i + 1) * d)
        .join(','),
    ).join('\n');
  const a = join(dir, 'a.csv');
  const b = join(dir, 'b.csv');
  writeFileSync(a, rows(0, 2) + '\n');
  writeFileSync(b, rows(1, 3) + '\n');
  return [a, b];
}

function writeNpy(): string[] {
  const a = join(dir, 'a.npy');
  const b = join(dir, 'b.npy');
  writeFileSync(a, npy('<f8', [N, 2], doubles(view(0, 2))));
  writeFileSync(b, npy('<f8', [N, 3], doubles(view(1, 3))));
  return [a, b];
}

const labelsFile = join(dir, 'y.csv');
writeFileSync(labelsFile, LABELS.join('\n') + '\n');

async function refusal(p: Promise<unknown>): Promise<DataError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(DataError);
  return e as DataError;
}

const decision = (ds: MultiViewDataset, topic: string) =>
  ds.provenance.decisions.find((d) => d.topic === topic)!;

describe.each([
  ['MAT', async () => [writeMat()]],
  ['NPZ', async () => [await writeToyNpz()]],
])('a %s file (named variables)', (_kind, make) => {
  const base: LoadOptions = { views: 'X1,X2', labels: 'Y' };

  it('applies views, labels, orientation, mask and fold', async () => {
    const files = await make();
    expect((await loadDataset(files, { ...base, views: 'X2' })).views.map((v) => v.d)).toEqual([3]);
    expect((await loadDataset(files, { ...base, labels: 'none' })).labels).toBeNull();
    const oriented = await loadDataset(files, { ...base, orientation: 'n x d' });
    expect(decision(oriented, 'orientation').overridden).toBe(true);
    const masked = await loadDataset(files, { ...base, mask: 'mask', fold: 1 });
    expect(masked.provenance.missingness).toBe('mask-variable');
    expect(masked.views[1]!.present.length).toBe(N - 1);
  });

  it('refuses a labels file and a fold without a mask', async () => {
    const files = await make();
    const e = await refusal(loadDataset(files, { ...base, labelsFile }));
    expect(e.message).toMatch(/the labels file \('labelsFile'\) cannot be applied/);
    expect(e.file).toBe(files[0]);
    const f = await refusal(loadDataset(files, { ...base, fold: 2 }));
    expect(f.message).toMatch(/the fold \('fold'\) cannot be applied: .*give the mask too/);
  });
});

describe.each([
  ['CSV', writeCsv],
  ['NPY', writeNpy],
])('%s view files (one view per file)', (kind, make) => {
  it('applies a labels file, labels none and orientation n x d', async () => {
    const files = make();
    const ds = await loadDataset(files, { labelsFile });
    expect(ds.views.map((v) => v.d)).toEqual([2, 3]);
    expect(ds.labels!.classes.length).toBe(3);
    const none = await loadDataset(files, { labels: 'none' });
    expect(none.labels).toBeNull();
    expect(decision(none, 'labels').overridden).toBe(true);
    const rows = await loadDataset(files, { orientation: 'n x d' });
    expect(decision(rows, 'orientation')).toMatchObject({ overridden: true });
  });

  it.each<[string, LoadOptions, RegExp]>([
    ['views', { views: 'X1,X2' }, /view container \('views'\) cannot be applied: .*own file/],
    ['labels', { labels: 'Y' }, /label variable \('labels'\) cannot be applied: .*labels file/],
    ['labels + file', { labels: 'none', labelsFile }, /\('labels'\) cannot be applied: 'none' and/],
    ['orientation', { orientation: 'd x n' }, /orientation \('orientation'\) cannot be applied/],
    ['mask', { mask: 'mask' }, /the mask \('mask'\) cannot be applied: masks apply to MAT/],
    ['fold', { fold: 1 }, /the fold \('fold'\) cannot be applied/],
  ])('refuses %s, naming the option and why', async (name, options, message) => {
    const files = make();
    const e = await refusal(loadDataset(files, options));
    expect(e.message).toMatch(message);
    // The refusals that depend on the kind say which kind.
    if (!['fold', 'labels + file'].includes(name)) expect(e.message).toContain(kind);
    expect(e.file).toBe(files[0]);
  });
});

describe('refuseOverrides', () => {
  it('accepts no options for either kind', () => {
    expect(() => refuseOverrides('variables', 'MAT', 'x.mat', {})).not.toThrow();
    expect(() => refuseOverrides('view-files', 'CSV', 'x.csv', {})).not.toThrow();
  });
});
