/**
 * The missing-view generator: the protocol's promises on a toy presence, and the round trip
 * through the real loader (the NPZ mask applied as a mask file) on a complete shared dataset.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { createHandlers, invoke } from '../../src/backend/handlers';
import { DatasetLibrary } from '../../src/backend/library';
import { describeProtocol, generateMask } from '../../src/backend/missing';
import { presenceBits } from '../../src/shared/contract';
import { DATASETS } from '../helpers/paths';

const TMP = mkdtempSync(join(tmpdir(), 'mvs-missing-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

describe('generateMask', () => {
  const n = 200;
  const V = 3;
  const complete = {
    n,
    views: ['a', 'b', 'c'],
    bits: [0, 1, 2].map(() =>
      presenceBits(
        n,
        Array.from({ length: n }, (_, i) => i),
      ),
    ),
  };

  it('keeps round(p·n) samples complete; every other sample loses 1..V−1 views', () => {
    for (const p of [0, 0.1, 0.5, 1]) {
      const mask = generateMask(complete, p, 7);
      let full = 0;
      for (let i = 0; i < n; i++) {
        let kept = 0;
        for (let v = 0; v < V; v++) kept += mask[i * V + v]!;
        expect(kept).toBeGreaterThanOrEqual(1);
        if (kept === V) full++;
      }
      expect(full, `p = ${p}`).toBe(Math.round(p * n));
    }
  });

  it('is reproducible from the seed, and keeps existing gaps', () => {
    expect(generateMask(complete, 0.3, 1)).toEqual(generateMask(complete, 0.3, 1));
    expect(generateMask(complete, 0.3, 1)).not.toEqual(generateMask(complete, 0.3, 2));
    const gappy = {
      n: 4,
      views: ['a', 'b'],
      bits: [presenceBits(4, [0, 1, 2]), presenceBits(4, [1, 2, 3])],
    };
    const mask = generateMask(gappy, 0, 1);
    expect(mask[0 * 2 + 1]).toBe(0);
    expect(mask[3 * 2 + 0]).toBe(0);
    expect(mask[0 * 2 + 0]).toBe(1);
    expect(() => generateMask(gappy, 1.5, 1)).toThrow('from 0 to 1');
  });

  it('states the protocol in words', () => {
    expect(describeProtocol(0.5, 3)).toBe(
      '50% of the samples stay complete (all 3 views); every other sample loses a random non-empty set of its views and keeps at least one',
    );
  });
});

describe('datasets:generateMissing', () => {
  it('makes an incomplete MSRC-v1 that the loader reads back as a mask file', async () => {
    const library = new DatasetLibrary();
    onTestFinished(() => library.dispose());
    const handlers = createHandlers(library, { pickFile: async () => null, dataDir: TMP });
    const entry = await library.open(join(DATASETS, 'MSRC-v1/MSRCV1.mat'));
    expect(entry.summary.missingness).toBe('complete');
    const reply = await invoke(handlers, 'datasets:generateMissing', {
      id: entry.id,
      completeFraction: 0.5,
      seed: 3,
    });
    if (!reply.ok) throw new Error(reply.error.message);
    const made = reply.value.entry;
    expect(made.id).not.toBe(entry.id);
    expect(made.summary.missingness).toBe('mask-file');
    expect(made.options.mask).toMatch(/MSRCV1-complete50-seed3\.npz$/);
    expect(made.summary.samplesByViewCount.at(-1)).toBe(105);
    expect(made.summary.samplesByViewCount.reduce((a, b) => a + b, 0)).toBe(210);
    expect(reply.value.protocol).toContain('50% of the samples stay complete');
  });
});

describe('datasets:save', () => {
  it('writes the made dataset, in the loader, to a granted path only; it reopens the same', async () => {
    const library = new DatasetLibrary();
    onTestFinished(() => library.dispose());
    const out = join(TMP, 'saved');
    mkdirSync(out);
    const handlers = createHandlers(library, { pickFile: async () => null, dataDir: TMP });
    const entry = await library.open(join(DATASETS, 'MSRC-v1/MSRCV1.mat'));
    const made = await invoke(handlers, 'datasets:generateMissing', {
      id: entry.id,
      completeFraction: 0.5,
      seed: 3,
    });
    if (!made.ok) throw new Error(made.error.message);
    const id = made.value.entry.id;
    const target = join(out, 'MSRC-missing.mat');

    // No grant: refused, nothing written.
    const refused = await invoke(handlers, 'datasets:save', { id, path: target });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.name).toBe('Forbidden');
    expect(existsSync(target)).toBe(false);

    // A wrong extension is refused before the grant is spent.
    const txt = join(out, 'MSRC-missing.txt');
    expect((await invoke(handlers, 'dialog:saveFile', { defaultName: 'x', path: txt })).ok).toBe(
      true,
    );
    const wrong = await invoke(handlers, 'datasets:save', { id, path: txt });
    expect(!wrong.ok && wrong.error.message).toContain('saved as .mat (MAT v5) or .npz');

    for (const path of [target, join(out, 'MSRC-missing.npz')]) {
      const granted = await invoke(handlers, 'dialog:saveFile', { defaultName: 'x', path });
      expect(granted.ok).toBe(true);
      const saved = await invoke(handlers, 'datasets:save', { id, path });
      if (!saved.ok) throw new Error(saved.error.message);
      expect(saved.value).toEqual({ path, format: path.endsWith('.mat') ? 'mat' : 'npz' });
      const back = await library.open(path);
      expect(back.summary.missingness).toBe('nan-columns');
      expect(back.summary.samplesByViewCount).toEqual(made.value.entry.summary.samplesByViewCount);
      expect(back.summary.views.map((v) => [v.d, v.present])).toEqual(
        made.value.entry.summary.views.map((v) => [v.d, v.present]),
      );
      expect(library.presence(back.id).bits).toEqual(library.presence(id).bits);
      expect(back.summary.labels?.sizes).toEqual(made.value.entry.summary.labels?.sizes);
      // The grant was for one write.
      const again = await invoke(handlers, 'datasets:save', { id, path });
      expect(!again.ok && again.error.name).toBe('Forbidden');
    }
  });

  it('names an unknown dataset', async () => {
    const library = new DatasetLibrary({ load: async () => Promise.reject(new Error('unused')) });
    const handlers = createHandlers(library, { pickFile: async () => null, dataDir: TMP });
    const path = join(TMP, 'none.mat');
    await invoke(handlers, 'dialog:saveFile', { defaultName: 'x', path });
    const reply = await invoke(handlers, 'datasets:save', { id: 'nope', path });
    expect(!reply.ok && reply.error).toMatchObject({
      name: 'NotFound',
      message: "no open dataset has the id 'nope'",
    });
  });
});
