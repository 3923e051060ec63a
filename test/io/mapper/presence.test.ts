/** The presence decision on hand-built files: index cells, presence matrices, masks. */
import { describe, expect, it } from 'vitest';
import { decidePresence } from '../../../src/io/mapper/presence';
import { cell, mat, matFile } from '../../helpers/mat-toys';

/** Two 2-feature views of 4 samples, n x d; view 2 lacks sample 3 (all NaN). */
const A = mat([4, 2], [1, 2, 3, 4, 5, 6, 7, 8]);
const B = mat([4, 2], [1, 2, NaN, 4, 5, 6, NaN, 8]);
const views = [
  { name: 'A', value: A },
  { name: 'B', value: B },
];
const nxd = ['n x d', 'n x d'] as const;
const rows = (present: Uint8Array[]) => present.map((p) => Array.from(p));

describe('decidePresence', () => {
  it('all-NaN samples alone are missing (nan-columns)', () => {
    const r = decidePresence(matFile({}), undefined, {}, views, nxd, 4);
    expect(rows(r.present)).toEqual([
      [1, 1, 1, 1],
      [1, 1, 0, 1],
    ]);
    expect([r.missingness, r.used, r.warnings]).toEqual(['nan-columns', [], []]);
  });

  it('an index cell lists the present samples, 1-based, and is followed', () => {
    const index = cell([mat([1, 3], [1, 2, 3]), mat([1, 3], [1, 2, 4])]);
    const r = decidePresence(matFile({ index }), undefined, {}, views, nxd, 4);
    expect(rows(r.present)).toEqual([
      [1, 1, 1, 0],
      [1, 1, 0, 1],
    ]);
    expect(r.missingness).toBe('nan-columns');
    expect(r.used).toEqual(['index']);
    expect(r.warnings).toEqual(['A: 1 samples not in index{1} hold data; index was followed']);
  });

  it("a presence matrix 'ind' (n×V) marks zero rows missing", () => {
    const ind = mat([4, 2], [1, 1, 1, 1, 1, 0, 1, 1]);
    const r = decidePresence(matFile({ ind }), undefined, {}, views, nxd, 4);
    expect(rows(r.present)).toEqual([
      [1, 1, 1, 1],
      [1, 0, 1, 1],
    ]);
    expect([r.missingness, r.used]).toEqual(['zero-rows-with-presence', ['ind']]);
    expect(r.warnings).toEqual([
      "B: 1 samples marked missing in 'ind' hold non-zero data; 'ind' was followed",
    ]);
  });

  it('a chosen mask fold decides; all-NaN samples it keeps are missing; others are listed', () => {
    const folds = cell([
      mat([4, 2], [1, 1, 1, 1, 1, 1, 1, 1]),
      mat([4, 2], [0, 1, 1, 1, 1, 1, 1, 0]),
    ]);
    const file = matFile({ folds });
    const r = decidePresence(file, undefined, { mask: 'folds', fold: 2 }, views, nxd, 4);
    expect(rows(r.present)).toEqual([
      [0, 1, 1, 1],
      [1, 1, 0, 0],
    ]);
    expect([r.missingness, r.used]).toEqual(['mask-variable', ['folds']]);
    expect(r.decisions[0]!.choice).toBe('mask folds{2} (fold 2 of 2) from this file');
    expect(r.warnings).toEqual([
      'B: 1 samples the mask marks present are all NaN and were treated as missing',
    ]);
    const unused = decidePresence(file, undefined, {}, views, nxd, 4);
    expect(unused.decisions.at(-1)!.choice).toBe('mask variables not applied: folds (1x2 cell)');
    expect(() =>
      decidePresence(file, undefined, { mask: 'folds', fold: 3 }, views, nxd, 4),
    ).toThrow("fold 3 was asked for, but 'folds' holds 2 masks (folds 1..2)");
  });
});
