/**
 * `mvstudio show <bundle>`: a saved run printed again from its run.json as `run` printed it,
 * and damaged bundles refused naming the file. The real bin script in a child process.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mvstudio } from '../helpers/mvstudio';

let out: string;
let csv: string;
beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'mvstudio-show-'));
  const rows = ['a,b'];
  for (let i = 0; i < 30; i++) rows.push(`${(i % 2) * 10 + (i % 5) / 5},${(i % 3) / 3}`);
  csv = join(out, 'two groups.csv');
  await writeFile(csv, rows.join('\n') + '\n');
});
afterAll(async () => {
  await rm(out, { recursive: true, force: true });
});

/** Drops the bundle line (show adds `saved`), keeping the rest of `run`'s output. */
const body = (text: string): string => text.replace(/\nbundle .*\n(saved .*\n)?$/, '\n');

describe('mvstudio show', () => {
  it("prints what run printed, from the bundle's run.json; --json the run summary", async () => {
    const dir = join(out, 'runs');
    const run = mvstudio('run', 'kmeans-concat', csv, '--k', '2', '--out', dir);
    expect(run.status, run.stderr).toBe(0);
    const bundle = /\nbundle {6}(.+)\n$/.exec(run.stdout)![1]!;
    const shown = mvstudio('show', bundle);
    expect(shown.stderr).toBe('');
    expect(shown.status).toBe(0);
    expect(body(shown.stdout)).toBe(body(run.stdout));
    expect(shown.stdout).toMatch(/\nbundle {6}.+\nsaved {7}\d{4}-\d\d-\d\dT.+Z\n$/);
    // The run.json path names the same bundle.
    expect(mvstudio('show', join(bundle, 'run.json')).stdout).toBe(shown.stdout);

    const runJson = mvstudio('run', 'kmeans-concat', csv, '--k', '2', '--json', '--out', dir);
    const summary = JSON.parse(runJson.stdout) as Record<string, unknown>;
    const json = mvstudio('show', summary['bundle'] as string, '--json');
    expect(json.status).toBe(0);
    const again = JSON.parse(json.stdout) as Record<string, unknown>;
    const record = JSON.parse(
      await readFile(join(summary['bundle'] as string, 'run.json'), 'utf8'),
    ) as { createdAt: string };
    expect(again).toEqual({ ...summary, createdAt: record.createdAt });
  });

  it.each([
    ['bad JSON', '{"version": 1,', 'is not valid JSON (the run record is damaged or truncated)'],
    ['a wrong version', '{"version": 7}', 'unsupported run record version 7 (expected 1)'],
    ['a missing field', '{"version": 1}', "field 'dataset' is missing or malformed"],
  ])('a run.json with %s exits 2 naming the file', async (_what, text, message) => {
    const dir = join(out, `damaged-${text.length}`);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'run.json'), text);
    const r = mvstudio('show', dir);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`mvstudio show: ${join(dir, 'run.json')}: ${message}\n`);
  });

  it('a folder without run.json, or no folder at all, exits 2 naming it', () => {
    const missing = mvstudio('show', out);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe(
      `mvstudio show: ${join(out, 'run.json')}: missing: this folder is not a run bundle, or the bundle is incomplete\n`,
    );
    const nowhere = mvstudio('show', join(out, 'nope'));
    expect(nowhere.status).toBe(2);
    expect(nowhere.stderr).toBe(
      `mvstudio show: ${join(out, 'nope')}: no such run bundle (a folder holding run.json and labels.csv)\n`,
    );
    expect(mvstudio('show').stderr).toBe(
      'mvstudio show: show needs a bundle: mvstudio show <bundle>\n',
    );
  });
});
