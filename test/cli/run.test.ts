/**
 * `mvstudio methods | run | compare` as a user runs them: the real bin script in a child
 * process. Bundles go to a temporary folder, never into the repository or ../shared.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import type * as FsPromises from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCommand } from '../../src/cli/run';
import { readRunBundle } from '../../src/io/bundle';
import { DATASETS, REPO } from '../helpers/paths';

/** An errno code that `open` of a bundle temporary fails with in this process, or null. */
const failOpen = vi.hoisted(() => ({ code: null as string | null }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof FsPromises>();
  const open: typeof fs.open = (path, ...rest) => {
    if (failOpen.code !== null && String(path).includes('/.tmp-')) {
      const e = Object.assign(new Error(`${failOpen.code}: injected, open '${String(path)}'`), {
        code: failOpen.code,
        syscall: 'open',
        path: String(path),
      });
      return Promise.reject(e);
    }
    return fs.open(path, ...rest);
  };
  return { ...fs, open, default: { ...fs, open } };
});

const HW = join(DATASETS, 'HW/HW.mat');

function mvstudio(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  return mvstudioWith({}, ...args);
}

function mvstudioWith(
  env: Record<string, string>,
  ...args: string[]
): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(REPO, 'bin/mvstudio.mjs'), ...args], {
    cwd: REPO,
    encoding: 'utf8',
    timeout: 240_000,
    env: { ...process.env, ...env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

let out: string;
beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'mvstudio-run-'));
});
afterAll(async () => {
  await rm(out, { recursive: true, force: true });
});

interface Summary {
  method: string;
  params: Record<string, unknown>;
  seeds: number[];
  metrics: Record<string, { mean: number; std: number }>;
  timings: Record<string, number>;
  bundle: string;
}

describe('mvstudio methods', () => {
  it('--json lists every solver with its parameter schema', () => {
    const r = mvstudio('methods', '--json');
    expect(r.status).toBe(0);
    const list = JSON.parse(r.stdout) as {
      name: string;
      deterministic: boolean;
      parameters: Record<string, { type: string; default: unknown; doc: string }>;
    }[];
    expect(list.map((m) => m.name)).toEqual(expect.arrayContaining(['kmeans-concat', 'bsv']));
    const concat = list.find((m) => m.name === 'kmeans-concat')!;
    expect(concat.parameters['normalize']).toMatchObject({ type: 'enum', default: 'none' });
    for (const m of list) {
      expect(typeof m.deterministic).toBe('boolean');
      for (const p of Object.values(m.parameters)) expect(p.doc.length).toBeGreaterThan(0);
    }
  });
});

describe('mvstudio run', () => {
  it.each([
    [['run', 'bsv', HW, '--neighbors', '2'], /parameter 'neighbors' must be an integer from 3/],
    [['run', 'bsv', HW, '--bogus', '1'], /unknown parameter 'bogus'; parameters: neighbors/],
    [['run', 'nope', HW], /unknown method 'nope'; methods: .*kmeans-concat/],
    [['run', 'bsv', HW, '--protocol', 'best'], /--protocol takes 'single' or 'paper'/],
    [['run', 'bsv'], /run needs a method and a file/],
    [['run', 'bsv', HW, '--seeds', '3'], /--seeds applies to --protocol paper only/],
    [['run', 'bsv', HW, '--k', '0x10'], /--k takes a whole number from 2 \(got '0x10'\)/],
    [['run', 'bsv', HW, '--k', ' 5 '], /--k takes a whole number from 2 \(got ' 5 '\)/],
    [['run', 'bsv', HW, '--k', '1'], /--k takes a whole number from 2 \(got '1'\)/],
    [['run', 'bsv', HW, '--k', '2001'], /--k must be from 2 to 2000 \(the samples\), got 2001/],
    [['run', 'bsv', HW, '--seed', '1e3'], /--seed takes a whole number from 0 \(got '1e3'\)/],
    [['run', 'bsv', HW, '--neighbors', '0x10'], /parameter 'neighbors' must be an integer/],
    [
      ['run', 'bsv', HW, '--protocol', 'paper', '--seeds', '100000000'],
      /--seeds takes a whole number from 1 to 1000 \(got '100000000'\)/,
    ],
    [
      ['compare', HW, '--methods', 'bsv', '--seeds', '1001'],
      /--seeds takes a whole number from 1 to 1000 \(got '1001'\)/,
    ],
  ])('bad input %j exits 2 with a clear message', (args, message) => {
    const r = mvstudio(...args, '--out', out);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });

  it('--json prints one object; the bundle re-runs to the same labels from its run.json', async () => {
    const r = mvstudio('run', 'kmeans-concat', HW, '--seed', '3', '--json', '--out', out);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const s = JSON.parse(r.stdout) as Summary;
    expect(s).toMatchObject({ method: 'kmeans-concat', params: { normalize: 'none' }, seeds: [3] });
    expect(Object.keys(s.metrics)).toEqual([
      'ACC',
      'NMI',
      'Purity',
      'Fscore',
      'Precision',
      'Recall',
      'ARI',
      'Entropy',
      'EntropyPred',
    ]);
    expect(Object.keys(s.timings).sort()).toEqual(['kmeans_s', 'load_s', 'solve_s', 'total_s']);
    // Re-run from what run.json says alone.
    const rec = await readRunBundle(s.bundle);
    const params = Object.entries(rec.params).flatMap(([k, v]) => [`--${k}`, String(v)]);
    const again = mvstudio(
      'run',
      rec.method,
      rec.dataset.path,
      ...params,
      '--seed',
      String(rec.seed),
      '--protocol',
      rec.protocol,
      ...(rec.protocol === 'paper' ? ['--seeds', String(rec.seeds.length)] : []),
      '--k',
      String(rec.k),
      '--json',
      '--out',
      out,
    );
    expect(again.status).toBe(0);
    const s2 = JSON.parse(again.stdout) as Summary;
    expect(s2.bundle).not.toBe(s.bundle);
    const labels = await readFile(join(s.bundle, 'labels.csv'), 'utf8');
    expect(labels.split('\n')[0]).toBe('sample_id,cluster,true_label');
    expect(labels.trim().split('\n')).toHaveLength(2001);
    expect(await readFile(join(s2.bundle, 'labels.csv'), 'utf8')).toBe(labels);
    expect(s2.metrics).toEqual(s.metrics);
  });
});

describe('mvstudio compare', () => {
  // Two methods × two seeds on HW (2000 × 649 in 6 views): ~20 s on a quiet machine; the
  // generous timeout keeps a busy CI machine from failing it.
  it('prints a mean ± std row per method', { timeout: 240_000 }, () => {
    const r = mvstudio(
      'compare',
      HW,
      '--methods',
      'kmeans-concat,bsv',
      '--seeds',
      '2',
      '--out',
      out,
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^method\s+ACC\s+NMI\s+Purity\s+Fscore\s+Precision\s+Recall\s+ARI/);
    const cell = String.raw`\d\.\d{4} ± \d\.\d{4}`;
    expect(r.stdout).toMatch(new RegExp(`\\nkmeans-concat(\\s+${cell}){7}\\s+\\d+\\.\\d{2}\\n`));
    expect(r.stdout).toMatch(new RegExp(`\\nbsv(\\s+${cell}){7}\\s+\\d+\\.\\d{2}\\n`));
  });

  it('--json prints an array of run summaries', () => {
    const r = mvstudio('compare', HW, '--methods', 'bsv', '--seeds', '2', '--json', '--out', out);
    expect(r.status).toBe(0);
    const runs = JSON.parse(r.stdout) as Summary[];
    expect(runs).toHaveLength(1);
    // The default first seed is DEFAULT_SEED (1), the app's and the reference protocols'.
    expect(runs[0]).toMatchObject({ method: 'bsv', seeds: [1, 2] });
    expect(runs[0]!.metrics['ACC']!.mean).toBeGreaterThan(0.5);
  });
});

describe('mvstudio run with helper threads', () => {
  const SOURCES = join(DATASETS, 'CGL-benchmark/3Sources.mat');

  it('one helper or none: the same objective trace and labels (cgmvc-nc, 3Sources)', async () => {
    const runWith = (threads: string) => {
      const r = mvstudioWith(
        { MVSTUDIO_THREADS: threads },
        ...['run', 'cgmvc-nc', SOURCES, '--lambda', '0.0769', '--rho', '1', '--json'],
        ...['--out', out],
      );
      expect(r.status, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as Summary;
    };
    const one = runWith('0');
    const two = runWith('1');
    const a = await readRunBundle(one.bundle);
    const b = await readRunBundle(two.bundle);
    expect(b.objective).toEqual(a.objective);
    expect(a.objective.length).toBeGreaterThan(40);
    const labels = (s: Summary) => readFile(join(s.bundle, 'labels.csv'), 'utf8');
    expect(await labels(two)).toBe(await labels(one));
  });

  it('a malformed MVSTUDIO_THREADS exits 2 naming the variable', () => {
    const r = mvstudioWith({ MVSTUDIO_THREADS: 'two' }, 'run', 'bsv', HW, '--out', out);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/MVSTUDIO_THREADS must be a whole number of helper threads/);
  });
});

describe('mvstudio run: data and folders it cannot use', () => {
  /** A 40 × 3 CSV in two groups; `edit` replaces sample 5 (line 6, after the header). */
  async function csv(name: string, edit?: string): Promise<string> {
    const rows = ['a,b,c'];
    for (let i = 0; i < 40; i++) {
      const g = (i % 2) * 10;
      rows.push([g + (i % 7) / 7, g + (i % 5) / 5, g + (i % 3) / 3].join(','));
    }
    if (edit !== undefined) rows[5] = edit;
    const path = join(out, name);
    await writeFile(path, rows.join('\n') + '\n');
    return path;
  }

  it.each(['kmeans-concat', 'imvc-cbg', 'bsv'])(
    '%s: one value of 1e200 fails the run naming the overflow, not one silent cluster',
    async (method) => {
      const file = await csv(`big-${method}.csv`, '1e200,1,2');
      // bsv's default neighbourhood (10) is too wide for 40 samples.
      const extra = method === 'bsv' ? ['--neighbors', '5'] : [];
      const r = mvstudio('run', method, file, '--k', '2', ...extra, '--out', out);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        new RegExp(
          `^mvstudio run: ${method}: .*the distances overflow \\(view 'big-${method}.csv' holds values up to 1e200\\): rescale the data\n$`,
        ),
      );
    },
  );

  it('NaN data: info warns that runs refuse it, and run refuses it naming the view and cell', async () => {
    const file = await csv('nan.csv', '5,NaN,6');
    const info = mvstudio('info', file);
    expect(info.status).toBe(0);
    expect(info.stdout).toMatch(/NaN or Inf values in view 'nan.csv' \(1\): runs refuse such data/);
    const r = mvstudio('run', 'kmeans-concat', file, '--k', '2', '--out', out);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      "mvstudio run: kmeans-concat: view 'nan.csv' holds NaN at sample 5, feature 2 (1-based); " +
        'runs refuse NaN and Inf values: remove or impute them (or mark the sample missing in ' +
        'this view) before running\n',
    );
  });

  it('imvc-cbg on TwoMoon with k = 199 runs (its anchor Gram once stalled QL)', () => {
    const r = mvstudio(
      'run',
      'imvc-cbg',
      join(DATASETS, 'Synthetic/TwoMoon.mat'),
      '--k',
      '199',
      // One start: the test is about the anchor Gram, not the choice of start.
      '--start',
      'seeded',
      '--json',
      '--out',
      out,
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const s = JSON.parse(r.stdout) as Summary;
    expect(s.metrics['ACC']!.mean).toBeGreaterThan(0);
  });

  it('refuses a run above the solver memory limit before solving, as the web host does (exit 2)', async () => {
    // CGL's dense path on HW (n = 2,000, 6 views, Σd = 649): its declared footprint, led by
    // (6V + 2) = 38 n × n doubles (8 · 38 · 2000² bytes), beside the data's 2,000 · 649 · 8 bytes.
    const dir = join(out, 'too-large');
    const r = mvstudioWith(
      { MVSTUDIO_MEMORY_LIMIT: '64M' },
      ...['run', 'cgl', HW, '--path', 'dense', '--out', dir],
    );
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'mvstudio run: CGL (consensus graph learning, weighted tensor nuclear norm) would need ' +
        'about 1.15 GiB on this dataset (the data 9.9 MiB, about 14 dense n × n arrays and their ' +
        'per-pass copies 1.14 GiB), ' +
        "more than the solver's memory limit of 64 MiB (MVSTUDIO_MEMORY_LIMIT): choose " +
        'parameters that need less, or a machine with more memory\n',
    );
    expect(await readdir(dir).catch(() => [])).toEqual([]);
  });

  it('--out naming a file exits 2 before loading, naming it', async () => {
    const file = await csv('plain.csv');
    const target = join(out, 'a-file');
    await writeFile(target, 'x');
    const r = mvstudio('run', 'kmeans-concat', file, '--k', '2', '--out', target);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `mvstudio run: --out '${target}' is a file, not a folder: bundles go into a folder\n`,
    );
  });

  it('clears a temporary left by a killed bundle write at the start of run and compare', async () => {
    const file = await csv('tmp.csv');
    const dir = join(out, 'stale');
    // Above Linux's largest pid (2^22): the writer is gone.
    const stale = join(dir, '.tmp-x-kmeans-concat-0-4194399-0123abcd');
    await mkdir(stale, { recursive: true });
    expect(mvstudio('run', 'kmeans-concat', file, '--k', '2', '--out', dir).status).toBe(0);
    expect((await readdir(dir)).filter((n) => n.startsWith('.tmp-'))).toEqual([]);
    await mkdir(stale);
    const r = mvstudio(
      'compare',
      file,
      '--methods',
      'kmeans-concat',
      '--k',
      '2',
      '--seeds',
      '2',
      '--out',
      dir,
    );
    expect(r.status).toBe(0);
    expect((await readdir(dir)).filter((n) => n.startsWith('.tmp-'))).toEqual([]);
    const bundles = await readdir(dir);
    expect(bundles).toHaveLength(2);
    for (const b of bundles) expect((await stat(join(dir, b))).mode & 0o777).toBe(0o700);
  });

  it.each([
    ['ENOSPC', 'the disk is full (ENOSPC)'],
    ['EROFS', 'the file system is read-only (EROFS)'],
  ])(
    '%s while saving: the metrics are printed first, then a clear error, exit 2',
    async (code, cause) => {
      const file = await csv(`full-${code}.csv`);
      const dir = join(out, `full-${code}`);
      const written: string[] = [];
      const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
        written.push(String(chunk));
        return true;
      });
      const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
        written.push(`stderr: ${String(chunk)}`);
        return true;
      });
      failOpen.code = code;
      let status: number;
      try {
        status = await runCommand('run', ['kmeans-concat', file, '--k', '2', '--out', dir]);
      } finally {
        failOpen.code = null;
        stdout.mockRestore();
        stderr.mockRestore();
      }
      expect(status).toBe(2);
      expect(written).toHaveLength(2);
      expect(written[0]).toMatch(/^method {6}kmeans-concat\n[^]*Silhouette {2}\d\.\d{4}\n/);
      expect(written[0]).not.toMatch(/bundle/);
      expect(written[1]).toBe(
        `stderr: mvstudio run: cannot write the run bundle in '${dir}': ${cause}\n`,
      );
      expect(await readdir(dir)).toEqual([]);
    },
  );
});

describe('mvstudio run and compare: a dataset of several view files', () => {
  /** Two CSV views of 45 samples in 3 groups, and a labels file (header 'class'). */
  async function twoViews(): Promise<{ v1: string; v2: string; labels: string }> {
    const folder = join(out, 'two-views');
    await mkdir(folder, { recursive: true });
    const a = ['x,y'];
    const b = ['p,q,r'];
    const l = ['class'];
    for (let i = 0; i < 45; i++) {
      const g = i % 3;
      const jitter = ((i * 7) % 11) / 11;
      a.push(`${g * 10 + jitter},${g * 6 - jitter}`);
      b.push(`${-g * 8 + jitter},${jitter},${g * 4 + jitter}`);
      l.push(['red', 'green', 'blue'][g]!);
    }
    const v1 = join(folder, 'view1.csv');
    const v2 = join(folder, 'view2.csv');
    const labels = join(folder, 'labels.csv');
    await writeFile(v1, a.join('\n') + '\n');
    await writeFile(v2, b.join('\n') + '\n');
    await writeFile(labels, l.join('\n') + '\n');
    return { v1, v2, labels };
  }

  it('run: V = 2, the metrics, and a bundle listing both files with their sha256', async () => {
    const { v1, v2, labels } = await twoViews();
    const dir = join(out, 'two-view-runs');
    const r = mvstudio('run', 'kmeans-concat', v1, v2, '--labels-file', labels, '--out', dir);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`file        ${v1}\n            ${v2}\n`);
    expect(r.stdout).toContain('data        n = 45, V = 2\n');
    expect(r.stdout).toContain('k           3\n');
    expect(r.stdout).toMatch(/\nACC +1\.0000\n/);
    const bundle = /\nbundle {6}(.+)\n$/.exec(r.stdout)![1]!;
    const rec = await readRunBundle(bundle);
    expect(rec.dataset.files.map((f) => f.path)).toEqual([v1, v2]);
    for (const f of rec.dataset.files) expect(f.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(rec.dataset.files[0]!.sha256).not.toBe(rec.dataset.files[1]!.sha256);
    expect(rec.dataset).toMatchObject({ path: v1, loadOptions: { labelsFile: labels } });
    expect(rec.dataset.missing.presentPerView).toEqual([45, 45]);
  });

  it('compare: one row per method on the two views, bundles listing both files', async () => {
    const { v1, v2, labels } = await twoViews();
    const dir = join(out, 'two-view-compare');
    const args = ['compare', v1, v2, '--labels-file', labels, '--methods', 'kmeans-concat'];
    const r = mvstudio(...args, '--seeds', '2', '--out', dir);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/\nkmeans-concat +1\.0000 ± 0\.0000/);
    expect(r.stdout).toContain(`dataset ${v1} ${v2}: n = 45, V = 2, k = 3, seeds 1..2 (2)`);
    const json = mvstudio(...args, '--seeds', '2', '--json', '--out', dir);
    expect(json.status).toBe(0);
    const [run] = JSON.parse(json.stdout) as (Summary & { files: string[]; V: number })[];
    expect(run).toMatchObject({ files: [v1, v2], V: 2, seeds: [1, 2] });
    const rec = await readRunBundle(run!.bundle);
    expect(rec.dataset.files.map((f) => f.path)).toEqual([v1, v2]);
  });

  it('a second view file of another kind is refused naming it', async () => {
    const { v1 } = await twoViews();
    const r = mvstudio('run', 'kmeans-concat', v1, join(DATASETS, 'HW/HW.mat'), '--out', out);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/HW\.mat.*is mat-v5, but the first view file .*view1\.csv is csv/);
  });
});
