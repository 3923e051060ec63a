/**
 * writeMatV5: files read back by our MAT v5 reader (itself tested against MATLAB- and
 * scipy-written files in v5.test.ts) with the same names, shapes and values; cells, chars and
 * empty matrices; 8-byte alignment; atomic; bad names and sizes refused.
 */
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMatV5 } from '../../../src/io/mat/v5';
import { writeMatV5 } from '../../../src/io/mat/v5-write';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mat-write-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('writeMatV5', () => {
  it('round-trips doubles (NaN included), a cell of matrices and chars, and an empty matrix', async () => {
    const A = Float64Array.from({ length: 15 }, (_, i) => (i % 4 === 0 ? NaN : i / 3 - 1));
    const path = join(dir, 'a.mat');
    await writeMatV5(path, [
      { name: 'A', value: { type: 'double', rows: 3, cols: 5, data: A } },
      {
        name: 'C',
        value: {
          type: 'cell',
          rows: 1,
          cols: 3,
          items: [
            { type: 'double', rows: 2, cols: 1, data: () => Float64Array.from([7, 8]) },
            { type: 'char', text: 'héllo' },
            { type: 'double', rows: 0, cols: 1, data: new Float64Array(0) },
          ],
        },
      },
    ]);
    const bytes = await readFile(path);
    expect(bytes.length % 8).toBe(0);
    expect(String.fromCharCode(bytes[126]!, bytes[127]!)).toBe('IM');
    const file = await readMatV5(path);
    expect(file.warnings).toEqual([]);
    const a = file.variables.get('A');
    expect(a?.type).toBe('numeric');
    if (a?.type !== 'numeric') return;
    expect(a.dims).toEqual([3, 5]);
    expect(a.class).toBe('double');
    expect(Array.from(a.re)).toEqual(Array.from(A));
    const c = file.variables.get('C');
    expect(c?.type).toBe('cell');
    if (c?.type !== 'cell') return;
    expect(c.dims).toEqual([1, 3]);
    const [x, s, e] = c.items;
    expect(x?.type === 'numeric' && Array.from(x.re)).toEqual([7, 8]);
    expect(s?.type === 'char' && s.text).toBe('héllo');
    expect(e?.type === 'numeric' && e.dims).toEqual([0, 1]);
  });

  it('refuses bad names, wrong value counts and leaves no file behind', async () => {
    await expect(
      writeMatV5(join(dir, 'b.mat'), [
        { name: '1x', value: { type: 'double', rows: 1, cols: 1, data: new Float64Array(1) } },
      ]),
    ).rejects.toThrow(/bad or repeated variable name '1x'/);
    await expect(
      writeMatV5(join(dir, 'b.mat'), [
        { name: 'A', value: { type: 'double', rows: 2, cols: 2, data: new Float64Array(3) } },
      ]),
    ).rejects.toThrow(/'A' has 3 values, not 2×2/);
    await expect(
      writeMatV5(join(dir, 'b.mat'), [
        { name: 'A', value: { type: 'double', rows: 2, cols: 2, data: () => new Float64Array(3) } },
      ]),
    ).rejects.toThrow(/'A' produced 3 values/);
    await expect(
      writeMatV5(join(dir, 'b.mat'), [
        {
          name: 'Big',
          value: { type: 'double', rows: 1 << 16, cols: 1 << 13, data: () => new Float64Array(0) },
        },
      ]),
    ).rejects.toThrow(/'Big' would take 4 GiB or more/);
    expect((await readdir(dir)).filter((f) => f.startsWith('b.mat'))).toEqual([]);
  });
});
