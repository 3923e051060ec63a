/**
 * CSV views and labels: round trips, delimiter and header rules, missingness, and every
 * error naming the file and the row/column.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCsvDataset, parseCell, sniffDelimiter } from '../../src/io/csv';
import { DataError } from '../../src/io/errors';
import type { MultiViewDataset } from '../../src/core/dataset';
import { prng } from '../helpers/prng';

const dir = mkdtempSync(join(tmpdir(), 'mvs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let fileCount = 0;
/** Writes `text` to a new file in the temp dir and returns its path. */
function write(text: string, name = 'view.csv'): string {
  const p = join(dir, `${++fileCount}-${name}`);
  writeFileSync(p, text);
  return p;
}

/** The rejection of `p`, asserted to be a DataError. */
async function dataError(p: Promise<unknown>): Promise<DataError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(DataError);
  return e as DataError;
}

function decision(ds: MultiViewDataset, topic: string): string {
  const d = ds.provenance.decisions.find((x) => x.topic === topic);
  expect(d, `decision ${topic}`).toBeDefined();
  return `${d!.choice} | ${d!.reason}`;
}

describe('round trip', () => {
  it('reads back exactly the values written, two views, labels', async () => {
    const rand = prng(7);
    const n = 40;
    const a = Array.from({ length: n }, () =>
      Array.from({ length: 5 }, () => (rand() - 0.5) * 10 ** Math.floor(rand() * 12 - 6)),
    );
    const b = Array.from({ length: n }, (_, i) => [i, -(i + 1) * 1e-300, Math.PI * i]);
    a[3]![1] = Infinity;
    a[4]![2] = -Infinity;
    const pa = write(a.map((r) => r.map(String).join(',')).join('\n') + '\n', 'a.csv');
    const pb = write('x,y,z\r\n' + b.map((r) => r.map(String).join(',')).join('\r\n'), 'b.csv');
    const labels = Array.from({ length: n }, (_, i) => (i % 3) + 1);
    const pl = write(labels.join('\n') + '\n', 'labels.csv');

    const ds = await loadCsvDataset([pa, pb], { labelsFile: pl });
    expect(ds.n).toBe(n);
    expect(ds.views.map((v) => v.d)).toEqual([5, 3]);
    expect(ds.views[0]!.values.data).toEqual(Float64Array.from(a.flat()));
    expect(ds.views[1]!.values.data).toEqual(Float64Array.from(b.flat()));
    expect(ds.views[0]!.values).toMatchObject({ kind: 'dense', rows: n, cols: 5 });
    expect(Array.from(ds.views[1]!.present)).toEqual(Array.from({ length: n }, (_, i) => i));
    expect(ds.labels!.classes).toEqual([1, 2, 3]);
    expect(Array.from(ds.labels!.codes)).toEqual(labels.map((l) => l - 1));
    expect(ds.labels!.source).toBe(pl);
    expect(ds.sampleIds).toBeNull();
    expect(ds.provenance).toMatchObject({
      file: pa,
      format: 'csv',
      orientation: ['n x d', 'n x d'],
      missingness: 'complete',
      // The two infinities get the MAT path's non-finite warning.
      warnings: ['1-a.csv: 2 NaN or infinite values among present samples (kept as they are)'],
    });
    expect(ds.provenance.variables).toEqual([
      pa.split('/').pop(),
      pb.split('/').pop(),
      pl.split('/').pop(),
    ]);
    expect(decision(ds, 'header')).toMatch(/a\.csv: no header/);
    expect(decision(ds, 'header')).toMatch(
      /b\.csv: row 1 is a header \("x", "y", "z"; names not kept\)/,
    );
    expect(decision(ds, 'missingness')).toMatch(/^complete/);
    expect(decision(ds, 'labels')).toMatch(/3 classes/);
  });

  it('handles a byte-order mark, quotes, blanks around cells and trailing blank lines', async () => {
    const p = write('\ufeff"1", 2 ,3\n 4,"5.5",6e-1\n\n\n');
    const ds = await loadCsvDataset([p], {});
    expect(ds.n).toBe(2);
    expect(Array.from(ds.views[0]!.values.data)).toEqual([1, 2, 3, 4, 5.5, 0.6]);
    expect(decision(ds, 'labels')).toMatch(/^none/);
  });

  it('drops the empty column of a trailing delimiter, with a decision', async () => {
    const p = write('a,b,\n1,2,\n3,4,\n');
    const ds = await loadCsvDataset([p], {});
    expect(ds.views[0]!.d).toBe(2);
    expect(Array.from(ds.views[0]!.values.data)).toEqual([1, 2, 3, 4]);
    expect(decision(ds, 'trailing delimiter')).toMatch(/dropped/);
  });
});

describe('delimiter', () => {
  const cases: [string, string, string][] = [
    ['comma', '1,2,3\n4,5,6\n', 'comma'],
    ['semicolon', '1;2;3\n4;5;6\n', 'semicolon'],
    ['tab', '1\t2\t3\n4\t5\t6\n', 'tab'],
    ['whitespace', '  1   2 3\n4 5\t 6  \n', 'whitespace'],
  ];
  it.each(cases)('%s', async (_name, text, expected) => {
    const ds = await loadCsvDataset([write(text)], {});
    expect(ds.views[0]!.d).toBe(3);
    expect(Array.from(ds.views[0]!.values.data)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(decision(ds, 'delimiter')).toMatch(new RegExp(`^${expected} \\|`));
  });

  it('a single column has no delimiter and reads as one feature', async () => {
    const ds = await loadCsvDataset([write('1\n2\n3\n')], {});
    expect(ds.views[0]!.d).toBe(1);
    expect(Array.from(ds.views[0]!.values.data)).toEqual([1, 2, 3]);
  });

  it('prefers tab, then semicolon, then comma among the regular ones', () => {
    expect(sniffDelimiter('1,5;2,5\n3,5;4,5\n').delimiter).toBe(';');
    expect(sniffDelimiter('"a,b"\tc\n1\t2\n').delimiter).toBe('\t');
    expect(sniffDelimiter('a;b,c\n1,2\n3,4\n').delimiter).toBe(',');
  });

  it('ignores delimiters inside quotes', () => {
    expect(sniffDelimiter('"x;y",b\n1,2\n').delimiter).toBe(',');
  });

  it('falls back to the delimiter on the most lines when none is regular', () => {
    const s = sniffDelimiter('1,2,3\n4,5\n6,7,8\n');
    expect(s.delimiter).toBe(',');
    expect(s.reason).toMatch(/most lines/);
    expect(sniffDelimiter('1;2;3\n4;5\n6,7,8\n').delimiter).toBe(';');
    // An irregular tab is blank space like any other.
    expect(sniffDelimiter('1\t2 3\n4 5 6\n').delimiter).toBe('whitespace');
  });
});

describe('header', () => {
  it("'auto' takes a row with a text cell as the header", async () => {
    const ds = await loadCsvDataset([write('height,weight\n1,2\n3,4\n')], { header: 'auto' });
    expect(ds.n).toBe(2);
    expect(decision(ds, 'header')).toMatch(
      /row 1 is a header.*auto: cell 1 of row 1 is not a number/,
    );
  });

  it("'auto' does not take a row of numbers, empties and NaNs as a header", async () => {
    const ds = await loadCsvDataset([write('1,,NaN\n3,4,5\n')], {});
    expect(ds.n).toBe(2);
    expect(decision(ds, 'header')).toMatch(/^no header/);
  });

  it('true drops the first row even when numeric (overridden)', async () => {
    const ds = await loadCsvDataset([write('1,2\n3,4\n')], { header: true });
    expect(ds.n).toBe(1);
    expect(Array.from(ds.views[0]!.values.data)).toEqual([3, 4]);
    const d = ds.provenance.decisions.find((x) => x.topic === 'header')!;
    expect(d.overridden).toBe(true);
  });

  it('false reads a text first row as data, so it is an error at row 1', async () => {
    const p = write('a,b\n1,2\n');
    const e = await dataError(loadCsvDataset([p], { header: false }));
    expect(e.message).toBe(`${p}, row 1, column 1: expected a number, found text`);
  });

  it('true with nothing but a header is an error', async () => {
    const p = write('a,b\n');
    const e = await dataError(loadCsvDataset([p], { header: true }));
    expect(e.message).toContain(p);
    expect(e.message).toMatch(/no data rows/);
  });
});

describe('cells', () => {
  it('parses numbers, infinities and missing-value tokens', () => {
    expect(parseCell(' -1.5e3 ')).toBe(-1500);
    expect(parseCell('.5')).toBe(0.5);
    expect(parseCell('1.')).toBe(1);
    expect(parseCell('+7')).toBe(7);
    expect(parseCell('-inf')).toBe(-Infinity);
    expect(parseCell('Infinity')).toBe(Infinity);
    for (const m of ['', ' ', 'NaN', 'nan', 'NA', 'n/a', 'null']) expect(parseCell(m)).toBeNaN();
    for (const t of ['abc', '0x10', '1,5', '1e', '--1']) expect(parseCell(t)).toBeUndefined();
  });
});

describe('missingness', () => {
  it('all-empty and all-NaN rows are missing samples; partial NaN rows stay, with a warning', async () => {
    const pa = write('1,2\n3,4\n5,6\n7,8\n9,10\n', 'a.csv');
    // rows: 1 present, 2 blank line (missing), 3 empty cells (missing), 4 all NaN (missing),
    // 5 partial NaN (present).
    const pb = write('h1,h2,h3\n1,2,3\n\n,,\nNaN,nan, NA\n4,,NaN\n', 'b.csv');
    const ds = await loadCsvDataset([pa, pb], {});
    expect(ds.n).toBe(5);
    const b = ds.views[1]!;
    expect(Array.from(b.present)).toEqual([0, 4]);
    expect(b.values).toMatchObject({ rows: 2, cols: 3 });
    expect(Array.from(b.values.data)).toEqual([1, 2, 3, 4, NaN, NaN]);
    expect(ds.provenance.missingness).toBe('natural');
    expect(decision(ds, 'missingness')).toMatch(/natural.*b\.csv lacks 3 of 5/);
    expect(ds.provenance.warnings).toHaveLength(1);
    expect(ds.provenance.warnings[0]).toBe(
      `${pb}: 1 row has some NaN or empty cells (kept as NaN), the first is row 6`,
    );
  });

  it('a sample missing from every view is kept, with a warning', async () => {
    const pa = write('1\n\n3\n', 'a.csv');
    const pb = write('1,1\nnan,nan\n3,3\n', 'b.csv');
    const ds = await loadCsvDataset([pa, pb], {});
    expect(ds.n).toBe(3);
    expect(ds.views.map((v) => Array.from(v.present))).toEqual([
      [0, 2],
      [0, 2],
    ]);
    expect(ds.provenance.warnings.join('\n')).toMatch(
      /1 sample is missing from every view \(sample 2\)/,
    );
  });
});

describe('errors', () => {
  it('a ragged row names the file, row, expected and found counts', async () => {
    const p = write('a,b,c\n1,2,3\n4,5\n');
    const e = await dataError(loadCsvDataset([p], {}));
    expect(e.message).toBe(`${p}, row 3: expected 3 cells (as in row 1), found 2`);
    expect(e.file).toBe(p);
    expect(e.row).toBe(3);
    expect('column' in e).toBe(false);
    expect(e.data).toEqual({ file: p, row: 3 });
  });

  it('text in a numeric column names the file, row and column, never the text', async () => {
    const p = write('x,y\n1,2\n3,oops\n');
    const e = await dataError(loadCsvDataset([p], {}));
    expect(e.message).toBe(`${p}, row 3, column 2: expected a number, found text`);
    expect(e).toMatchObject({ file: p, row: 3, column: 2 });
  });

  it('a text file of prose gets the hint that it is not a data table', async () => {
    const p = write(
      'How to use these files\n\nThe views come one per file, and the labels\nare here.\n',
    );
    const e = await dataError(loadCsvDataset([p], {}));
    expect(e.message).toBe(
      `${p}, row 3: expected 1 cells (as in row 1), found 2; this file does not look like a data table: a view file holds numbers, one row per sample and one column per feature (is it a text or README file?)`,
    );
    const words = write('name,notes\nfirst,some words\nsecond,more words\n');
    expect((await dataError(loadCsvDataset([words], {}))).message).toMatch(
      /row 2, column 1: expected a number, found text; this file does not look like a data table/,
    );
  });

  it('a decimal comma gets a hint', async () => {
    const p = write('1;2\n3;4,5\n');
    const e = await dataError(loadCsvDataset([p], {}));
    expect(e.message).toMatch(/row 2, column 2: expected a number, found text \(a decimal comma\?/);
  });

  it('an empty file', async () => {
    for (const text of ['', '\n\n  \n']) {
      const p = write(text);
      const e = await dataError(loadCsvDataset([p], {}));
      expect(e.message).toBe(`${p}: the file is empty; expected one row per sample`);
    }
  });

  it('a missing file and a binary file', async () => {
    const missing = join(dir, 'nope.csv');
    expect((await dataError(loadCsvDataset([missing], {}))).message).toMatch(/no such file/);
    const bin = write('\x93NUMPY\x01\x00\x00\x00');
    expect((await dataError(loadCsvDataset([bin], {}))).message).toMatch(/not a text file/);
  });

  it('views with different row counts name both files and counts', async () => {
    const pa = write('1\n2\n3\n', 'a.csv');
    const pb = write('h\n1\n2\n', 'b.csv');
    const e = await dataError(loadCsvDataset([pa, pb], {}));
    expect(e.message).toBe(
      `${pb}: has 2 data rows but ${pa} has 3; every view file needs one row per sample`,
    );
  });

  it('a view present in no sample', async () => {
    const pa = write('1\n2\n', 'a.csv');
    const pb = write('h1,h2\n,\nnan,nan\n', 'b.csv');
    const e = await dataError(loadCsvDataset([pa, pb], {}));
    expect(e.message).toContain(pb);
    expect(e.message).toMatch(/holds no sample/);
    const pc = write(',\nnan,nan\n', 'c.csv');
    const e2 = await dataError(loadCsvDataset([pa, pc], {}));
    expect(e2.message).toContain(pc);
    expect(e2.message).toMatch(/holds no sample/);
  });
});

describe('labels', () => {
  const view = (): string => write('1\n2\n3\n4\n', 'v.csv');

  it('text labels, with a header row', async () => {
    const pl = write('class\ncat\ndog\ncat\n"bird small"\n', 'y.csv');
    const ds = await loadCsvDataset([view()], { labelsFile: pl });
    expect(ds.labels!.classes).toEqual(['bird small', 'cat', 'dog']);
    expect(Array.from(ds.labels!.codes)).toEqual([1, 2, 1, 0]);
    expect(decision(ds, 'labels')).toMatch(/3 classes \(text\).*header row "class"/);
  });

  it('text labels without a header (n rows)', async () => {
    const pl = write('b\na\nb\nc\n', 'y.csv');
    const ds = await loadCsvDataset([view()], { labelsFile: pl });
    expect(ds.labels!.classes).toEqual(['a', 'b', 'c']);
  });

  it('numeric labels with a header', async () => {
    const pl = write('y\n0\n10\n-1\n10\n', 'y.csv');
    const ds = await loadCsvDataset([view()], { labelsFile: pl });
    expect(ds.labels!.classes).toEqual([-1, 0, 10]);
    expect(Array.from(ds.labels!.codes)).toEqual([1, 2, 0, 2]);
  });

  it('a length mismatch names both lengths', async () => {
    const pv = view();
    const pl = write('1\n2\n3\n', 'y.csv');
    const e = await dataError(loadCsvDataset([pv], { labelsFile: pl }));
    expect(e.message).toBe(`${pl}: has 3 labels but the views have 4 samples (data rows of ${pv})`);
  });

  it('a missing label names the row', async () => {
    const pl = write('1\n2\nNaN\n4\n', 'y.csv');
    const e = await dataError(loadCsvDataset([view()], { labelsFile: pl }));
    expect(e.message).toBe(
      `${pl}, row 3: the label is missing (a missing-value token); every sample needs a label`,
    );
  });

  it('more than one cell per row is an error', async () => {
    const pl = write('1,2\n2,3\n3,4\n4,5\n', 'y.csv');
    const e = await dataError(loadCsvDataset([view()], { labelsFile: pl }));
    expect(e.message).toBe(`${pl}, row 1: expected one label per row, found 2 cells`);
  });
});
