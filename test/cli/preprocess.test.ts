import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = join(__dirname, '../..');
const FILE = join(REPO, '../shared/datasets/CGL-benchmark/3Sources.mat');

function mvstudio(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(REPO, 'bin/mvstudio.mjs'), ...args], {
    cwd: REPO,
    encoding: 'utf8',
    timeout: 240_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('mvstudio run --preprocess', () => {
  it('refuses a bad value naming the flag and the choices', () => {
    const r = mvstudio('run', 'kmeans-concat', FILE, '--preprocess', 'bogus');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("--preprocess takes none, l2-rows, zscore (got 'bogus')");
  });

  it('applies it, says it in the notes and records it in run.json', () => {
    const out = mkdtempSync(join(tmpdir(), 'mvs-pre-'));
    const r = mvstudio('run', 'kmeans-concat', FILE, '--preprocess', 'zscore', '--out', out);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/preprocessing zscore/);
    const [folder] = readdirSync(out);
    const rec = JSON.parse(readFileSync(join(out, folder!, 'run.json'), 'utf8')) as {
      preprocess: string;
    };
    expect(rec.preprocess).toBe('zscore');
  });
});
