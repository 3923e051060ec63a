/** The sidebar's subtitles: what tells an entry apart from the others of the same name. */
import { describe, expect, it } from 'vitest';
import type { DatasetEntry, LoadOptions } from '../../../../src/shared/contract';
import { describeOptions, subtitles } from '../../../../src/renderer/src/lib/dataset-labels';

function entry(id: string, path: string, options: LoadOptions = {}): DatasetEntry {
  return { id, path, options, bundled: false, summary: {} } as unknown as DatasetEntry;
}

describe('describeOptions', () => {
  it('states a generated mask as its protocol, not as a temporary file', () => {
    const e = entry('g', '/d/HW.mat', {
      mask: '/tmp/mvstudio-data-x/masks/HW-complete30-seed1.npz',
      fold: 1,
    });
    expect(describeOptions(e)).toBe('views made missing: 30 % complete, seed 1');
  });
  it('lists every override, the labels file included', () => {
    const e = entry('o', '/d/v1.csv', {
      mask: '/m/folds.mat',
      fold: 3,
      orientation: 'd x n',
      labelsFile: '/d/labels.csv',
    });
    expect(describeOptions(e)).toBe('mask folds.mat fold 3 · labels file labels.csv · d x n');
  });
  it('is empty for a file read as it says', () => {
    expect(describeOptions(entry('p', '/d/HW.mat'))).toBe('');
  });
});

describe('subtitles', () => {
  it('gives three readings of one file three different subtitles', () => {
    const subs = subtitles([
      entry('a', '/d/HW.mat'),
      entry('b', '/d/HW.mat', { orientation: 'd x n' }),
      entry('c', '/d/HW.mat', { mask: '/t/HW-complete50-seed2.npz', fold: 1 }),
    ]);
    expect([...subs.values()]).toEqual([
      'as the file says',
      'd x n',
      'views made missing: 50 % complete, seed 2',
    ]);
  });
  it('names the shortest folder suffix that tells same-name files apart', () => {
    const subs = subtitles([
      entry('a', '/data/2024/run/HW.mat'),
      entry('b', '/data/2025/run/HW.mat'),
      entry('c', '/data/other/HW.mat'),
      entry('d', '/data/NGs.mat'),
    ]);
    expect(subs.get('a')).toBe('in 2024/run/');
    expect(subs.get('b')).toBe('in 2025/run/');
    expect(subs.get('c')).toBe('in other/');
    expect(subs.get('d')).toBe('');
  });
  it('says nothing for a file with no namesake and no override', () => {
    expect(subtitles([entry('a', '/d/HW.mat')]).get('a')).toBe('');
  });
});
