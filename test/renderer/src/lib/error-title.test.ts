import { describe, expect, it } from 'vitest';
import { errorTitle } from '../../../../src/renderer/src/lib/error-title';

function error(name: string, message: string): Error {
  const e = new Error(message);
  e.name = name;
  return e;
}

describe('errorTitle', () => {
  it('says what happened in words, never the class name', () => {
    expect(errorTitle(error('NotFound', '/data/x.mat: no such file'))).toBe('File not found');
    expect(errorTitle(error('NotFound', "no open dataset has the id 'x'"))).toBe('Not found');
    expect(errorTitle(error('DataError', 'a.csv, row 3: expected 2 cells'))).toBe(
      'Cannot read this data',
    );
    expect(errorTitle(error('MatReadError', 'x.mat: truncated'))).toBe('Cannot read this data');
    expect(errorTitle(error('TooLarge', 'needs 9 GiB'))).toBe('Too large for this machine');
  });

  it('falls back to a general title for engine and unknown errors', () => {
    expect(errorTitle(error('Error', 'x'))).toBe('Something went wrong');
    expect(errorTitle(error('RangeError', 'x'))).toBe('Something went wrong');
    expect(errorTitle(error('SomethingNew', 'x'))).toBe('Something went wrong');
  });
});
