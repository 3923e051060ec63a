/** n and the orientation of each view, decided on hand-built views. */
import { describe, expect, it } from 'vitest';
import { decideOrientation, sampleCountHint } from '../../../src/io/mapper/orientation';
import { mat, matFile } from '../../helpers/mat-toys';

const zeros = (r: number, c: number) => mat([r, c], new Array<number>(r * c).fill(0));

describe('sampleCountHint', () => {
  it('labels first, then a presence matrix ind, else unknown', () => {
    const labels = { name: 'Y', values: new Float64Array(5) };
    expect(sampleCountHint(matFile({}), labels, 2)).toEqual({
      n: 5,
      nSource: "the 5 labels in 'Y'",
    });
    const withInd = matFile({ ind: zeros(2, 7) });
    expect(sampleCountHint(withInd, null, 2)).toEqual({
      n: 7,
      nSource: "the presence matrix 'ind'",
    });
    expect(sampleCountHint(withInd, null, 3)).toEqual({ n: null, nSource: '' });
  });
});

describe('decideOrientation', () => {
  const file = matFile({});

  it('samples are the dimension equal to n; a square view follows the others', () => {
    const views = [
      { name: 'A', value: zeros(4, 3) },
      { name: 'B', value: zeros(4, 4) },
    ];
    const r = decideOrientation(views, 4, 'the 4 labels', file, {});
    expect(r.n).toBe(4);
    expect(r.orientation).toEqual(['n x d', 'n x d']);
    expect(r.decisions.map((d) => d.choice)).toEqual(['B n x d', 'n x d (samples are rows)']);
    expect(r.warnings).toEqual([]);
  });

  it('without a hint, n is the shared dimension (the larger when both are shared)', () => {
    const views = [
      { name: 'A', value: zeros(3, 6) },
      { name: 'B', value: zeros(3, 6) },
    ];
    const r = decideOrientation(views, null, '', file, {});
    expect([r.n, ...r.orientation]).toEqual([6, 'd x n', 'd x n']);
    expect(r.warnings).toEqual([
      'every view is 3×6 and there are no labels: n = 6 was assumed; force the orientation if that is wrong',
    ]);
  });

  it('a forced orientation must agree with n', () => {
    const views = [{ name: 'A', value: zeros(3, 6) }];
    const r = decideOrientation(views, null, '', file, { orientation: 'n x d' });
    expect([r.n, ...r.orientation]).toEqual([3, 'n x d']);
    expect(r.decisions).toEqual([
      {
        topic: 'orientation',
        choice: 'every view n x d',
        reason: 'chosen by the user',
        overridden: true,
      },
    ]);
    expect(() =>
      decideOrientation(views, 6, 'the 6 labels', file, { orientation: 'n x d' }),
    ).toThrow(
      "orientation 'n x d' was forced, but then A (3x6 double) has 3 samples where 6 are expected (from the 6 labels)",
    );
  });
});
