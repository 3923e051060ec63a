import { mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_WRITE_GRANTS,
  ReadGrants,
  WriteGrants,
  expandHome,
  expandOptionPaths,
  expandTypedPath,
  grantTypedPath,
  maskIsPath,
} from '../../src/backend/grants';
import { createHandlers, invoke } from '../../src/backend/handlers';
import { DatasetLibrary } from '../../src/backend/library';
import { fakeLoader } from '../helpers/fake-dataset';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mvstudio-grants-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('typed read paths', () => {
  it('expand a leading ~ only, and leave other paths as typed', () => {
    expect(expandHome('~/data/x.mat', '/home/u')).toBe('/home/u/data/x.mat');
    expect(expandHome(' ~ ', '/home/u')).toBe('/home/u');
    expect(expandHome('/data/x.mat', '/home/u')).toBe('/data/x.mat');
    expect(expandHome('x.mat', '/home/u')).toBe('x.mat');
    expect(expandHome('~user/x.mat', '/home/u')).toBe('~user/x.mat');
  });

  it('expand the labels file and a mask file, never a mask variable', () => {
    expect(
      expandOptionPaths({ labelsFile: '~/y.csv', mask: '~/folds.mat', fold: 2 }, '/home/u'),
    ).toEqual({ labelsFile: '/home/u/y.csv', mask: '/home/u/folds.mat', fold: 2 });
    expect(expandOptionPaths({ mask: 'folds' }, '/home/u')).toEqual({ mask: 'folds' });
  });
});

describe('typed save paths', () => {
  it('expand a leading ~ and refuse relative paths', () => {
    expect(expandTypedPath('~/out/a.csv', '/home/u')).toBe('/home/u/out/a.csv');
    expect(expandTypedPath('  /data/x/../a.csv ', '/home/u')).toBe('/data/a.csv');
    for (const bad of ['a.csv', './a.csv', '../a.csv', '~user/a.csv', '', '   ']) {
      expect(() => expandTypedPath(bad, '/home/u'), bad).toThrow('type a full path');
    }
  });

  it('are granted once each, and a bounded number of grants is kept', async () => {
    const grants = new WriteGrants();
    const path = await grantTypedPath(grants, join(dir, 'a.csv'), false);
    expect(grants.take('files:saveText', path)).toBe(path);
    expect(() => grants.take('files:saveText', path)).toThrow(
      `files:saveText: refused to write ${path}: the path was not chosen in a save field`,
    );
    expect(() => grants.take('files:saveText', 'a.csv')).toThrow('not chosen in a save field');
    for (let i = 0; i < MAX_WRITE_GRANTS + 10; i++) grants.grant(join(dir, `f${i}.csv`));
    expect(grants.size).toBe(MAX_WRITE_GRANTS);
    // The oldest went first.
    expect(() => grants.take('x', join(dir, 'f0.csv'))).toThrow('not chosen');
    expect(grants.take('x', join(dir, `f${MAX_WRITE_GRANTS + 9}.csv`))).toBeTruthy();
  });

  it('refuse an existing file or folder without overwrite, and a missing folder', async () => {
    const grants = new WriteGrants();
    const file = join(dir, 'there.csv');
    await writeFile(file, 'x');
    await expect(grantTypedPath(grants, file, false)).rejects.toMatchObject({ name: 'Exists' });
    await expect(grantTypedPath(grants, dir, false)).rejects.toThrow('(a folder)');
    expect(await grantTypedPath(grants, file, true)).toBe(file);
    // A dangling symlink exists too: it is not written through silently.
    const link = join(dir, 'dangling.csv');
    await symlink(join(dir, 'nowhere'), link);
    await expect(grantTypedPath(grants, link, false)).rejects.toMatchObject({ name: 'Exists' });
    await expect(grantTypedPath(grants, join(dir, 'no', 'x.csv'), false)).rejects.toMatchObject({
      name: 'NotFound',
    });
  });
});

describe('ReadGrants', () => {
  it('persist the paths the user chose, and survive a damaged file', async () => {
    const file = join(dir, 'state', 'granted-paths.json');
    const a = await ReadGrants.load(file);
    expect(a.has('/x/data.mat')).toBe(false);
    await a.allow('/x/data.mat');
    await a.allow('/x/other.csv');
    await a.allow('/x/data.mat');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(['/x/other.csv', '/x/data.mat']);
    const b = await ReadGrants.load(file);
    expect(b.has('/x/data.mat')).toBe(true);
    expect(b.has('/x/../x/data.mat')).toBe(true);
    expect(b.has('data.mat')).toBe(false);
    expect(() => b.check('datasets:open', 'the dataset', '/etc/passwd')).toThrow(
      'datasets:open: the dataset /etc/passwd was not chosen by the user',
    );
    await writeFile(file, '{not json');
    expect((await ReadGrants.load(file)).has('/x/data.mat')).toBe(false);
    await writeFile(file, JSON.stringify(['relative.mat', 3, '/ok.mat']));
    const c = await ReadGrants.load(file);
    expect([c.has('relative.mat'), c.has('/ok.mat')]).toEqual([false, true]);
  });

  it('tell a mask variable from a mask file', () => {
    expect(maskIsPath('folds')).toBe(false);
    expect(maskIsPath('mask_2')).toBe(false);
    expect(maskIsPath('folds.mat')).toBe(true);
    expect(maskIsPath('/data/folds.mat')).toBe(true);
    expect(maskIsPath('..')).toBe(true);
  });
});

describe('handlers with read grants (the Electron host)', () => {
  it('open only paths from the dialog, and grant what the save dialog returned', async () => {
    const data = join(dir, 'data.mat');
    const masks = join(dir, 'el-data');
    await writeFile(data, 'x');
    const reads = await ReadGrants.load(join(dir, 'el-grants.json'));
    const saveTo = join(dir, 'saved.csv');
    const handlers = createHandlers(new DatasetLibrary({ load: fakeLoader() }), {
      pickFile: async () => data,
      pickSaveFile: async () => saveTo,
      readGrants: reads,
      dataDir: masks,
    });
    const refused = await invoke(handlers, 'datasets:open', { path: data });
    expect(refused).toMatchObject({ ok: false, error: { name: 'Forbidden' } });
    expect(await invoke(handlers, 'dialog:openDataset', null)).toEqual({ ok: true, value: data });
    const opened = await invoke(handlers, 'datasets:open', { path: data });
    if (!opened.ok) throw new Error(opened.error.message);

    for (const options of [{ labelsFile: '/etc/passwd' }, { mask: '/etc/folds.mat' }]) {
      const r = await invoke(handlers, 'datasets:open', { path: data, options });
      expect(r.ok ? 'opened' : r.error.message).toMatch(/was not chosen by the user/);
    }
    // A mask variable is not a path.
    expect(
      (await invoke(handlers, 'datasets:open', { path: data, options: { mask: 'folds' } })).ok,
    ).toBe(true);
    // The generated mask is the app's own: reading it again is allowed.
    const made = await invoke(handlers, 'datasets:generateMissing', {
      id: opened.value.id,
      completeFraction: 0.5,
      seed: 2,
    });
    if (!made.ok) throw new Error(made.error.message);
    const reopened = await invoke(handlers, 'datasets:open', {
      path: data,
      options: made.value.entry.options,
    });
    expect(reopened.ok).toBe(true);

    // Writes: the save dialog's answer, once; a typed path is not this host's way.
    const typed = await invoke(handlers, 'dialog:saveFile', { defaultName: 'x', path: saveTo });
    expect(typed).toMatchObject({ ok: false, error: { name: 'Forbidden' } });
    expect(await invoke(handlers, 'dialog:saveFile', { defaultName: 'x.csv' })).toEqual({
      ok: true,
      value: saveTo,
    });
    expect(await invoke(handlers, 'files:saveText', { path: saveTo, text: 't' })).toEqual({
      ok: true,
      value: { path: saveTo },
    });
    const twice = await invoke(handlers, 'files:saveText', { path: saveTo, text: 'u' });
    expect(twice).toMatchObject({ ok: false, error: { name: 'Forbidden' } });
    expect(await readFile(saveTo, 'utf8')).toBe('t');
  });
});

describe('handlers without a data folder', () => {
  it('write masks in a private mkdtemp folder, never a planted predictable one', async () => {
    const tmp = join(dir, 'tmp');
    const planted = join(dir, 'planted');
    await mkdir(tmp);
    await mkdir(planted);
    await symlink(planted, join(tmp, 'mvstudio-data'));
    const saved = process.env['TMPDIR'];
    process.env['TMPDIR'] = tmp;
    try {
      const data = join(dir, 'd2.mat');
      await writeFile(data, 'x');
      const library = new DatasetLibrary({ load: fakeLoader() });
      const handlers = createHandlers(library, { pickFile: async () => null });
      const entry = await library.open(data);
      const made = await invoke(handlers, 'datasets:generateMissing', {
        id: entry.id,
        completeFraction: 0.5,
        seed: 1,
      });
      if (!made.ok) throw new Error(made.error.message);
      expect(await readdir(planted)).toEqual([]);
      const own = join(made.value.entry.options.mask!, '..', '..');
      expect(own.startsWith(join(tmp, 'mvstudio-data-'))).toBe(true);
      expect((await stat(own)).mode & 0o777).toBe(0o700);
    } finally {
      if (saved === undefined) delete process.env['TMPDIR'];
      else process.env['TMPDIR'] = saved;
    }
  });
});

describe('error envelopes', () => {
  it('never carry the text an engine error quotes', async () => {
    const secret = 'root:x:0:0:root:/root:/bin/bash';
    const load = async (): Promise<never> => {
      JSON.parse(secret);
      throw new Error('unreachable');
    };
    const handlers = createHandlers(new DatasetLibrary({ load }), { pickFile: async () => null });
    await writeFile(join(dir, 'x.json'), secret);
    const reply = await invoke(handlers, 'datasets:open', { path: join(dir, 'x.json') });
    expect(reply.ok).toBe(false);
    expect(JSON.stringify(reply)).not.toContain('root:x');
    expect(reply.ok ? null : reply.error).toEqual({
      name: 'SyntaxError',
      message: "datasets:open: an internal SyntaxError (the details are in the host's log)",
    });
  });
});
