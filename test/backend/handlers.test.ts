/**
 * `datasets:open` with a dataset's file list and typed paths: every view file read and
 * granted, `~` the home folder in every path a user types, a missing file named as typed.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReadGrants } from '../../src/backend/grants';
import { createHandlers, invoke } from '../../src/backend/handlers';
import { DatasetLibrary } from '../../src/backend/library';
import { loadDataset } from '../../src/io/load';

let dir: string;
let home: string;
let a: string;
let b: string;
let y: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mvstudio-handlers-'));
  home = join(dir, 'home');
  await mkdir(join(home, 'data'), { recursive: true });
  a = join(home, 'data', 'a.csv');
  b = join(home, 'data', 'b.csv');
  y = join(home, 'data', 'y.csv');
  await writeFile(a, '1,2\n3,4\n5,6\n7,8\n');
  await writeFile(b, '1\n2\n3\n4\n');
  await writeFile(y, 'u\nu\nv\nv\n');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A library reading in this process, by the file list it is given. */
const inProcess = (): DatasetLibrary =>
  new DatasetLibrary({ load: (_path, options, files) => loadDataset(files, options) });

describe('datasets:open', () => {
  it('opens the files of one dataset, expanding ~ in the views and the labels file', async () => {
    const handlers = createHandlers(inProcess(), { pickFile: async () => null, home });
    const r = await invoke(handlers, 'datasets:open', {
      files: ['~/data/a.csv', '~/data/b.csv'],
      options: { labelsFile: '~/data/y.csv' },
    });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.files).toEqual([a, b]);
    expect(r.value.path).toBe(a);
    expect(r.value.options).toEqual({ labelsFile: y });
    expect(r.value.summary.views.map((v) => v.d)).toEqual([2, 1]);
    expect(r.value.summary.labels?.classes).toEqual(['u', 'v']);
  });

  it('names a missing file as typed, with where it was looked for', async () => {
    const handlers = createHandlers(inProcess(), { pickFile: async () => null, home });
    const r = await invoke(handlers, 'datasets:open', { path: '~/data/none.mat' });
    expect(r).toEqual({
      ok: false,
      error: {
        name: 'NotFound',
        message: `~/data/none.mat: no such file (looked for ${join(home, 'data', 'none.mat')})`,
      },
    });
  });

  it('refuses an override the file kind cannot apply, naming it', async () => {
    const handlers = createHandlers(inProcess(), { pickFile: async () => null, home });
    const r = await invoke(handlers, 'datasets:open', { files: [a, b], options: { views: 'X' } });
    expect(r).toMatchObject({ ok: false, error: { name: 'DataError' } });
    expect(r.ok ? '' : r.error.message).toMatch(/the view container \('views'\) cannot be applied/);
  });

  it('under read grants checks every view file, and the dialog grants what it returns', async () => {
    const reads = await ReadGrants.load(null);
    const handlers = createHandlers(inProcess(), {
      pickFile: async () => null,
      pickFiles: async () => [a, b],
      readGrants: reads,
    });
    await reads.allow(a);
    const refused = await invoke(handlers, 'datasets:open', { files: [a, b] });
    expect(refused.ok ? '' : refused.error.message).toMatch(
      new RegExp(`view file 2 ${b.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} was not chosen`),
    );
    expect(await invoke(handlers, 'dialog:openDatasetFiles', null)).toEqual({
      ok: true,
      value: [a, b],
    });
    expect((await invoke(handlers, 'datasets:open', { files: [a, b] })).ok).toBe(true);
  });

  it('dialog:openDatasetFiles falls back to the one-file dialog', async () => {
    const handlers = createHandlers(inProcess(), { pickFile: async () => a });
    expect(await invoke(handlers, 'dialog:openDatasetFiles', null)).toEqual({
      ok: true,
      value: [a],
    });
    const none = createHandlers(inProcess(), { pickFile: async () => null });
    expect(await invoke(none, 'dialog:openDatasetFiles', null)).toEqual({ ok: true, value: null });
  });

  it('checks the request: path or files, not both, files a non-empty list of paths', async () => {
    const handlers = createHandlers(inProcess(), { pickFile: async () => null });
    const cases: [unknown, string][] = [
      [{ path: a, files: [a] }, "datasets:open: give 'path' or 'files', not both"],
      [{ files: [] }, "datasets:open: 'files' must be a list of 1 to 64 paths"],
      [{ files: a }, "datasets:open: 'files' must be a list of 1 to 64 paths"],
      [{ files: [a, ''] }, "datasets:open: 'files[1]' must be a non-empty string"],
      [{ files: [a, 3] }, "datasets:open: 'files[1]' must be a non-empty string"],
    ];
    for (const [payload, message] of cases) {
      expect(await invoke(handlers, 'datasets:open', payload as never)).toEqual({
        ok: false,
        error: { name: 'InvalidRequest', message },
      });
    }
  });
});
