/**
 * `mvstudio study run | status | cell | report` and `mvstudio sweep` as a user runs them: the real
 * bin script in a child process, on a small synthetic dataset in a temporary folder.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/paths';
import { elements, parseXml } from '../core/study/report/xml';

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
    expect(json).toEqual({
      name: 'cli',
      total: 3,
      done: 3,
      failed: 0,
      pending: 0,
      failures: [],
      jobs: {},
    });

    const csv = mvstudio('study', 'report', 'st', '--format', 'csv');
    expect(csv.status, csv.stderr).toBe(0);
    expect(
      csv.stdout
        .trim()
        .split('\n')
        .map((l) => l.split(',').slice(0, 3)),
    ).toEqual([
      ['metric', 'selection', 'method'],
      ['acc', 'oracle', 'concat'],
      ['acc', 'oracle', 'bsv'],
    ]);

    const md = mvstudio('study', 'report', 'st', '--format', 'md');
    expect(md.status).toBe(0);
    const lines = md.stdout.trim().split('\n');
    expect(lines[0]).toContain('oracle selection (grid point with the best mean score');
    expect(lines.slice(2, 4)).toEqual(['| Method | syn | Avg. rank |', '| --- | ---: | ---: |']);
    expect(lines.slice(4, 6).map((l) => l.split(' | ')[0])).toEqual(['| concat', '| bsv']);
    expect(md.stdout).not.toContain('Critical difference'); // one dataset: no statistics

    const bad = mvstudio('study', 'report', 'st', '--format', 'pdf');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--format takes md, tex, html, csv (got 'pdf')");
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

  it('reports in every format: tables, statistics with 3 datasets, charts, hashes', async () => {
    for (const [seed, name] of [
      ['2', 'b.npz'],
      ['3', 'c.npz'],
    ] as const) {
      const r = mvstudio(
        'synth',
        '--n',
        '90',
        '--k',
        '3',
        '--dims',
        '3,4',
        '--seed',
        seed,
        '--out',
        name,
      );
      expect(r.status, r.stderr).toBe(0);
    }
    const spec = {
      name: 'three',
      methods: [
        { method: 'kmeans-concat', label: 'concat' },
        { method: 'bsv' },
        { method: 'imvc-cbg', label: 'cbg', params: { iterations: 5 } },
      ],
      datasets: [{ file: 'syn.npz' }, { file: 'b.npz' }, { file: 'c.npz' }],
      grid: {
        concat: { normalize: ['none', 'l2-rows'] },
        bsv: { neighbors: [5, 10] },
        cbg: { anchors: [3, 6], lambda: [0, 1] },
      },
      seeds: 2,
      protocol: { replicates: 2 },
    };
    await writeFile(join(tmp, 'three.json'), JSON.stringify(spec));
    const run = mvstudio('study', 'run', 'three.json', '--out', 'three');
    expect(run.status, run.stderr).toBe(0);

    const md = mvstudio('study', 'report', 'three', '--format', 'md');
    expect(md.status, md.stderr).toBe(0);
    expect(md.stdout).toContain('| Method | syn | b | c | Avg. rank |');
    expect(md.stdout).toContain('**Critical difference** (ACC, oracle selection)');
    expect(md.stdout).toContain('- 3 methods × 3 datasets (syn, b, c).');

    const tex = mvstudio('study', 'report', 'three', '--format', 'tex', '--select', 'label-free');
    expect(tex.status, tex.stderr).toBe(0);
    for (const rule of ['\\toprule', '\\midrule', '\\bottomrule', '\\textbf{']) {
      expect(tex.stdout).toContain(rule);
    }
    expect(tex.stdout).toContain('label-free selection');
    expect(tex.stdout).toMatch(/^concat & .* \\\\$/m);

    const html = mvstudio('study', 'report', 'three', '--format', 'html');
    expect(html.status, html.stderr).toBe(0);
    const root = parseXml(html.stdout);
    expect(html.stdout).toContain(`content="default-src 'none'`);
    expect(html.stdout).not.toMatch(/<script|<link|src=|href=/i);
    // A CD diagram, a line plot per bsv × dataset and a heatmap per cbg × dataset.
    expect(elements(root, 'svg')).toHaveLength(1 + 3 + 3);
    const captions = elements(root, 'figcaption').map((e) => e.text);
    expect(captions).toContain(
      'cbg on b: ACC over the grid (O: oracle choice, L: label-free choice)',
    );
    expect(captions).toContain('bsv on c: ACC over the grid');
    const sha = createHash('sha256')
      .update(await readFile(join(tmp, 'syn.npz')))
      .digest('hex');
    expect(html.stdout).toContain(`syn.npz sha256:${sha}`);
    expect(html.stdout).toContain('<h2>Study spec</h2>');

    const csv = mvstudio('study', 'report', 'three', '--format', 'csv', '--metric', 'nmi');
    expect(
      csv.stdout
        .trim()
        .split('\n')
        .map((l) => l.split(',')[2]),
    ).toEqual(['method', 'concat', 'bsv', 'cbg']);
    expect(csv.stdout).toMatch(/^nmi,oracle,concat,/m);
  }, 240_000);

  it('refuses an unknown executor, and Slurm options without it (exit 2)', () => {
    const bad = mvstudio('study', 'run', 'spec.json', '--executor', 'cloud');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--executor takes local or slurm (got 'cloud')");
    const mem = mvstudio('study', 'run', 'spec.json', '--mem', '2048');
    expect(mem.status).toBe(2);
    expect(mem.stderr).toContain('--mem needs --executor slurm');
    const cpus = mvstudio(
      'sweep',
      'kmeans-concat',
      'syn.npz',
      '--grid',
      'normalize=none',
      '--executor',
      'slurm',
      '--cpus',
      'two',
    );
    expect(cpus.status).toBe(2);
    expect(cpus.stderr).toContain("--cpus takes a positive integer (got 'two')");
  });

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
    expect(r.stdout).toContain(
      '**kmeans-concat on syn (k = 3): ACC (%), mean over seeds** (rows normalize, columns metric)',
    );
    expect(r.stdout).toMatch(/^\| zscore \| \d+\.\d{2}( \[.*\])? \|$/m);
    expect(r.stdout).toMatch(/^O oracle \(best mean, uses the labels\): normalize=/m);
    expect(r.stdout).toMatch(/^L label-free \(best mean, no labels used\): normalize=/m);
    const rows = r.stdout.split('\n').filter((l) => /^\| (none|zscore|l2-rows) \|/.test(l));
    expect(rows).toHaveLength(3);
    expect(rows.filter((l) => /\[(O|O, L)\]/.test(l))).toHaveLength(1);
    expect(rows.filter((l) => /\[(L|O, L)\]/.test(l))).toHaveLength(1);
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
