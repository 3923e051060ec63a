/**
 * Atomic writes: a file or folder written by writeFileAtomic / writeFolderAtomic is either
 * absent or complete, even when the writer is killed (SIGKILL) in the middle.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { fork } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeStaleTemporaries, writeFileAtomic, writeFolderAtomic } from '../../src/io/atomic';
import { REPO } from '../helpers/paths';

const TMP = mkdtempSync(join(tmpdir(), 'mvs-atomic-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

/** Content written by the child: first and last line carry the same counter. */
function complete(text: string): boolean {
  const lines = text.split('\n');
  return lines.length === 4 && lines[0] === lines[2] && lines[3] === '';
}

async function killMidWrite(dir: string, mode: 'file' | 'folder', afterMs: number): Promise<void> {
  const child = fork(join(REPO, 'test/helpers/atomic-child.ts'), [dir, mode], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve) => child.once('message', () => resolve()));
  await new Promise((r) => setTimeout(r, afterMs));
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
}

describe('atomic writes', () => {
  it('writes a file and replaces it whole', async () => {
    const p = join(TMP, 'a', 'labels.csv');
    await writeFileAtomic(p, 'one\n');
    await writeFileAtomic(p, 'two\n');
    expect(readFileSync(p, 'utf8')).toBe('two\n');
    expect(readdirSync(join(TMP, 'a'))).toEqual(['labels.csv']);
  });

  it('never overwrites an existing folder', async () => {
    const d = join(TMP, 'b', 'run-1');
    await writeFolderAtomic(d, { 'run.json': '{"v":1}' });
    await expect(writeFolderAtomic(d, { 'run.json': '{"v":2}' })).rejects.toThrow();
    expect(readFileSync(join(d, 'run.json'), 'utf8')).toBe('{"v":1}');
    expect(readdirSync(join(TMP, 'b'))).toEqual(['run-1']);
  });

  it.each([20, 60, 150])(
    'a file writer killed after %i ms leaves the old file or a new one, whole',
    async (ms) => {
      const dir = join(TMP, `kill-file-${ms}`);
      await writeFileAtomic(join(dir, 'labels.csv'), 'old\nold\nold\n');
      await killMidWrite(dir, 'file', ms);
      const text = readFileSync(join(dir, 'labels.csv'), 'utf8');
      expect(complete(text) || text === 'old\nold\nold\n').toBe(true);
      await removeStaleTemporaries(dir);
      expect(readdirSync(dir)).toEqual(['labels.csv']);
    },
  );

  it.each([20, 60, 150])(
    'a folder writer killed after %i ms leaves only complete bundles',
    async (ms) => {
      const dir = join(TMP, `kill-folder-${ms}`);
      await writeFolderAtomic(join(dir, 'run-old'), {
        'run.json': '{}',
        'labels.csv': '1\nx\n1\n',
      });
      await killMidWrite(dir, 'folder', ms);
      for (const name of readdirSync(dir).filter((n) => !n.startsWith('.tmp-'))) {
        expect(existsSync(join(dir, name, 'run.json'))).toBe(true);
        expect(complete(readFileSync(join(dir, name, 'labels.csv'), 'utf8'))).toBe(true);
      }
      await removeStaleTemporaries(dir);
      expect(readdirSync(dir).some((n) => n.startsWith('.tmp-'))).toBe(false);
      expect(existsSync(join(dir, 'run-old', 'labels.csv'))).toBe(true);
    },
  );

  it('rejects file names that would escape the folder', async () => {
    await expect(writeFolderAtomic(join(TMP, 'c', 'x'), { '../evil': 'no' })).rejects.toThrow(
      /bad file name/,
    );
    expect(existsSync(join(TMP, 'c', 'x'))).toBe(false);
    writeFileSync(join(TMP, 'c', 'keep'), 'k');
    expect(await removeStaleTemporaries(join(TMP, 'c'))).toBe(0);
  });

  it('bundle folders are private (0700, files 0600); plain files keep the umask mode', async () => {
    const mode = (p: string): number => statSync(p).mode & 0o777;
    const d = join(TMP, 'private', 'runs', 'run-1');
    await writeFolderAtomic(d, { 'run.json': '{}', 'labels.csv': '1\n' });
    expect(mode(join(TMP, 'private'))).toBe(0o700);
    expect(mode(join(TMP, 'private', 'runs'))).toBe(0o700);
    expect(mode(d)).toBe(0o700);
    expect(mode(join(d, 'run.json'))).toBe(0o600);
    expect(mode(join(d, 'labels.csv'))).toBe(0o600);
    const umask = process.umask();
    const f = join(TMP, 'export', 'labels.csv');
    await writeFileAtomic(f, 'x\n');
    expect(mode(f)).toBe(0o666 & ~umask);
  });

  it('clears temporaries of dead writers only, never one a live process is writing', async () => {
    const dir = join(TMP, 'stale');
    // Above Linux's largest pid (2^22), so no process has it.
    const names = [`.tmp-run-1-${process.pid}-0123abcd`, '.tmp-run-2-4194399-0123abcd', '.tmp-old'];
    for (const n of names) mkdirSync(join(dir, n), { recursive: true });
    writeFileSync(join(dir, 'keep.csv'), 'k');
    expect(await removeStaleTemporaries(dir)).toBe(2);
    expect(readdirSync(dir).sort()).toEqual([names[0], 'keep.csv'].sort());
  });
});
