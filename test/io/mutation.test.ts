/**
 * Seeded mutations of small CSV, NPY and NPZ files (truncations, byte flips, empty cells, lone
 * quotes, huge numbers, byte-order marks, CRLF, 10^4 columns): every one must load or fail with
 * a DataError / MatReadError naming the file; any other exception is a loader bug.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDataset } from '../../src/io/load';
import { DataError } from '../../src/io/errors';
import { MatReadError } from '../../src/io/mat/types';
import { prng } from '../helpers/prng';
import { doubles, int32s, npy, zip } from '../helpers/io-build';

const TMP = mkdtempSync(join(tmpdir(), 'mvs-mutate-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const rand = prng(16);
const int = (n: number): number => Math.floor(rand() * n);

function csvText(rows: number, cols: number, header: boolean): string {
  const lines: string[] = [];
  if (header) lines.push(Array.from({ length: cols }, (_, j) => `f${j}`).join(','));
  for (let i = 0; i < rows; i++) {
    lines.push(Array.from({ length: cols }, () => (rand() * 20 - 10).toFixed(3)).join(','));
  }
  return lines.join('\n') + '\n';
}

/** Text mutations: each returns a new text. */
const textMutations: ((t: string) => string)[] = [
  (t) => t.slice(0, int(t.length)),
  (t) => t.replace(/-?\d+\.\d+/g, (m) => (rand() < 0.3 ? '' : m)),
  (t) => {
    const at = int(t.length);
    return `${t.slice(0, at)}"${t.slice(at)}`;
  },
  (t) => t.replace(/-?\d+\.\d+/, ['1e999', '-1e400', '9'.repeat(400), '1e-400', 'NaN'][int(5)]!),
  (t) => `\ufeff${t}`,
  (t) => t.replace(/\n/g, '\r\n'),
  (t) => t.replace(/\n/g, '\r'),
  (t) => t.replace(/,/g, ['', ';', '\t', ',,', ' '][int(5)]!),
  (t) => t + Array.from({ length: 10_000 }, () => '1').join(',') + '\n',
  (t) => t.replace(/\n/, '\n\n\n'),
  (t) =>
    t
      .split('\n')
      .map((line) => (rand() < 0.2 ? ',,,' : line))
      .join('\n'),
  () => ',,,\n,,,\n',
  () => '""\n""\n',
  (t) => t.replace(/\d/g, (d) => (rand() < 0.05 ? String.fromCharCode(int(128)) : d)),
];

function flipBytes(b: Buffer): Buffer {
  const c = Buffer.from(b);
  const flips = 1 + int(8);
  for (let k = 0; k < flips; k++) {
    const at = int(c.length);
    c[at] = c[at]! ^ (1 + int(255));
  }
  return c;
}

function binaryMutations(b: Buffer): Buffer {
  switch (int(3)) {
    case 0:
      return b.subarray(0, int(b.length));
    case 1:
      return flipBytes(b);
    default: {
      // Overwrite a 4-byte field with an extreme value.
      const c = Buffer.from(b);
      const at = int(Math.max(1, c.length - 4));
      c.writeUInt32LE([0xffffffff, 0x7fffffff, 0, 0x80000000][int(4)]!, at);
      return c;
    }
  }
}

type Outcome = 'ok' | 'error';

async function attempt(paths: string[], labelsFile?: string): Promise<Outcome> {
  try {
    await loadDataset(paths, labelsFile !== undefined ? { labelsFile } : {});
    return 'ok';
  } catch (e) {
    if (!(e instanceof DataError) && !(e instanceof MatReadError)) {
      throw new Error(
        `${paths.join(', ')}: unexpected ${(e as Error).name}: ${(e as Error).message}`,
        {
          cause: e,
        },
      );
    }
    return 'error';
  }
}

let count = 0;
const save = (name: string, data: Buffer | string): string => {
  const p = join(TMP, `${++count}-${name}`);
  writeFileSync(p, data);
  return p;
};

describe('mutated CSV, NPY and NPZ files end in a dataset or a DataError', () => {
  it('CSV: 120 mutations of three base files, some with a labels file', async () => {
    const bases = [csvText(12, 4, true), csvText(8, 3, false), csvText(6, 1, false)];
    const seen = { ok: 0, error: 0 };
    for (let k = 0; k < 120; k++) {
      let text = bases[k % bases.length]!;
      const steps = 1 + int(2);
      for (let s = 0; s < steps; s++) text = textMutations[int(textMutations.length)]!(text);
      const p = save('m.csv', text);
      const labels =
        rand() < 0.3 ? save('y.csv', textMutations[int(4)]!('1\n2\n1\n2\n1\n2\n')) : undefined;
      seen[await attempt([p], labels)]++;
    }
    // Both outcomes occur: the mutations neither all break nor all miss the files.
    expect(seen.ok).toBeGreaterThan(0);
    expect(seen.error).toBeGreaterThan(0);
  }, 60_000);

  it('NPY: 80 truncations, flips and extreme fields', async () => {
    const bases = [
      npy('<f8', [6, 3], doubles(Array.from({ length: 18 }, (_, i) => i / 3))),
      npy('<i4', [6, 2], int32s([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]), true),
      npy('|u1', [5], Buffer.from([1, 2, 3, 4, 5])),
    ];
    const seen = { ok: 0, error: 0 };
    for (let k = 0; k < 80; k++) {
      const p = save('m.npy', binaryMutations(bases[k % bases.length]!));
      seen[await attempt([p])]++;
    }
    expect(seen.error).toBeGreaterThan(0);
  }, 60_000);

  it('NPZ: 80 truncations, flips and extreme fields, stored and deflated', async () => {
    const x1 = npy('<f8', [5, 2], doubles([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]));
    const x2 = npy('<f4', [5, 3], Buffer.alloc(60, 1));
    const y = npy('<f8', [5], doubles([1, 2, 1, 2, 1]));
    const bases = [
      zip([
        { name: 'X1.npy', data: x1 },
        { name: 'X2.npy', data: x2 },
        { name: 'Y.npy', data: y },
      ]),
      zip([
        { name: 'X1.npy', data: x1, deflate: true },
        { name: 'X2.npy', data: x2, deflate: true },
        { name: 'Y.npy', data: y, deflate: true },
      ]),
    ];
    const seen = { ok: 0, error: 0 };
    for (let k = 0; k < 80; k++) {
      const p = save('m.npz', binaryMutations(bases[k % bases.length]!));
      seen[await attempt([p])]++;
    }
    expect(seen.error).toBeGreaterThan(0);
  }, 60_000);
});
