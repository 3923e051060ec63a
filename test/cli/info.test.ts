/**
 * `mvstudio info` as a user runs it: the real bin script in a child process, its stdout,
 * stderr and exit status.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { DATASETS, REPO } from '../helpers/paths';

function mvstudio(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(REPO, 'bin/mvstudio.mjs'), ...args], {
    cwd: REPO,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('mvstudio info', () => {
  it('--json prints one object with the documented fields', () => {
    const r = mvstudio('info', join(DATASETS, 'HW/HW.mat'), '--json');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const info = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(info).toMatchObject({
      file: join(DATASETS, 'HW/HW.mat'),
      n: 2000,
      labels: { classes: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], sizes: new Array(10).fill(200) },
      samplesByViewCount: [0, 0, 0, 0, 0, 2000],
      warnings: [],
    });
    expect(
      (info['views'] as { d: number; present: number; sparse: boolean }[]).map((v) => [
        v.d,
        v.present,
        v.sparse,
      ]),
    ).toEqual([
      [216, 2000, false],
      [76, 2000, false],
      [64, 2000, false],
      [6, 2000, false],
      [240, 2000, false],
      [47, 2000, false],
    ]);
    expect((info['decisions'] as { topic: string }[]).map((d) => d.topic)).toContain('orientation');
  });

  it('prints a readable summary with a mask from a separate folds file', () => {
    const r = mvstudio(
      'info',
      join(DATASETS, '3Sources/3sources3vbigRnSp.mat'),
      '--mask',
      join(DATASETS, '3Sources/3sources3vbigRnSp_percentDel_0.3.mat'),
      '--fold',
      '2',
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/missingness\s+mask-file/);
    expect(r.stdout).toMatch(/X\{1\}\s+3560\s+119\/169\s+dense/);
    expect(r.stdout).toMatch(/mask folds\{2\} \(fold 2 of 10\)/);
  });

  it.each([
    [
      ['info', 'no-such-file.mat'],
      /^mvstudio info: no-such-file\.mat: cannot open: no such file\n$/,
    ],
    [['info'], /info needs a file/],
    [
      ['info', join(DATASETS, 'HW/HW.mat'), '--fold', '0', '--mask', 'x'],
      /--fold takes a whole number from 1/,
    ],
    [
      ['info', join(DATASETS, 'HW/HW.mat'), '--orientation', 'sideways'],
      /--orientation takes "n x d" or "d x n"/,
    ],
    [['info', join(DATASETS, 'HW/HW.mat'), '--bogus'], /Unknown option '--bogus'/],
    [['info', join(DATASETS, 'MSRC-v1/MSRCV1_A.mat')], /precomputed graphs/],
  ])('bad input %j exits 2 with a clear message', (args, message) => {
    const r = mvstudio(...args);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });

  it('an unknown command exits 2 with the usage', () => {
    const r = mvstudio('frobnicate');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unknown command 'frobnicate'\nusage: mvstudio/);
  });
});
