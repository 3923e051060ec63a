/**
 * Runs `readMatV73` in a child process so that a test can put a real timeout on each read: the
 * reader's work is synchronous WASM code, which no timer in the same process can interrupt, and
 * a crash of the WASM runtime must not take the test runner down.
 *
 * The reader is bundled with esbuild (a dependency of tsx) into a temporary folder, beside a
 * `node_modules` link to the repository's, and the child runs it with plain Node: loading
 * h5wasm's 4 MB entry through tsx would cost seconds.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { REPO } from './paths';

/** What one read in the child ended in. */
export type IsolatedOutcome =
  | { kind: 'ok'; variables: string[]; warnings: string[] }
  | { kind: 'error'; name: string; message: string };

export interface IsolatedReader {
  /** Reads `path` in the child; rejects if the child takes longer than `timeoutMs` or dies. */
  read(path: string, timeoutMs: number): Promise<IsolatedOutcome>;
  /** Everything the child wrote to stderr so far. */
  stderr(): string;
  close(): void;
}

const CHILD = `
import { readMatV73 } from './v73-bundle.mjs';
process.on('message', async ({ id, path }) => {
  try {
    const m = await readMatV73(path);
    process.send({ id, kind: 'ok', variables: [...m.variables.keys()], warnings: [...m.warnings] });
  } catch (e) {
    process.send({ id, kind: 'error', name: String(e?.name), message: String(e?.message) });
  }
});
process.send({ ready: true });
`;

/** Bundles the reader into `dir` and starts a child process that reads files on request. */
export async function startIsolatedReader(dir: string): Promise<IsolatedReader> {
  await build({
    entryPoints: [join(REPO, 'src/io/mat/v73.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outfile: join(dir, 'v73-bundle.mjs'),
    logLevel: 'silent',
  });
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'junction');
  writeFileSync(join(dir, 'v73-child.mjs'), CHILD);

  const child: ChildProcess = fork(join(dir, 'v73-child.mjs'), [], {
    cwd: dir,
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));

  const pending = new Map<number, (r: IsolatedOutcome | Error) => void>();
  let died: Error | null = null;
  child.on('exit', (code, signal) => {
    died = new Error(`the reader process exited (code ${code}, signal ${signal})`);
    for (const settle of pending.values()) settle(died);
    pending.clear();
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', () => reject(died ?? new Error('the reader process did not start')));
  });
  child.on('message', ({ id, ...outcome }: { id: number } & IsolatedOutcome) => {
    pending.get(id)?.(outcome as IsolatedOutcome);
    pending.delete(id);
  });

  let nextId = 0;
  return {
    read(path, timeoutMs) {
      if (died) return Promise.reject(died);
      const id = nextId++;
      return new Promise<IsolatedOutcome>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          child.kill('SIGKILL');
          reject(new Error(`reading ${path} took more than ${timeoutMs} ms`));
        }, timeoutMs);
        pending.set(id, (r) => {
          clearTimeout(timer);
          if (r instanceof Error) reject(new Error(`${path}: ${r.message}`));
          else resolve(r);
        });
        child.send({ id, path });
      });
    },
    stderr: () => stderr,
    close: () => {
      child.removeAllListeners('exit');
      child.kill();
    },
  };
}
