/** validateParams: defaults, CLI strings, bounds and names in every message. */
import { describe, expect, it } from 'vitest';
import { ParamError, describeSpec, validateParams } from '../../../src/core/solvers/params';
import type { ParamSchema } from '../../../src/core/solvers/types';

const schema: ParamSchema = {
  anchors: { type: 'int', min: 1, max: 1000, default: 10, doc: 'number of anchors' },
  tol: { type: 'number', min: 0, max: 1, exclusiveMin: true, default: 1e-3, doc: 'tolerance' },
  lambda: { type: 'number', min: 0, max: 1e6, default: 0, doc: 'regulariser' },
  normalize: { type: 'boolean', default: true, doc: 'row-normalise' },
  start: { type: 'enum', values: ['seeded', 'reference'], default: 'seeded', doc: 'start' },
};

const error = (raw: Record<string, string | number | boolean>): ParamError => {
  try {
    validateParams(schema, raw);
  } catch (e) {
    expect(e).toBeInstanceOf(ParamError);
    return e as ParamError;
  }
  throw new Error('expected a ParamError');
};

describe('validateParams', () => {
  it('fills defaults and parses CLI strings', () => {
    expect(validateParams(schema, {})).toEqual({
      anchors: 10,
      tol: 1e-3,
      lambda: 0,
      normalize: true,
      start: 'seeded',
    });
    expect(
      validateParams(schema, { anchors: '20', tol: '0.5', normalize: 'false', start: 'reference' }),
    ).toEqual({ anchors: 20, tol: 0.5, lambda: 0, normalize: false, start: 'reference' });
  });

  it.each([
    [{ anchors: 0 }, "parameter 'anchors' must be an integer from 1 to 1000; got 0"],
    [{ anchors: 2.5 }, "parameter 'anchors' must be an integer from 1 to 1000; got 2.5"],
    [{ anchors: 'ten' }, 'parameter \'anchors\' must be an integer from 1 to 1000; got "ten"'],
    [{ tol: 0 }, "parameter 'tol' must be a number above 0, at most 1; got 0"],
    [{ lambda: -1 }, "parameter 'lambda' must be a number from 0 to 1000000; got -1"],
    [{ lambda: '' }, 'parameter \'lambda\' must be a number from 0 to 1000000; got ""'],
    [{ normalize: 'yes' }, 'parameter \'normalize\' must be true or false; got "yes"'],
    [{ start: 'random' }, "parameter 'start' must be one of 'seeded', 'reference'; got \"random\""],
    [
      { anchor: 3 },
      "unknown parameter 'anchor'; parameters: anchors, tol, lambda, normalize, start",
    ],
  ])('%j is refused with a message naming it', (raw, message) => {
    const e = error(raw);
    expect(e.message).toBe(message);
    expect(e.param).toBe(Object.keys(raw)[0]);
  });

  it.each([
    [{ anchors: '0x10' }, 'parameter \'anchors\' must be an integer from 1 to 1000; got "0x10"'],
    [{ anchors: ' 5 ' }, 'parameter \'anchors\' must be an integer from 1 to 1000; got " 5 "'],
    [{ anchors: '1e2' }, 'parameter \'anchors\' must be an integer from 1 to 1000; got "1e2"'],
    [{ anchors: '+5' }, 'parameter \'anchors\' must be an integer from 1 to 1000; got "+5"'],
    [{ anchors: '0b11' }, 'parameter \'anchors\' must be an integer from 1 to 1000; got "0b11"'],
    [{ anchors: '5.' }, 'parameter \'anchors\' must be an integer from 1 to 1000; got "5."'],
    [{ lambda: '0x10' }, 'parameter \'lambda\' must be a number from 0 to 1000000; got "0x10"'],
    [{ lambda: '   ' }, 'parameter \'lambda\' must be a number from 0 to 1000000; got "   "'],
    [{ lambda: ' 5' }, 'parameter \'lambda\' must be a number from 0 to 1000000; got " 5"'],
    [{ lambda: '1e' }, 'parameter \'lambda\' must be a number from 0 to 1000000; got "1e"'],
    [
      { lambda: 'Infinity' },
      'parameter \'lambda\' must be a number from 0 to 1000000; got "Infinity"',
    ],
    [{ lambda: '.' }, 'parameter \'lambda\' must be a number from 0 to 1000000; got "."'],
  ])('only plain decimal text is a number: %j is refused', (raw, message) => {
    expect(error(raw).message).toBe(message);
  });

  it('reads plain decimal text, exponents included', () => {
    expect(validateParams(schema, { anchors: '007', tol: '1e-6', lambda: '.5' })).toMatchObject({
      anchors: 7,
      tol: 1e-6,
      lambda: 0.5,
    });
    expect(validateParams(schema, { tol: '1.', lambda: '2.5E+3' })).toMatchObject({
      tol: 1,
      lambda: 2500,
    });
  });

  it('describes every kind of parameter', () => {
    expect(Object.values(schema).map(describeSpec)).toEqual([
      'an integer from 1 to 1000',
      'a number above 0, at most 1',
      'a number from 0 to 1000000',
      'true or false',
      "one of 'seeded', 'reference'",
    ]);
  });
});

describe("the 'numbers' type (per-view lists)", () => {
  const lists: ParamSchema = {
    sigma: { type: 'numbers', min: 0, max: 1e6, exclusiveMin: true, default: null, doc: 'widths' },
  };
  it('parses CLI text, keeps arrays, and null or empty text is the default', () => {
    expect(validateParams(lists, { sigma: '1,2.5,3' })).toEqual({ sigma: [1, 2.5, 3] });
    expect(validateParams(lists, { sigma: ' 4 , 1e-2' })).toEqual({ sigma: [4, 0.01] });
    expect(validateParams(lists, { sigma: [7, 8] })).toEqual({ sigma: [7, 8] });
    expect(validateParams(lists, {})).toEqual({ sigma: null });
    expect(validateParams(lists, { sigma: '' })).toEqual({ sigma: null });
  });
  it.each([['1,,2'], ['1,x'], ['0,1'], ['2e6'], [[]], [[1, NaN]], [3]])(
    'refuses %j naming the parameter and the bounds',
    (raw) => {
      expect(() => validateParams(lists, { sigma: raw })).toThrow(
        /parameter 'sigma' must be a comma-separated list of numbers, one per view, each above 0 to 1000000/,
      );
    },
  );
});
