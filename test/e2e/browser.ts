/**
 * What the end-to-end tests share: where the web build and Debian's Chromium are, the
 * Chromium flags that work here (specs/toolchain.md), and the set-up check that makes every
 * test fail (never skip) with a message saying what to do.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const WEB = join(REPO, 'out', 'web');
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Why the browser tests cannot run (the web build or Chromium missing), or null. */
export function setupProblem(): Error | null {
  if (!existsSync(join(WEB, 'index.html'))) {
    return new Error(
      `${WEB}/index.html is missing: run \`npm run build:web\` first (npm test does)`,
    );
  }
  if (!existsSync(CHROMIUM))
    return new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  return null;
}
