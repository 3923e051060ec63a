/**
 * `mvstudio methods | run | compare` as a user runs them: the real bin script in a child
 * process. Bundles go to a temporary folder, never into the repository or ../shared.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRunBundle } from '../../src/io/bundle';
import { DATASETS, REPO } from '../io/paths';

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
    expect(runs[0]).toMatchObject({ method: 'bsv', seeds: [0, 1] });
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
