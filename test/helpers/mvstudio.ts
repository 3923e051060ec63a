/** The real `mvstudio` bin script in a child process, as a user runs it. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO } from './paths';

export interface CliOutcome {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function mvstudio(...args: string[]): CliOutcome {
  const r = spawnSync(process.execPath, [join(REPO, 'bin/mvstudio.mjs'), ...args], {
    cwd: REPO,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
