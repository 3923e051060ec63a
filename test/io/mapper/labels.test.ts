/** The labels decisions on hand-built files: which variable, and the label base. */
import { describe, expect, it } from 'vitest';
import { DataError } from '../../../src/io/errors';
import { decideLabelBase, decideLabels } from '../../../src/io/mapper/labels';
import { cell, mat, matFile } from '../../helpers/mat-toys';

describe('decideLabels', () => {
  it('takes the first usual name that holds a vector', () => {
    const file = matFile({ gt: mat([3, 1], [1, 2, 2]), Y: mat([2, 2], [1, 2, 3, 4]) });
    // Y (tried first) is 2×2 with columns that differ, so gt is taken.
    const { source, decision, warnings } = decideLabels(file, {});
    expect(source?.name).toBe('gt');
    expect(Array.from(source!.values)).toEqual([1, 2, 2]);
    expect(decision).toEqual({
      topic: 'labels',
      choice: "labels from 'gt'",
      reason: "'gt' is a usual label name and holds a 3x1 double vector",
      overridden: false,
    });
    expect(warnings).toEqual([]);
  });

  it('takes column 1 of an n×V matrix of identical columns', () => {
    const y0 = mat([4, 2], [0, 1, 1, 0, 0, 1, 1, 0]);
    const { source, decision } = decideLabels(matFile({ y0 }), {});
    expect(Array.from(source!.values)).toEqual([0, 1, 1, 0]);
    expect(decision.reason).toBe(
      "'y0' is a usual label name and holds a 4x2 double matrix of identical per-view columns",
    );
  });

  it('uses copy 1 of per-view copies that disagree, with a warning', () => {
    const truelabel = cell([mat([1, 3], [1, 2, 3]), mat([1, 3], [1, 2, 1])]);
    const { source, warnings } = decideLabels(matFile({ truelabel }), {});
    expect(Array.from(source!.values)).toEqual([1, 2, 3]);
    expect(warnings).toEqual([
      'truelabel{2} differs from truelabel{1} at 1 samples; truelabel{1} was used',
    ]);
  });

  it("records the user's choice, and 'none'", () => {
    const file = matFile({ Y: mat([2, 1], [1, 2]), c: mat([2, 1], [5, 6]) });
    expect(decideLabels(file, { labels: 'c' }).source?.name).toBe('c');
    const none = decideLabels(file, { labels: 'none' });
    expect(none.source).toBeNull();
    expect(none.decision).toMatchObject({ choice: 'no labels', overridden: true });
    expect(() => decideLabels(file, { labels: 'zz' })).toThrow(
      "toy.mat, variable zz: no variable 'zz'",
    );
  });

  it('finds none in a file without a label vector', () => {
    const { source, decision } = decideLabels(matFile({ X: mat([2, 2], [1, 2, 3, 4]) }), {});
    expect(source).toBeNull();
    expect(decision).toMatchObject({ topic: 'labels', choice: 'no labels', overridden: false });
  });
});

describe('decideLabelBase', () => {
  const file = matFile({});

  it('names the base from the smallest label', () => {
    for (const [values, reason] of [
      [[0, 1, 2, 1], 'the smallest label is 0: labels are 0-based'],
      [[1, 3, 2, 1], 'the smallest label is 1: labels are 1-based (MATLAB)'],
      [[-1, 0, 1, -1], 'the smallest label is -1; original values are kept for export'],
    ] as const) {
      const source = { name: 'Y', values: Float64Array.from(values) };
      const { labels, decision } = decideLabelBase(file, source, 4);
      expect(decision.reason).toBe(reason);
      expect(labels.classes.length).toBe(3);
    }
  });

  it('refuses a length other than n, and a label that is not finite', () => {
    const short = { name: 'Y', values: Float64Array.of(1, 2) };
    expect(() => decideLabelBase(file, short, 3)).toThrow(
      "labels 'Y' have 2 values but the views have 3 samples",
    );
    const nan = { name: 'Y', values: Float64Array.of(1, NaN, 2) };
    expect(() => decideLabelBase(file, nan, 3)).toThrow(DataError);
    expect(() => decideLabelBase(file, nan, 3)).toThrow(
      "labels 'Y' hold NaN at sample 2; every label must be a number",
    );
  });
});
