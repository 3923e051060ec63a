/**
 * `mvstudio synth` as a user runs it (the real bin script, a child process): the .npz it
 * writes loads back as the dataset `synthesize` makes in-process (same values, presence and
 * labels), `run imvc-cbg` and `compare` accept it, and bad flags exit 2 with a message.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { synthesize } from '../../src/core/synth';
import { readRunBundle } from '../../src/io/bundle';
import { loadDataset } from '../../src/io/load';
import { REPO } from '../helpers/paths';

function mvstudio(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(REPO, 'bin/mvstudio.mjs'), ...args], {
    cwd: REPO,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mvstudio-synth-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('mvstudio synth', () => {
  it('writes an .npz that loads as the in-process dataset', async () => {
    const file = join(dir, 's.npz');
    const r = mvstudio(
      'synth',
      '--n',
      '500',
      '--k',
      '4',
      '--dims',
      '12,7,30',
      '--complete',
      '0.3',
      '--seed',
      '9',
      '--out',
      file,
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('views/sample 1 view:');
    const want = synthesize({ n: 500, k: 4, dims: [12, 7, 30], completeFraction: 0.3, seed: 9 });
    const got = await loadDataset(file);
    expect(got.n).toBe(500);
    expect(got.views.map((v) => v.d)).toEqual([12, 7, 30]);
    got.views.forEach((v, i) => {
      expect(Array.from(v.present)).toEqual(Array.from(want.views[i]!.present));
      expect(Array.from(v.values.data)).toEqual(Array.from(want.views[i]!.values.data));
    });
    expect(Array.from(got.labels!.codes)).toEqual(Array.from(want.labels!.codes));
    expect(got.labels!.classes).toEqual([1, 2, 3, 4]);
  });

  it('feeds run imvc-cbg and compare; the bundle records the parameters and the pattern', async () => {
    const file = join(dir, 'r.npz');
    expect(
      mvstudio(
        'synth',
        '--n',
        '300',
        '--k',
        '3',
        '--dims',
        '10,10',
        '--complete',
        '0.5',
        '--out',
        file,
      ).status,
    ).toBe(0);
    const run = mvstudio('run', 'imvc-cbg', file, '--anchors', '6', '--out', dir, '--json');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const summary = JSON.parse(run.stdout) as { bundle: string; params: Record<string, unknown> };
    expect(summary.params).toMatchObject({ anchors: 6, lambda: 0, start: 'best', restarts: 0 });
    const record = await readRunBundle(summary.bundle);
    expect(record.params).toMatchObject({ anchors: 6, alphaRule: 'norm', normalize: true });
    expect(record.dataset.missing).toEqual({
      n: 300,
      presentPerView: expect.any(Array),
      samplesByViewCount: [150, 150],
    });
    const cmp = mvstudio(
      'compare',
      file,
      '--methods',
      'imvc-cbg,kmeans-concat',
      '--seeds',
      '3',
      '--out',
      dir,
    );
    expect(cmp.stderr).toBe('');
    expect(cmp.status).toBe(0);
    expect(cmp.stdout).toMatch(/imvc-cbg/);
  });

  it('refuses bad flags with exit 2', () => {
    const out = join(dir, 'bad.npz');
    const cases: [string[], string][] = [
      [['--n', '10', '--k', '2', '--dims', '3,3'], 'synth needs --out <file.npz>'],
      [
        ['--n', '10', '--k', '2', '--dims', '3,x', '--out', out],
        "--dims must be a number, got 'x'",
      ],
      [['--n', '10', '--k', '20', '--dims', '3,3', '--out', out], 'k = 20 classes exceeds n = 10'],
      [
        ['--n', '10', '--k', '2', '--dims', '3', '--complete', '0.5', '--out', out],
        'with one view',
      ],
      [
        ['--n', '10', '--k', '2', '--dims', '3,3', '--out', join(dir, 'x.mat')],
        '--out must end in .npz',
      ],
      [['--k', '2', '--dims', '3,3', '--out', out], 'synth needs --n'],
    ];
    for (const [args, message] of cases) {
      const r = mvstudio('synth', ...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
    }
  });
});
