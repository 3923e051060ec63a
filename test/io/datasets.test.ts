/**
 * Every .mat file under ../shared/datasets loads, and what it yields matches the measured
 * facts of ../shared/specs/datasets.md: n, the number of views, each d, the present count of
 * each view, the number of classes and their size range, and (for IMVC-CBG's Per files) the
 * number of samples present in every view.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { classSizes, samplesByViewCount } from '../../src/core/dataset';
import { loadDataset } from '../../src/io/load';
import { DataError } from '../../src/io/errors';
import { readSpecTable } from '../helpers/spec-table';
import { DATASETS, SPEC, allMatFiles } from '../helpers/paths';

const spec = new Map(readSpecTable(SPEC).map((r) => [r.file, r]));
const files = allMatFiles();

describe('shared datasets against datasets.md', () => {
  it('the spec describes every shared .mat file (and there are some)', () => {
    expect(files.length).toBeGreaterThanOrEqual(65);
    expect(files.filter((f) => !spec.has(f))).toEqual([]);
  });

  it.each(files)('%s', async (file) => {
    const row = spec.get(file)!;
    const path = join(DATASETS, file);
    if (row.views === null) {
      // Mask-only files and precomputed graphs hold no feature views: a clear refusal.
      const err = await loadDataset(path).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(DataError);
      expect((err as Error).message).toContain(path);
      expect((err as Error).message).toMatch(/only missing-view masks|precomputed graphs/);
      return;
    }
    const ds = await loadDataset(path);
    expect(ds.n).toBe(row.n);
    expect(ds.views.map((v) => v.d)).toEqual(row.views.map((v) => v.d));
    const expectedPresent = row.views.map(
      (v) => row.n! - (row.zeroRowsMissing ? v.allZero : v.allNaN),
    );
    expect(ds.views.map((v) => v.present.length)).toEqual(expectedPresent);
    for (const v of ds.views) {
      expect(v.values.rows).toBe(v.present.length);
      expect(v.values.cols).toBe(v.d);
    }
    expect(ds.labels).not.toBeNull();
    const sizes = classSizes(ds.labels!);
    expect(sizes.length).toBe(row.k);
    expect([Math.min(...sizes), Math.max(...sizes)]).toEqual(row.classSizeRange);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(row.n);

    const per = /^Per([\d.]+): (\d+)% of samples have all views/.exec(row.missingness);
    if (per) {
      const { byCount, none } = samplesByViewCount(ds);
      // The generator rounds: Per0.8 of BDGP has 2001 complete samples of 2500, not 2000.
      const complete = byCount.at(-1)!;
      expect(Math.abs(complete - (Number(per[2]) * row.n!) / 100)).toBeLessThanOrEqual(1);
      expect(none).toBe(0);
    }
  });
});
