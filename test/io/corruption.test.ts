/**
 * The corruption corpus: damaged copies of every shared .mat file (truncated at 20 points,
 * random byte flips), absurd declared sizes, zero-length files and bad CSVs. Loading one must
 * never crash or hang: it ends in a DataError/MatReadError whose message names the file, or in
 * a dataset; a truncated file that still loads carries a warning.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { loadDataset } from '../../src/io/load';
import { DataError } from '../../src/io/errors';
import { MatReadError } from '../../src/io/mat/types';
import type { MultiViewDataset } from '../../src/core/dataset';
import { DATASETS, allMatFiles } from '../helpers/paths';
import { prng } from '../helpers/prng';

const TMP = mkdtempSync(join(tmpdir(), 'mvs-corrupt-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

type Outcome = { kind: 'error'; message: string } | { kind: 'ok'; ds: MultiViewDataset };

async function attempt(path: string): Promise<Outcome> {
  try {
    return { kind: 'ok', ds: await loadDataset(path) };
  } catch (e) {
    if (!(e instanceof DataError) && !(e instanceof MatReadError)) {
      throw new Error(`${path}: unexpected ${(e as Error).name}: ${(e as Error).message}`, {
        cause: e,
      });
    }
    expect(e.message).toContain(path);
    return { kind: 'error', message: e.message };
  }
}

const files = allMatFiles();

describe('damaged copies of every shared .mat file', () => {
  it.each(files)('%s truncated at 20 points', async (file) => {
    const bytes = readFileSync(join(DATASETS, file));
    for (let k = 0; k < 20; k++) {
      // Points spread over the file, the header included, never the full length.
      const cut = Math.floor((bytes.length * k) / 20 + ((k * 7919) % 97));
      const path = join(TMP, `${basename(file)}.cut${k}`);
      writeFileSync(path, bytes.subarray(0, Math.min(cut, bytes.length - 1)));
      const out = await attempt(path);
      if (out.kind === 'ok') {
        expect(
          out.ds.provenance.warnings.length,
          `${path} loaded without a warning`,
        ).toBeGreaterThan(0);
      }
      rmSync(path);
    }
  });

  it.each(files)('%s with random byte flips', async (file) => {
    const bytes = readFileSync(join(DATASETS, file));
    const rand = prng(bytes.length);
    for (let k = 0; k < 6; k++) {
      const copy = Uint8Array.from(bytes);
      const flips = 1 + Math.floor(rand() * 8);
      for (let f = 0; f < flips; f++) {
        const at = Math.floor(rand() * copy.length);
        copy[at] = copy[at]! ^ (1 + Math.floor(rand() * 255));
      }
      const path = join(TMP, `${basename(file)}.flip${k}`);
      writeFileSync(path, copy);
      await attempt(path); // either outcome is acceptable; a crash, hang or other error is not
      rmSync(path);
    }
  });
});

describe('hand-made damage', () => {
  const header = (): Uint8Array => {
    const h = new Uint8Array(128).fill(0x20);
    h.set(new TextEncoder().encode('MATLAB 5.0 MAT-file'));
    h[124] = 0;
    h[125] = 1;
    h[126] = 0x49; // 'I'
    h[127] = 0x4d; // 'M'
    return h;
  };
  const u32 = (...xs: number[]): Uint8Array => {
    const b = new Uint8Array(xs.length * 4);
    const v = new DataView(b.buffer);
    xs.forEach((x, i) => v.setUint32(i * 4, x, true));
    return b;
  };
  const write = (name: string, ...parts: Uint8Array[]): string => {
    const path = join(TMP, name);
    writeFileSync(path, Buffer.concat(parts));
    return path;
  };

  it('a zero-length file', async () => {
    const out = await attempt(write('empty.mat'));
    expect(out).toMatchObject({ kind: 'error' });
    expect((out as { message: string }).message).toMatch(/empty \(0 bytes\)/);
  });

  it('an element declaring 4 GB in a small file', async () => {
    const out = await attempt(
      write('huge-tag.mat', header(), u32(14, 0xfffffff0), new Uint8Array(64)),
    );
    expect(out).toMatchObject({ kind: 'error' });
    expect((out as { message: string }).message).toMatch(/no views found|declares/);
  });

  it('dims of 1e9 x 1e9 with 8 bytes of data, compressed', async () => {
    // miMATRIX: flags (double), dims [1e9, 1e9], name 'X', then one double.
    const body = Buffer.concat([
      u32(6, 8, 6, 0),
      u32(5, 8, 1e9, 1e9),
      u32(0x00010001, 0x58), // small element: 1 byte of miINT8, 'X'
      u32(9, 8, 0, 0),
    ]);
    const matrix = Buffer.concat([u32(14, body.length), body]);
    const z = deflateSync(matrix);
    const out = await attempt(write('huge-dims.mat', header(), u32(15, z.length), z));
    expect(out).toMatchObject({ kind: 'error' });
    expect((out as { message: string }).message).toMatch(
      /'X' could not be read and was skipped: .*expected 1000000000000000000 values, found 1/,
    );
  });

  it('a CSV with ragged rows, and one with text in a numeric column', async () => {
    const ragged = write('ragged.csv', Buffer.from('1,2,3\n4,5\n6,7,8\n'));
    const e1 = await attempt(ragged);
    expect(e1).toMatchObject({ kind: 'error' });
    expect((e1 as { message: string }).message).toMatch(/row 2/);
    const text = write('text.csv', Buffer.from('1,2,3\n4,five,6\n7,8,9\n'));
    const e2 = await attempt(text);
    expect(e2).toMatchObject({ kind: 'error' });
    expect((e2 as { message: string }).message).toMatch(/row 2.*column 2|column 2.*row 2/);
  });
});
