import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers, invoke } from '../../src/backend/handlers';
import { DatasetLibrary, datasetId } from '../../src/backend/library';
import { fakeLoader } from '../helpers/fake-dataset';

let dir: string;
let good: string;
let other: string;
let bad: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mvstudio-library-'));
  good = join(dir, 'good.mat');
  other = join(dir, 'other.mat');
  bad = join(dir, 'bad.mat');
  for (const p of [good, other, bad]) await writeFile(p, 'x');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('DatasetLibrary', () => {
  it('opens a dataset once and returns the cached entry after', async () => {
    const load = fakeLoader();
    const library = new DatasetLibrary({ load });
    const first = await library.open(good);
    expect(first.path).toBe(good);
    expect(first.bundled).toBe(false);
    expect(first.summary.n).toBe(6);
    expect(first.summary.views.map((v) => v.present)).toEqual([6, 4]);
    expect(first.summary.views[1]?.nanCount).toBe(1);
    const again = await library.open(join(dir, '.', 'good.mat'));
    expect(again).toBe(first);
    expect(load.calls).toHaveLength(1);
    expect(library.list()).toEqual([first]);
  });

  it('reads a file once when two opens race', async () => {
    const load = fakeLoader();
    const library = new DatasetLibrary({ load });
    const [a, b] = await Promise.all([library.open(good), library.open(good)]);
    expect(a).toBe(b);
    expect(load.calls).toHaveLength(1);
  });

  it('keys entries by path and options, whatever the key order', async () => {
    const load = fakeLoader();
    const library = new DatasetLibrary({ load });
    const plain = await library.open(good);
    const masked = await library.open(good, { mask: 'M', fold: 2 });
    const same = await library.open(good, { fold: 2, mask: 'M' });
    expect(masked.id).not.toBe(plain.id);
    expect(same).toBe(masked);
    expect(masked.options).toEqual({ fold: 2, mask: 'M' });
    expect(load.calls.map((c) => c.options)).toEqual([{}, { fold: 2, mask: 'M' }]);
    expect(datasetId(good, { mask: 'M', fold: 2 })).toBe(masked.id);
    expect(library.list().map((e) => e.id)).toEqual([plain.id, masked.id]);
  });

  it('removes entries by id', async () => {
    const library = new DatasetLibrary({ load: fakeLoader() });
    const a = await library.open(good);
    const b = await library.open(other);
    expect(library.remove(a.id)).toBe(true);
    expect(library.remove(a.id)).toBe(false);
    expect(library.list()).toEqual([b]);
    expect(library.get(a.id)).toBeUndefined();
  });

  it('propagates loading errors unchanged and caches nothing', async () => {
    const load = fakeLoader();
    const library = new DatasetLibrary({ load });
    await expect(library.open(bad)).rejects.toMatchObject({
      name: 'DataError',
      message: `${bad}: not a MAT-file (fake loader)`,
    });
    expect(library.list()).toEqual([]);
    // A failed open is not cached: trying again reads the file again.
    await expect(library.open(bad)).rejects.toThrow('not a MAT-file');
    expect(load.calls).toHaveLength(2);
  });

  it('names a missing file without calling the loader', async () => {
    const load = fakeLoader();
    const library = new DatasetLibrary({ load });
    const missing = join(dir, 'nope', 'missing.mat');
    await expect(library.open(missing)).rejects.toMatchObject({
      name: 'NotFound',
      message: `${missing}: no such file`,
    });
    expect(load.calls).toHaveLength(0);
  });

  it('opens bundled datasets at start, in order, and marks them', async () => {
    const load = fakeLoader();
    const library = new DatasetLibrary({ load, bundled: [other, good] });
    await library.ready;
    const entries = library.list();
    expect(entries.map((e) => [e.path, e.bundled])).toEqual([
      [other, true],
      [good, true],
    ]);
    // Opening a bundled file again returns the bundled entry.
    expect(await library.open(good)).toBe(entries[1]);
    expect(library.startupFailures).toEqual([]);
  });

  it('starts even when a bundled dataset cannot be read', async () => {
    const library = new DatasetLibrary({ load: fakeLoader(), bundled: [bad, good] });
    await library.ready;
    expect(library.list().map((e) => e.path)).toEqual([good]);
    expect(library.startupFailures.map((f) => [f.path, f.error.name])).toEqual([
      [bad, 'DataError'],
    ]);
  });
});

describe('DatasetLibrary with several files', () => {
  it('keys a dataset by all its files in order, the first as its path', async () => {
    const load = fakeLoader();
    const library = new DatasetLibrary({ load });
    const one = await library.open(good);
    const two = await library.open([good, other]);
    expect(two.files).toEqual([good, other]);
    expect(two.path).toBe(good);
    expect(two.id).not.toBe(one.id);
    expect(two.id).toBe(datasetId([good, other], {}));
    expect(await library.open([good, other])).toBe(two);
    expect((await library.open([other, good])).id).not.toBe(two.id);
    // A one-file list is the same dataset as its path.
    expect(await library.open([good])).toBe(one);
    expect(one.files).toEqual([good]);
  });

  it('fails when any of the files is missing, naming it', async () => {
    const library = new DatasetLibrary({ load: fakeLoader() });
    const gone = join(dir, 'gone.csv');
    await expect(library.open([good, gone])).rejects.toMatchObject({
      name: 'NotFound',
      message: `${gone}: no such file`,
    });
  });
});

describe('handlers', () => {
  it('serve every channel and wrap outcomes in envelopes', async () => {
    const library = new DatasetLibrary({ load: fakeLoader(), bundled: [good] });
    const handlers = createHandlers(library, { pickFile: async () => other });

    const listed = await invoke(handlers, 'datasets:list', null);
    expect(listed.ok && listed.value.map((e) => e.path)).toEqual([good]);

    const opened = await invoke(handlers, 'datasets:open', { path: other, options: { fold: 1 } });
    if (!opened.ok) throw new Error(opened.error.message);
    expect(opened.value.options).toEqual({ fold: 1 });

    expect(await invoke(handlers, 'dialog:openDataset', null)).toEqual({ ok: true, value: other });
    expect(await invoke(handlers, 'datasets:remove', { id: opened.value.id })).toEqual({
      ok: true,
      value: null,
    });
    const after = await invoke(handlers, 'datasets:list', null);
    expect(after.ok && after.value.length).toBe(1);
  });

  it('turn loader errors and invalid payloads into error envelopes', async () => {
    const handlers = createHandlers(new DatasetLibrary({ load: fakeLoader() }), {
      pickFile: async () => null,
    });
    expect(await invoke(handlers, 'datasets:open', { path: bad })).toEqual({
      ok: false,
      error: { name: 'DataError', message: `${bad}: not a MAT-file (fake loader)` },
    });
    const cases: [unknown, string][] = [
      [{}, "datasets:open: 'path' must be a non-empty string"],
      [{ path: '' }, "datasets:open: 'path' must be a non-empty string"],
      [{ path: good, extra: 1 }, "datasets:open: unknown field 'extra'"],
      [{ path: good, options: { fold: 0 } }, "options: 'fold' must be a positive integer"],
      [
        { path: good, options: { orientation: 'sideways' } },
        'options: \'orientation\' must be "n x d" or "d x n"',
      ],
      ['a string', 'datasets:open: expects an object'],
    ];
    for (const [payload, message] of cases) {
      expect(await invoke(handlers, 'datasets:open', payload)).toEqual({
        ok: false,
        error: { name: 'InvalidRequest', message },
      });
    }
    expect(await invoke(handlers, 'datasets:list', { x: 1 })).toMatchObject({
      ok: false,
      error: { name: 'InvalidRequest' },
    });
  });
});
