/**
 * The loaders against hostile input (issue 16): decompression bombs, absurd declared sizes,
 * FIFOs, files that are not the user's data, complex and overflowing values, and a mapper that
 * must stay linear in the number of variables. Every file is made here, from scratch.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  mkdtempSync,
  openSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDataset } from '../../src/io/load';
import { DataError } from '../../src/io/errors';
import { MAX_SAMPLES, MAX_ZIP_ENTRIES } from '../../src/io/limits';
import type { MultiViewDataset } from '../../src/core/dataset';
import {
  compressed,
  doubleMatrix,
  doubles,
  element,
  int32s,
  matFile,
  matrix,
  mi,
  mx,
  npy,
  zip,
} from '../helpers/io-build';
import { DATASETS } from '../helpers/paths';

const TMP = mkdtempSync(join(tmpdir(), 'mvs-robust-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

let count = 0;
function write(name: string, bytes: Buffer | string): string {
  const p = join(TMP, `${++count}-${name}`);
  writeFileSync(p, bytes);
  return p;
}

async function refusal(p: Promise<unknown>): Promise<DataError> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e, 'expected a DataError').toBeInstanceOf(DataError);
  return e as DataError;
}

describe('decompression bombs (point 3)', () => {
  it('MAT v5: many compressed variables, each under the per-variable cap, exceed the file budget', async () => {
    // 8 Mi zero doubles (64 MiB inflated) compress to about 64 KB; twelve copies are ~0.8 MB.
    const one = compressed(
      matrix(mx.double, [8 * 2 ** 20, 1], 'Z', [element(mi.double, Buffer.alloc(8 * 2 ** 20 * 8))]),
    );
    const p = write('bomb.mat', matFile(Array.from({ length: 12 }, () => one)));
    const e = await refusal(loadDataset(p));
    expect(e.message).toMatch(
      /the data decode to more than .* \(at most max\(64 MiB, 200 × the file's \d+ KB\), capped at 512 MiB.*refusing a decompression bomb/,
    );
    expect(e.message.startsWith(p)).toBe(true);
  });

  it('MAT v5: a narrow storage type counts at the 8 bytes per value it is widened to', async () => {
    // 20 M uint8 zeros inflate to 20 MB, under the 64 MiB floor, but widen to 160 MB.
    const v = compressed(
      matrix(mx.double, [20_000_000, 1], 'X', [element(mi.uint8, Buffer.alloc(20_000_000))]),
    );
    const e = await refusal(loadDataset(write('narrow.mat', matFile([v]))));
    expect(e.message).toMatch(/variable X: real part: the data decode to more than 64 MiB/);
  });

  it('NPZ: directory entries pointing at one member are refused', async () => {
    const a = npy('<f8', [2, 2], doubles([1, 2, 3, 4]));
    const p = write('repeat.npz', zip([{ name: 'X1.npy', data: a }], [0, 0, 0]));
    const e = await refusal(loadDataset(p));
    expect(e.message).toMatch(/share bytes of the archive.*refusing a decompression bomb/);
  });

  it('NPZ: the entry count is bounded', async () => {
    const a = npy('<f8', [1], doubles([1]));
    const p = write('many.npz', zip([{ name: 'X1.npy', data: a }], [0], MAX_ZIP_ENTRIES + 1));
    const e = await refusal(loadDataset(p));
    expect(e.message).toMatch(/declares 10001 members; an .npz file may hold at most 10000/);
  });

  it('NPZ: deflated members share the file budget', async () => {
    // 70 MB of zero doubles deflate to about 70 KB: over the 64 MiB floor.
    const big = npy('<f8', [8_750_000], Buffer.alloc(70_000_000));
    const p = write('deflated.npz', zip([{ name: 'X1.npy', data: big, deflate: true }]));
    const e = await refusal(loadDataset(p));
    expect(e.message).toMatch(/variable X1: the data decode to more than 64 MiB/);
  });
});

describe('declared dimensions (point 4)', () => {
  it('a 344-byte-class MAT file of sparse (2^31-1) x 1 matrices is refused before n-sized arrays', async () => {
    const sparse = (name: string): Buffer =>
      matrix(mx.sparse, [2 ** 31 - 1, 1], name, [
        element(mi.int32, Buffer.alloc(0)),
        element(mi.int32, int32s([0, 0])),
        element(mi.double, Buffer.alloc(0)),
      ]);
    const bytes = matFile([sparse('X1'), sparse('X2')]);
    expect(bytes.length).toBeLessThan(400);
    const e = await refusal(loadDataset(write('sparse-dims.mat', bytes)));
    expect(e.message).toMatch(
      new RegExp(
        `variable X1: .* declares 2147483647 samples; at most ${MAX_SAMPLES} are supported`,
      ),
    );
    expect(e.variable).toBe('X1');
  });

  it('empty (2^31-1) x 0 views and labels are refused without an n-sized label copy', async () => {
    const empty = (name: string): Buffer => doubleMatrix(name, [2 ** 31 - 1, 0], []);
    const bytes = matFile([empty('V1'), empty('V2'), empty('Y')]);
    expect(bytes.length).toBeLessThan(400);
    const e = await refusal(loadDataset(write('empty-dims.mat', bytes)));
    expect(e.message).toMatch(/variable V1: .* declares 2147483647 samples; at most 10000000/);
  });

  it('an NPZ of (3e9, 0) arrays is refused by the same bound', async () => {
    const empty = npy('<f8', [3_000_000_000, 0], Buffer.alloc(0));
    const p = write(
      'zero-width.npz',
      zip([
        { name: 'X1.npy', data: empty },
        { name: 'X2.npy', data: empty },
      ]),
    );
    const e = await refusal(loadDataset(p));
    expect(e.message).toMatch(/declares 3000000000 samples; at most 10000000/);
  });

  it('an NPY header whose shape the bytes do not hold is refused', async () => {
    const p = write('short.npy', npy('<f8', [1_000_000_000, 3], doubles([1, 2, 3])));
    const e = await refusal(loadDataset(p));
    expect(e.message).toMatch(/needs 24000000000 data bytes, found 24/);
  });

  it('a CSV whose wide header sits over many blank rows is refused before the NaN fill', async () => {
    const header = Array.from({ length: 20_000 }, (_, j) => `c${j}`).join(',');
    const p = write('wide.csv', `${header}\n1${',1'.repeat(19_999)}\n${'\n'.repeat(600)}x\n`);
    // 601 rows x 20,000 columns is 96 MB of doubles for a 250 KB file: over its budget.
    const e = await refusal(loadDataset(p));
    expect(e.message).toMatch(/the data decode to more than 64 MiB/);
  });
});

describe('only regular files are opened (point 6)', () => {
  const fifos: string[] = [];
  const fifo = (name: string): string => {
    const p = join(TMP, `${++count}-${name}`);
    execFileSync('mkfifo', [p]);
    fifos.push(p);
    return p;
  };
  // Should a reader block on a FIFO (the bug), opening its other end lets it finish.
  afterEach(() => {
    for (const p of fifos.splice(0)) {
      try {
        closeSync(openSync(p, constants.O_WRONLY | constants.O_NONBLOCK));
      } catch {
        // No reader is waiting: nothing to release.
      }
    }
  });

  it('a FIFO as the data file', async () => {
    const p = fifo('x.csv');
    const e = await refusal(loadDataset(p));
    expect(e.message).toBe(
      `${p}: is not a regular file (a FIFO, socket or device); expected a data file`,
    );
  }, 5000);

  it('a FIFO as a second view file', async () => {
    const a = write('a.csv', '1,2\n3,4\n5,6\n');
    const b = fifo('b.csv');
    const e = await refusal(loadDataset([a, b]));
    expect(e.message).toMatch(/b\.csv: is not a regular file/);
  }, 5000);

  it('a FIFO as the labels file', async () => {
    const a = write('a.csv', '1,2\n3,4\n5,6\n');
    const y = fifo('y.csv');
    const e = await refusal(loadDataset([a], { labelsFile: y }));
    expect(e.message).toMatch(/y\.csv: is not a regular file/);
  }, 5000);

  it('a FIFO as the mask file', async () => {
    const m = fifo('folds.mat');
    const e = await refusal(loadDataset(join(DATASETS, 'HW/HW.mat'), { mask: m }));
    expect(e.message).toMatch(/folds\.mat: .*is not a regular file/);
  }, 5000);
});

describe('CSV damage never crashes (point 10)', () => {
  it('a CSV of empty cells is a DataError, not a TypeError', async () => {
    for (const text of [',,\n,,\n', ',\n', ';;;\n;;;\n\n', '\t\t\n']) {
      const p = write('empty-cells.csv', text);
      const e = await refusal(loadDataset(p));
      expect(e.message).toMatch(/every cell is empty|empty/);
    }
  });
});

describe('complex and overflowing values (point 13)', () => {
  const file = (): string => {
    const re = [1, 2, 3, 4, 5, 6, 7, 8];
    const complexV1 = matrix(
      mx.double,
      [4, 2],
      'V1',
      [element(mi.double, doubles(re)), element(mi.double, doubles(re.map((x) => -x)))],
      true,
    );
    return write(
      'complex.mat',
      matFile([
        complexV1,
        doubleMatrix('V2', [4, 2], [1, 0, 1, 0, 2, 2, 3, 3]),
        doubleMatrix('V3', [4, 3], [1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2, 3]),
        doubleMatrix('Y', [4, 1], [1, 2, 1, 2]),
      ]),
    );
  };

  it('a complex variable is not a view, with a warning naming it', async () => {
    const ds = await loadDataset(file());
    expect(ds.views.map((v) => v.name)).toEqual(['V2', 'V3']);
    expect(ds.provenance.warnings).toContain(
      "variable 'V1': complex values are not supported; it was skipped",
    );
  });

  it('a complex variable forced as a view or as labels is refused', async () => {
    const p = file();
    const e = await refusal(loadDataset(p, { views: 'V1,V2' }));
    expect(e.message).toMatch(
      /variable V1: 'V1' is a 4x2 double complex array: complex values are not supported/,
    );
    const e2 = await refusal(loadDataset(p, { labels: 'V1' }));
    expect(e2.message).toMatch(/complex values are not supported/);
  });

  it('1e999 in a CSV gets the non-finite warning of the MAT path', async () => {
    const ds = await loadDataset(write('huge.csv', '1,2\n3,1e999\n5,-1e400\n'));
    expect(
      ds.provenance.warnings.some((w) =>
        /: 2 NaN or infinite values among present samples \(kept as they are\)$/.test(w),
      ),
    ).toBe(true);
  });
});

describe('errors quote no file content (point 2, the loader part)', () => {
  const secret = 'root:x:0:0:SECRET-LINE:/root:/bin/bash';
  const lines = [
    secret,
    'daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin',
    'bin:x:2:2:bin:/bin:/usr/sbin/nologin',
  ];

  it('a .csv symlink to a text file does not show its lines', async () => {
    const target = write('passwd', lines.join('\n') + '\n');
    const link = join(TMP, `${++count}-link.csv`);
    symlinkSync(target, link);
    const e = await refusal(loadDataset(link));
    expect(e.message).not.toMatch(/SECRET|daemon|root|nologin/);
    expect(e.message).toMatch(/row \d+/);
  });

  it('a labels file of arbitrary text lines is refused by row, not echoed', async () => {
    const view = write('v.csv', '1\n2\n3\n');
    const y = write('y.csv', lines.join('\n') + '\n');
    const e = await refusal(loadDataset([view], { labelsFile: y }));
    expect(e.message).toMatch(/row 1: the label is not a class name/);
    expect(e.message).not.toMatch(/SECRET|daemon|root|nologin/);
  });

  it('a labels file with one distinct value per sample is refused (n > 2)', async () => {
    const view = write('v.csv', '1\n2\n3\n4\n');
    const y = write('y.csv', 'alpha\nbeta\ngamma\ndelta\n');
    const e = await refusal(loadDataset([view], { labelsFile: y }));
    expect(e.message).toMatch(
      /every one of the 4 samples has a label of its own: this does not look like a label file/,
    );
    expect(e.message).not.toMatch(/alpha|beta/);
    // Two samples with two labels stay legitimate.
    const ds = await loadDataset([write('v2.csv', '1\n2\n')], {
      labelsFile: write('y2.csv', 'a\nb\n'),
    });
    expect(ds.labels!.classes).toEqual(['a', 'b']);
  });

  it('a text cell in a view is named by row and column only', async () => {
    const e = await refusal(loadDataset(write('t.csv', 'a,b\n1,2\n3,SECRET\n')));
    expect(e.message).toMatch(/row 3, column 2: expected a number, found text$/);
  });
});

describe('the mapper is linear in the number of variables (point 11)', () => {
  it('maps a MAT v5 file of 40,000 small variables', async () => {
    const vars: Buffer[] = [];
    for (let k = 1; k <= 40_000; k++) vars.push(doubleMatrix(`x${k}`, [3, 2], [k, 1, 2, 3, 4, 5]));
    vars.push(doubleMatrix('Y', [3, 1], [1, 2, 1]));
    const p = write('many.mat', matFile(vars));
    const t0 = performance.now();
    const ds: MultiViewDataset = await loadDataset(p);
    const seconds = (performance.now() - t0) / 1000;
    expect(ds.views).toHaveLength(40_000);
    expect(ds.n).toBe(3);
    // Generous on a loaded 2-core machine: linear code maps this in about a second, the
    // quadratic grouping took minutes; the bound tells those apart, not small speed changes.
    expect(seconds).toBeLessThan(10);
  }, 120_000);
});
