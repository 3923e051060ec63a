/**
 * `mvstudio choose-k` as a user runs it: the real bin script in a child process, on an
 * unlabelled CSV of four blobs (two view files) written to a temporary folder.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/random';
import { REPO } from '../helpers/paths';

function mvstudio(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(REPO, 'bin/mvstudio.mjs'), ...args], {
    cwd: REPO,
    encoding: 'utf8',
    timeout: 240_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

let dir: string;
let a: string;
let b: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mvstudio-choose-k-'));
  const rng = createRng(2);
  const centres = [
    [0, 0],
    [10, 0],
    [0, 10],
    [10, 10],
  ];
  const va: string[] = [];
  const vb: string[] = [];
  for (let i = 0; i < 48; i++) {
    const [x, y] = centres[i % 4]!.map((c) => c + rng.next() - 0.5) as [number, number];
    va.push(`${x.toFixed(4)},${y.toFixed(4)}`);
    vb.push(`${(x + y).toFixed(4)},${(x - y).toFixed(4)},1`);
  }
  a = join(dir, 'a.csv');
  b = join(dir, 'b.csv');
  await writeFile(a, va.join('\n') + '\n');
  await writeFile(b, vb.join('\n') + '\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('mvstudio choose-k', () => {
  it('prints the k | eigengap | silhouette | objective table and both suggestions', () => {
    const r = mvstudio('choose-k', 'kmeans-concat', a, b, '--k', '2..6');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[1]).toMatch(/^k\s+eigengap\s+eigenvalue\s+silhouette\s+objective\s+clusters$/);
    expect(lines.slice(2, 7).map((l) => l.split(/\s+/)[0])).toEqual(['2', '3', '4', '5', '6']);
    expect(r.stdout).toContain('suggested k: 4 by the silhouette, 4 by the eigengap');
  });

  it('--json gives the points and the suggestions', () => {
    const r = mvstudio('choose-k', 'kmeans-concat', a, b, '--k', '3..5', '--seed', '1', '--json');
    expect(r.status).toBe(0);
    const j = JSON.parse(r.stdout) as {
      points: { k: number; silhouette: number }[];
      silhouetteK: number;
      eigengap: { suggested: number; eigenvalues: number[] };
      seed: number;
    };
    expect(j.points.map((p) => p.k)).toEqual([3, 4, 5]);
    expect(j.silhouetteK).toBe(4);
    expect(j.eigengap.eigenvalues).toHaveLength(6);
    expect(j.seed).toBe(1);
  });

  it('refuses a missing or bad range and an unknown method, exit 2', () => {
    const none = mvstudio('choose-k', 'kmeans-concat', a);
    expect(none.status).toBe(2);
    expect(none.stderr).toContain('choose-k needs the range: --k FROM..TO');
    const bad = mvstudio('choose-k', 'kmeans-concat', a, '--k', '1..5');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('k range 1..5: expected whole numbers with 2 ≤ from ≤ to');
    const unknown = mvstudio('choose-k', 'nope', a, '--k', '2..5');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("unknown method 'nope'");
  });
});
