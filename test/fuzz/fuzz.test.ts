/**
 * The fuzz test of issue 16: a few hundred seeded files of every family (truncations, byte
 * flips, header lies, absurd dimensions, both kinds of decompression bomb, FIFOs and special
 * files, CSV/NPY/NPZ damage, junk) through the CLI and through `serve`. Each must end in a
 * dataset or a clear error within 20 s and 1.5 GB, and the server must answer a ping within
 * 200 ms after each file. `npm run fuzz` is the long version (test/fuzz/run.ts).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FAMILIES, familyOf, makeCase, prepareBases, testSelection } from './corpus';
import { PASSING, report, runFuzz, unclear } from './harness';

const SEED = 16;
/** 263 files: every recipe of every family, the slow families capped (corpus.ts). */
const SELECTION = testSelection(280);

describe('the fuzz corpus', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mvs-fuzz-corpus-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is a function of the seed, holds every family, and stays small on disk', async () => {
    const bases = await prepareBases(join(dir, 'bases'));
    mkdirSync(join(dir, 'a'));
    mkdirSync(join(dir, 'b'));
    const families = new Set(SELECTION.map((i) => familyOf(i).family));
    expect([...families].sort()).toEqual([...FAMILIES].sort());
    let total = 0;
    for (const i of SELECTION) {
      const { family } = familyOf(i);
      if (family === 'special') continue; // FIFOs and links have no bytes of their own
      const a = makeCase(join(dir, 'a'), bases, SEED, i);
      const bytes = readFileSync(a.path);
      const again = makeCase(join(dir, 'b'), bases, SEED, i);
      expect(readFileSync(again.path).equals(bytes), `case ${i} (${a.recipe})`).toBe(true);
      expect(statSync(a.path).size, a.recipe).toBeLessThan(2 ** 20);
      total += bytes.length;
    }
    expect(total).toBeLessThan(32 * 2 ** 20);
  }, 60_000);

  it('tells a clear error from a stack trace, an internal error and a quoted secret', () => {
    expect(
      unclear('mvstudio info: a.csv, row 2: expected 2 cells (as in row 1), found 1'),
    ).toBeNull();
    expect(
      unclear("TypeError: Cannot read properties of undefined (reading 'x')\n    at f (a.js:1:2)"),
    ).toMatch(/stack trace/);
    expect(unclear('RangeError: kmeans: X(0,1) is NaN')).toMatch(/internal/);
    expect(unclear('first\n\nsecond')).toMatch(/paragraph/);
    expect(unclear('p.csv, row 1: bad cell root:x:0:0', 'root:x:0:0')).toMatch(/quotes/);
    expect(unclear('')).toMatch(/no error/);
  });
});

describe('fuzzing the CLI and the web host', () => {
  it(
    `${SELECTION.length} files end in a dataset or a clear error within 20 s and 1.5 GB, and the server stays responsive`,
    async () => {
      const summary = await runFuzz({ seed: SEED, indices: SELECTION });
      const text = report(summary);
      const failing = summary.results.filter((r) => !PASSING.has(r.outcome));
      if (failing.length > 0) process.stdout.write(text + '\n');
      expect(summary.ran).toBe(SELECTION.length);
      // The instrument works: real files load and damaged ones are refused, in both legs.
      for (const leg of ['cli', 'serve'] as const) {
        const mine = summary.results.filter((r) => r.leg === leg);
        expect(mine).toHaveLength(SELECTION.length);
        expect(mine.some((r) => r.outcome === 'dataset')).toBe(true);
        expect(mine.some((r) => r.outcome === 'error')).toBe(true);
      }
      expect(
        failing.map(
          (r) => `[${r.leg}] ${r.outcome}: ${r.fuzzCase.recipe}: ${r.detail.split('\n')[0]}`,
        ),
      ).toEqual([]);
    },
    // Each file is bounded by 20 s in each leg; on bounded loaders the run takes a few minutes.
    20 * 60_000,
  );
});
