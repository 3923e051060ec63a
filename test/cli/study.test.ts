/**
 * `mvstudio study run | status | cell | report` and `mvstudio sweep` as a user runs them: the real
 * bin script in a child process, on a small synthetic dataset in a temporary folder.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/paths';

function mvstudio(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(REPO, 'bin/mvstudio.mjs'), ...args], {
    cwd: tmp,
    encoding: 'utf8',
    timeout: 240_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

let tmp: string;
const SPEC = {
  name: 'cli',
  methods: [{ method: 'kmeans-concat', label: 'concat' }, { method: 'bsv' }],
  datasets: [{ file: 'syn.npz' }],
  grid: { concat: { normalize: ['none', 'l2-rows'] } },
  seeds: 4,
  protocol: { replicates: 3 },
};

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'mvstudio-cli-study-'));
  const r = mvstudio('synth', '--n', '150', '--k', '3', '--dims', '4,5', '--out', 'syn.npz');
  expect(r.status, r.stderr).toBe(0);
  await writeFile(join(tmp, 'spec.json'), JSON.stringify(SPEC));
}, 60_000);
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('mvstudio study', () => {
  it('refuses an invalid spec, naming the field (exit 2)', async () => {
    const bad = { ...SPEC, methods: [{ method: 'kmeans-concat', params: { normalize: 'x' } }] };
    await writeFile(join(tmp, 'bad.json'), JSON.stringify(bad));
    const r = mvstudio('study', 'run', 'bad.json');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(
      `methods[0].params.normalize: expected one of 'none', 'zscore', 'l2-rows', got "x"`,
    );
    expect(r.stderr).toContain(
      'grid.concat: no method entry has this label; labels: kmeans-concat',
    );
  });

  it('runs a spec, reports its status and its tables', async () => {
    const run = mvstudio('study', 'run', 'spec.json', '--out', 'st');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('cli: 3 cells (0 failed) in st');
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^cli: 1\/3 cells done, about \d+s left$/),
      expect.stringMatching(/^cli: 2\/3 cells done/),
      expect.stringMatching(/^cli: 3\/3 cells done, about 0s left$/),
    ]);

    const status = mvstudio('study', 'status', 'st');
    expect(status.stdout).toBe('cli: 3 cells: 3 done, 0 failed, 0 to run\n');
    const json = JSON.parse(mvstudio('study', 'status', 'st', '--json').stdout) as object;
    expect(json).toEqual({ name: 'cli', total: 3, done: 3, failed: 0, pending: 0, failures: [] });

    const csv = mvstudio('study', 'report', 'st', '--format', 'csv');
    expect(csv.stdout).toBe(await readFile(join(tmp, 'st', 'results.csv'), 'utf8'));
    expect(csv.stdout.trim().split('\n')).toHaveLength(1 + 3 * 4);

    const md = mvstudio('study', 'report', 'st', '--format', 'md');
    expect(md.status).toBe(0);
    const lines = md.stdout.trim().split('\n');
    expect(lines[0]).toContain('chosen by the oracle rule');
    expect(lines.slice(2, 4)).toEqual(['| Method | syn | Avg. rank |', '|---|---:|---:|']);
    expect(lines.filter((l) => l.includes('**'))).toHaveLength(1);
    expect(lines.slice(4).map((l) => l.split(' | ')[0])).toEqual(['| concat', '| bsv']);

    const tex = mvstudio('study', 'report', 'st', '--format', 'tex');
    expect(tex.status).toBe(2);
    expect(tex.stderr).toContain('--format takes md or csv in this version');
  }, 240_000);

  it('runs one cell again with `study cell`, to the same rows', async () => {
    const path = join(tmp, 'st', 'cells', 'c0002', 'cell.json');
    const before = JSON.parse(await readFile(path, 'utf8')) as { rows: { seconds: number }[] };
    await rm(path);
    expect(mvstudio('study', 'status', 'st').stdout).toContain('2 done, 0 failed, 1 to run');
    const r = mvstudio('study', 'cell', 'st', 'c0002');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe('c0002: done\n');
    const after = JSON.parse(await readFile(path, 'utf8')) as typeof before;
    const timeless = (x: typeof before): object[] => x.rows.map(({ seconds: _s, ...row }) => row);
    expect(timeless(after)).toEqual(timeless(before));

    const unknown = mvstudio('study', 'cell', 'st', 'c0099');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("has no cell 'c0099' (cells c0001 to c0003)");
    const notStudy = mvstudio('study', 'status', 'nowhere');
    expect(notStudy.status).toBe(2);
    expect(notStudy.stderr).toContain("'nowhere' is not a study folder");
  }, 240_000);

  it('prints its usage', () => {
    const r = mvstudio('study', '--help');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^usage: mvstudio study run <spec.json>/);
    expect(mvstudio('study', 'walk').stderr).toContain(
      "study takes run, status, cell or report (got 'walk')",
    );
  });
});

describe('mvstudio sweep', () => {
  const args = [
    'sweep',
    'kmeans-concat',
    'syn.npz',
    '--grid',
    'normalize=none,zscore,l2-rows',
    '--seeds',
    '3',
  ];

  it('--json: the cells with their parameters and metric mean/std, and both selections', () => {
    const r = mvstudio(...args, '--replicates', '2', '--json');
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as {
      cells: {
        params: Record<string, unknown>;
        metrics: Record<string, { mean: number; std: number }>;
      }[];
      oracle: { rule: string; criterion: string; grid: object; value: number };
      labelFree: { rule: string; criterion: string };
    };
    expect(out.cells.map((c) => c.params)).toEqual([
      { normalize: 'none' },
      { normalize: 'zscore' },
      { normalize: 'l2-rows' },
    ]);
    const best = Math.max(...out.cells.map((c) => c.metrics['acc']!.mean));
    expect(out.oracle).toMatchObject({ rule: 'oracle', criterion: 'acc', value: best });
    expect(out.labelFree).toMatchObject({ rule: 'label-free', criterion: 'stability' });
  }, 240_000);

  it('prints the heatmap table with both choices marked', () => {
    const r = mvstudio(...args, '--replicates', '2');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('kmeans-concat on syn (k = 3): ACC, mean ± std over seeds');
    expect(r.stdout).toMatch(/^normalize=zscore +\d\.\d{3} ± \d\.\d{3}/m);
    expect(r.stdout).toMatch(/^\* oracle \(best mean, uses the labels\): normalize=/m);
    expect(r.stdout).toMatch(/^\+ label-free \(best mean, no labels used\): normalize=/m);
    const rows = r.stdout.split('\n').filter((l) => l.startsWith('normalize='));
    expect(rows).toHaveLength(3);
    expect(rows.filter((l) => /\d\*/.test(l))).toHaveLength(1);
    expect(rows.filter((l) => /\d[ *]\+/.test(l))).toHaveLength(1);
  }, 240_000);

  it('refuses a sweep without a grid or with a bad value (exit 2)', () => {
    const none = mvstudio('sweep', 'kmeans-concat', 'syn.npz');
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('sweep needs --grid name=v1,v2,...');
    const bad = mvstudio('sweep', 'kmeans-concat', 'syn.npz', '--grid', 'normalize=none,x');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(
      `grid.kmeans-concat.normalize[1]: expected one of 'none', 'zscore', 'l2-rows', got "x"`,
    );
  });
});
