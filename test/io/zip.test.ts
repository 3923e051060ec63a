/**
 * The ZIP reader against archives written by Python's zipfile (test/fixtures/zip/make.py), and
 * the same archives damaged byte by byte: each damage is refused with its own message before
 * anything is allocated from the damaged field.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DataError } from '../../src/io/errors';
import { MAX_ZIP_ENTRIES } from '../../src/io/limits';
import { extractZip, listZip, refuseOverlaps, type ZipEntry } from '../../src/io/zip';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/zip');

interface Member extends ZipEntry {
  /** The member's bytes as zipfile reads them, base64. */
  readonly data: string;
}
const cases = JSON.parse(readFileSync(join(FIXTURES, 'cases.json'), 'utf8')) as Record<
  string,
  { archive: string; members: Member[] }
>;

function archive(name: string): Uint8Array {
  return new Uint8Array(Buffer.from(cases[name]!.archive, 'base64'));
}

function dataError(f: () => unknown): DataError {
  try {
    f();
  } catch (e) {
    if (e instanceof DataError) return e;
    throw e;
  }
  throw new Error('expected a DataError');
}

/** Offset of the end-of-central-directory record (no comment in the archives patched here). */
function eocd(bytes: Uint8Array): number {
  return bytes.length - 22;
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Offset of central directory entry `k` (0-based). */
function central(bytes: Uint8Array, k: number): number {
  const v = view(bytes);
  let p = v.getUint32(eocd(bytes) + 16, true);
  for (let i = 0; i < k; i++) {
    p += 46 + v.getUint16(p + 28, true) + v.getUint16(p + 30, true) + v.getUint16(p + 32, true);
  }
  return p;
}

describe('listZip and extractZip read what zipfile wrote', () => {
  for (const name of Object.keys(cases)) {
    it(name, () => {
      const bytes = archive(name);
      const entries = listZip(bytes, `${name}.npz`);
      const expected = cases[name]!.members;
      expect(entries).toEqual(expected.map(({ data: _, ...entry }) => entry));
      refuseOverlaps(bytes, entries, `${name}.npz`);
      entries.forEach((entry, k) => {
        const data = extractZip(bytes, entry, `${name}.npz`);
        expect(Buffer.from(data).toString('base64'), entry.name).toBe(expected[k]!.data);
      });
    });
  }

  it('decodes a UTF-8 name by its flag', () => {
    const names = listZip(archive('mixed'), 'm.npz').map((e) => e.name);
    expect(names).toEqual(['dir/', 'dir/empty.npy', 'dir/\u00e9t\u00e9.npy', 'last.txt']);
  });

  it('inflates 5000 repetitive bytes from 38', () => {
    const bytes = archive('deflated');
    const text = listZip(bytes, 'd.npz')[2]!;
    expect([text.compressedSize, text.size]).toEqual([38, 5000]);
    const out = extractZip(bytes, text, 'd.npz');
    expect(new TextDecoder().decode(out)).toBe('0123456789'.repeat(500));
  });
});

describe('damaged archives', () => {
  it('without an end-of-central-directory record', () => {
    const bytes = archive('stored');
    for (const cut of [bytes.subarray(0, bytes.length - 1), new Uint8Array(0)]) {
      expect(dataError(() => listZip(cut, 'z.npz')).message).toBe(
        'z.npz: not a ZIP archive, or truncated (no end-of-central-directory record); ' +
          'expected an .npz file (a ZIP of .npy arrays)',
      );
    }
  });

  it('a central directory outside the file', () => {
    const bytes = archive('stored').slice();
    view(bytes).setUint32(eocd(bytes) + 16, bytes.length, true);
    expect(dataError(() => listZip(bytes, 'z.npz')).message).toBe(
      'z.npz: the ZIP archive is damaged or truncated: the central directory lies outside the file',
    );
  });

  it('more members than an .npz may hold', () => {
    const bytes = archive('stored').slice();
    view(bytes).setUint16(eocd(bytes) + 10, MAX_ZIP_ENTRIES + 1, true);
    expect(dataError(() => listZip(bytes, 'z.npz')).message).toBe(
      `z.npz: the ZIP archive declares ${MAX_ZIP_ENTRIES + 1} members; an .npz file may hold at most ${MAX_ZIP_ENTRIES}`,
    );
  });

  it('a directory entry without its signature', () => {
    const bytes = archive('deflated').slice();
    bytes[central(bytes, 1)] = 0;
    expect(dataError(() => listZip(bytes, 'z.npz')).message).toBe(
      'z.npz: the ZIP archive is damaged or truncated: central directory entry 2 of 3',
    );
  });

  it('two directory entries for the same bytes', () => {
    const bytes = archive('deflated').slice();
    view(bytes).setUint32(central(bytes, 1) + 42, 0, true);
    const entries = listZip(bytes, 'z.npz');
    expect(dataError(() => refuseOverlaps(bytes, entries, 'z.npz')).message).toBe(
      `z.npz: the ZIP members "X0.npy" and "Y.npy" share bytes of the archive ` +
        `(a crafted archive repeats one member to multiply it): refusing a decompression bomb`,
    );
  });

  it('a flipped data byte fails the CRC-32', () => {
    const bytes = archive('stored').slice();
    const [entry] = listZip(bytes, 'z.npz');
    const at = 30 + 'a.npy'.length + 200;
    bytes[at] = bytes[at]! ^ 0xff;
    const e = dataError(() => extractZip(bytes, entry!, 'z.npz'));
    expect(e.message).toBe(
      'z.npz, variable a.npy: the ZIP member is damaged or truncated: CRC-32 mismatch',
    );
    expect(e.variable).toBe('a.npy');
  });

  it('a declared size deflate cannot reach, refused before inflating', () => {
    const bytes = archive('deflated');
    const x0 = listZip(bytes, 'z.npz')[0]!;
    const bomb = { ...x0, size: x0.compressedSize * 1032 + 1025 };
    expect(dataError(() => extractZip(bytes, bomb, 'z.npz')).message).toBe(
      `z.npz, variable X0.npy: the ZIP member is damaged or truncated: implausible size ${bomb.size} for 274 compressed bytes`,
    );
    const short = { ...x0, size: 300 };
    expect(dataError(() => extractZip(bytes, short, 'z.npz')).message).toMatch(
      /^z\.npz, variable X0\.npy: the ZIP member is damaged or truncated: deflate data \(/,
    );
  });

  it('a member that runs past the end, encrypted, or of another method', () => {
    const bytes = archive('stored');
    const [entry] = listZip(bytes, 'z.npz');
    const cut = bytes.subarray(0, 100);
    expect(dataError(() => extractZip(cut, entry!, 'z.npz')).message).toBe(
      'z.npz, variable a.npy: the ZIP member is damaged or truncated: 320 bytes declared, 65 present',
    );
    expect(dataError(() => extractZip(bytes, { ...entry!, flags: 1 }, 'z.npz')).message).toBe(
      'z.npz, variable a.npy: the ZIP member is encrypted',
    );
    expect(dataError(() => extractZip(bytes, { ...entry!, method: 12 }, 'z.npz')).message).toBe(
      'z.npz, variable a.npy: unsupported ZIP compression method 12; expected stored (0) or deflate (8)',
    );
    expect(dataError(() => extractZip(bytes, { ...entry!, localOffset: 8 }, 'z.npz')).message).toBe(
      'z.npz, variable a.npy: the ZIP member is damaged or truncated: no local header where the central directory points',
    );
  });
});
