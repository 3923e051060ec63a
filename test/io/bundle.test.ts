/**
 * Run bundles: run.json written and read back, labels.csv's header and rows (1-based clusters,
 * original label values, quoted sample ids), unique folder names, malformed records refused.
 * Atomicity itself is writeFolderAtomic's, tested in atomic.test.ts.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import type * as FsPromises from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeLabels, type MultiViewDataset } from '../../src/core/dataset';
import type { ProtocolResult } from '../../src/core/protocol';
import {
  BundleWriteError,
  bundleFolder,
  labelsCsv,
  readBundleLabels,
  readRunBundle,
  writeRunBundle,
  type RunBundle,
} from '../../src/io/bundle';
import { DataError } from '../../src/io/errors';
import { version } from '../../package.json';

/** An errno code that `open` of a bundle temporary fails with (a full disk, ...), or null. */
const failOpen = vi.hoisted(() => ({ code: null as string | null }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof FsPromises>();
  const open: typeof fs.open = (path, ...rest) => {
    if (failOpen.code !== null && String(path).includes('/.tmp-')) {
      const e = Object.assign(new Error(`${failOpen.code}: injected, open '${String(path)}'`), {
        code: failOpen.code,
        syscall: 'open',
        path: String(path),
      });
      return Promise.reject(e);
    }
    return fs.open(path, ...rest);
  };
  return { ...fs, open, default: { ...fs, open } };
});

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mvstudio-bundle-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** 4 samples, view 'b' missing sample 2; labels 'cat'/'dog'; ids optional. */
function dataset(file: string, sampleIds: string[] | null): MultiViewDataset {
  return {
    n: 4,
    views: [
      {
        name: 'a',
        d: 1,
        values: { kind: 'dense', rows: 4, cols: 1, data: Float64Array.from([1, 2, 3, 4]) },
        present: Int32Array.from([0, 1, 2, 3]),
      },
      {
        name: 'b',
        d: 1,
        values: { kind: 'dense', rows: 3, cols: 1, data: Float64Array.from([1, 2, 4]) },
        present: Int32Array.from([0, 1, 3]),
      },
    ],
    labels: makeLabels('Y', ['dog', 'cat', 'dog', 'cat']),
    sampleIds,
    provenance: {
      file,
      format: 'synthetic',
      variables: ['X', 'Y'],
      orientation: ['n x d', 'n x d'],
      missingness: 'natural',
      decisions: [{ topic: 'views', choice: 'X', reason: 'the only cell', overridden: false }],
      warnings: [],
    },
  };
}

const result: ProtocolResult = {
  labels: Int32Array.from([1, 0, 1, 0]),
  seedLabels: [Int32Array.from([1, 0, 1, 0]), Int32Array.from([0, 0, 1, 1])],
  perSeed: [
    { seed: 7, metrics: { ACC: 1 }, iterations: 3, converged: true },
    { seed: 8, metrics: { ACC: 0.5 }, iterations: 3, converged: true },
  ],
  metrics: { ACC: { mean: 0.75, std: Math.sqrt(0.125) } },
  objective: [3, 2, 1],
  iterations: 3,
  converged: true,
  notes: ['a note'],
  seeds: [7, 8],
  preprocess: 'zscore',
  fill: 'a fill note',
};

async function bundleFor(sampleIds: string[] | null): Promise<RunBundle> {
  const datasetPath = join(dir, 'toy data.mat');
  await writeFile(datasetPath, 'not really a MAT-file');
  return {
    datasetPath,
    loadOptions: { labels: 'Y' },
    dataset: dataset(datasetPath, sampleIds),
    method: 'toy',
    params: { alpha: 0.5, mode: 'fast' },
    k: 2,
    seed: 7,
    protocol: 'paper',
    result,
    timings: { total_s: 1.5, load_s: 0.25, solve_s: 1, kmeans_s: 0.25 },
    createdAt: new Date('2026-11-30T06:30:00.123Z'),
  };
}

describe('run bundles', () => {
  it('write then read: run.json holds the documented record', async () => {
    const b = await bundleFor(null);
    const out = await writeRunBundle(join(dir, 'runs'), b);
    expect(basename(out)).toBe('toy data-toy-7-20261130T063000123Z');
    expect((await readdir(out)).sort()).toEqual(['labels.csv', 'run.json']);
    const rec = await readRunBundle(out);
    const sha = createHash('sha256').update('not really a MAT-file').digest('hex');
    expect(rec).toMatchObject({
      version: 1,
      dataset: {
        path: b.datasetPath,
        sha256: sha,
        loadOptions: { labels: 'Y' },
        decisions: [{ topic: 'views', choice: 'X' }],
        missing: { n: 4, presentPerView: [4, 3], samplesByViewCount: [1, 3] },
      },
      method: 'toy',
      params: { alpha: 0.5, mode: 'fast' },
      k: 2,
      seed: 7,
      protocol: 'paper',
      seeds: [7, 8],
      preprocess: 'zscore',
      appVersion: version,
      platform: { os: process.platform, arch: process.arch, node: process.version },
      timings: b.timings,
      objective: [3, 2, 1],
      iterations: 3,
      converged: true,
      metrics: result.metrics,
      perSeed: result.perSeed,
      notes: ['a note'],
      createdAt: '2026-11-30T06:30:00.123Z',
    });
  });

  it('labels.csv: 1-based clusters, original label values, ids 1..n', async () => {
    const out = await writeRunBundle(dir, await bundleFor(null));
    expect(await readFile(join(out, 'labels.csv'), 'utf8')).toBe(
      'sample_id,cluster,true_label\n1,2,dog\n2,1,cat\n3,2,dog\n4,1,cat\n',
    );
  });

  it('labels.csv: the dataset sample ids (quoted when needed); no true_label without labels', async () => {
    const ds = { ...dataset('x', ['a', 'b,c', 'say "hi"', 'd']), labels: null };
    expect(labelsCsv(ds, result.labels)).toBe(
      'sample_id,cluster\na,2\n"b,c",1\n"say ""hi""",2\nd,1\n',
    );
  });

  it('never overwrites: the same name gets a -2 suffix', async () => {
    const b = await bundleFor(null);
    const first = await writeRunBundle(dir, b);
    const second = await writeRunBundle(dir, b);
    expect(second).toBe(`${first}-2`);
    expect((await readRunBundle(second)).seed).toBe(7);
  });

  it('refuses a malformed or missing run.json with a DataError naming the field', async () => {
    const out = await writeRunBundle(dir, await bundleFor(null));
    const path = join(out, 'run.json');
    const rec = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    await writeFile(path, JSON.stringify({ ...rec, k: 'two' }));
    await expect(readRunBundle(out)).rejects.toThrow(/field 'k' is missing or malformed/);
    await writeFile(path, JSON.stringify({ ...rec, preprocess: 'whiten' }));
    await expect(readRunBundle(out)).rejects.toThrow(/field 'preprocess' is missing or malformed/);
    const { preprocess: _, ...older } = rec;
    await writeFile(path, JSON.stringify(older));
    expect((await readRunBundle(out)).preprocess).toBeUndefined();
    await writeFile(path, JSON.stringify({ ...rec, version: 2 }));
    await expect(readRunBundle(out)).rejects.toThrow(/unsupported run record version 2/);
    await expect(readRunBundle(join(dir, 'nope'))).rejects.toBeInstanceOf(DataError);
  });

  it('a folder that is a file: BundleWriteError naming the folder and the cause', async () => {
    const b = await bundleFor(null);
    const file = join(dir, 'runs');
    await writeFile(file, 'not a folder');
    const e = await writeRunBundle(file, b).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(BundleWriteError);
    expect((e as Error).message).toBe(
      `cannot write the run bundle in '${file}': '${file}' is a file, not a folder (EEXIST)`,
    );
    const below = join(file, 'sub');
    await expect(writeRunBundle(below, b)).rejects.toThrow(
      `cannot write the run bundle in '${below}': a part of '${below}' is a file, not a folder (ENOTDIR)`,
    );
  });

  it.each([
    ['ENOSPC', 'the disk is full (ENOSPC)'],
    ['EROFS', 'the file system is read-only (EROFS)'],
    ['EACCES', 'permission denied (EACCES)'],
  ])('%s while writing: a clear message, no temporary left', async (code, cause) => {
    const b = await bundleFor(null);
    const out = join(dir, 'runs');
    failOpen.code = code;
    try {
      await expect(writeRunBundle(out, b)).rejects.toThrow(
        new BundleWriteError(out, code, `cannot write the run bundle in '${out}': ${cause}`),
      );
    } finally {
      failOpen.code = null;
    }
    expect(await readdir(out)).toEqual([]);
  });

  it('records every view file with its sha256; the first stays in path/sha256', async () => {
    const b = await bundleFor(null);
    const second = join(dir, 'view2.csv');
    await writeFile(second, '1\n2\n');
    const out = await writeRunBundle(dir, { ...b, datasetFiles: [b.datasetPath, second] });
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    const json = JSON.parse(await readFile(join(out, 'run.json'), 'utf8')) as {
      dataset: Record<string, unknown>;
    };
    expect(json.dataset).toMatchObject({
      path: b.datasetPath,
      sha256: sha('not really a MAT-file'),
      files: [
        { path: b.datasetPath, sha256: sha('not really a MAT-file') },
        { path: second, sha256: sha('1\n2\n') },
      ],
    });
    expect((await readRunBundle(out)).dataset.files).toEqual(json.dataset['files']);
  });

  it('reads a record written before dataset.files: its one file is the dataset', async () => {
    const out = await writeRunBundle(dir, await bundleFor(null));
    const path = join(out, 'run.json');
    const rec = JSON.parse(await readFile(path, 'utf8')) as { dataset: Record<string, unknown> };
    const { files: _files, ...old } = rec.dataset;
    await writeFile(path, JSON.stringify({ ...rec, dataset: old }));
    const back = await readRunBundle(out);
    expect(back.dataset.files).toEqual([{ path: old['path'], sha256: old['sha256'] }]);
    await writeFile(path, JSON.stringify({ ...rec, dataset: { ...old, files: [{ path: 1 }] } }));
    await expect(readRunBundle(out)).rejects.toThrow(/field 'dataset' is missing or malformed/);
  });

  it('damaged bundles: clear errors naming the file, never quoting it', async () => {
    const out = await writeRunBundle(dir, await bundleFor(null));
    const path = join(out, 'run.json');
    await writeFile(path, '{"version": 1, "secret text');
    const e = await readRunBundle(out).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(DataError);
    expect((e as Error).message).toBe(
      `${path}: is not valid JSON (the run record is damaged or truncated)`,
    );
    await rm(path);
    await expect(readRunBundle(out)).rejects.toThrow(
      `${path}: missing: this folder is not a run bundle, or the bundle is incomplete`,
    );
    await expect(bundleFolder(join(dir, 'nope'))).rejects.toThrow(
      `${join(dir, 'nope')}: no such run bundle (a folder holding run.json and labels.csv)`,
    );
    await writeFile(path, '{}');
    expect(await bundleFolder(join(out, 'run.json'))).toBe(out);
    expect(await bundleFolder(out)).toBe(out);
    await expect(bundleFolder(join(out, 'labels.csv'))).rejects.toThrow(
      /labels\.csv: is a file, not a run bundle/,
    );
  });

  it('labels.csv reads back: clusters 0-based, true labels and ids as written', async () => {
    const out = await writeRunBundle(dir, await bundleFor(['a', 'b,c', 'x', 'y']));
    const labels = await readBundleLabels(out, 4, 2);
    expect([...labels.clusters]).toEqual([1, 0, 1, 0]);
    expect(labels.truth).toEqual(['dog', 'cat', 'dog', 'cat']);
    expect(labels.sampleIds).toEqual(['a', 'b,c', 'x', 'y']);
    const csv = join(out, 'labels.csv');
    await expect(readBundleLabels(out, 5, 2)).rejects.toThrow(
      `${csv}: expected 5 rows of samples (run.json's n), found 4`,
    );
    await writeFile(csv, 'sample_id,cluster\n1,1\n2,3\n3,1\n4,1\n');
    await expect(readBundleLabels(out, 4, 2)).rejects.toThrow(
      `${csv}, row 3: expected 2 cells with a cluster from 1 to 2 (run.json's k)`,
    );
    await rm(csv);
    await expect(readBundleLabels(out, 4, 2)).rejects.toThrow(`${csv}: missing`);
  });
});
