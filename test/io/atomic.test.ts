/**
 * Atomic writes: a file or folder written by writeFileAtomic / writeFolderAtomic is either
 * absent or complete, even when the writer is killed (SIGKILL) in the middle.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { fork } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeStaleTemporaries, writeFileAtomic, writeFolderAtomic } from '../../src/io/atomic';
import { REPO } from './paths';

const TMP = mkdtempSync(join(tmpdir(), 'mvs-atomic-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

/** Content written by the child: first and last line carry the same counter. */
function complete(text: string): boolean {
  const lines = text.split('\n');
  return lines.length === 4 && lines[0] === lines[2] && lines[3] === '';
}

async function killMidWrite(dir: string, mode: 'file' | 'folder', afterMs: number): Promise<void> {
  const child = fork(join(REPO, 'test/io/atomic-child.ts'), [dir, mode], {
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
});
