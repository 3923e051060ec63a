/**
 * When `mvstudio serve` builds the web interface: out/web missing, or older than a file of its
 * sources (temporary folders with files of given times), and what it says without vite.
 */
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  WEB_SOURCES,
  WebBuildError,
  ensureWebBuild,
  newestMtime,
  webBuildNeed,
  type ViteLoader,
} from '../../src/cli/web-build';

let root: string;
const out = (): string => join(root, 'out', 'web');

/** Writes `path` (relative to root) with its modification time at `seconds` since the epoch. */
async function file(path: string, seconds: number): Promise<void> {
  const p = join(root, path);
  await mkdir(dirname(p), { recursive: true });
  await writeFile(p, path);
  await utimes(p, seconds, seconds);
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'mvstudio-web-build-'));
  await file('src/renderer/index.html', 1000);
  await file('src/renderer/src/components/A.svelte', 1200);
  await file('src/shared/contract.ts', 1100);
  await file('vite.web.config.ts', 900);
  await file('svelte.config.js', 900);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('the staleness rule of out/web', () => {
  it('newestMtime: the latest time of any file below a folder; 0 for nothing', async () => {
    expect(await newestMtime(join(root, 'src/renderer'))).toBe(1_200_000);
    expect(await newestMtime(join(root, 'vite.web.config.ts'))).toBe(900_000);
    expect(await newestMtime(join(root, 'nothing-here'))).toBe(0);
  });

  it('missing when out/web/index.html is absent', async () => {
    expect(await webBuildNeed(root, out())).toEqual({
      reason: 'missing',
      detail: `${join(out(), 'index.html')} is missing`,
    });
  });

  it('current when the build is newer than every source, or as old (an installed package)', async () => {
    await file('out/web/index.html', 1300);
    expect(await webBuildNeed(root, out())).toBeNull();
    await file('out/web/index.html', 1200);
    expect(await webBuildNeed(root, out())).toBeNull();
  });

  it.each(WEB_SOURCES.map((s) => [s]))(
    'stale when a file of %s is newer than the build',
    async (source) => {
      await file('out/web/index.html', 1300);
      await file(source.includes('.') ? source : `${source}/deep/er/new.ts`, 1400);
      expect(await webBuildNeed(root, out())).toEqual({
        reason: 'stale',
        detail: `${source} changed since the last build`,
      });
    },
  );

  it('a file outside the sources (the CLI, tests) does not make it stale', async () => {
    await file('out/web/index.html', 1300);
    await file('src/cli/main.ts', 5000);
    await file('test/x.test.ts', 5000);
    expect(await webBuildNeed(root, out())).toBeNull();
  });
});

describe('ensureWebBuild', () => {
  const noVite: ViteLoader = () =>
    Promise.reject(new Error("Cannot find package 'vite' imported from /x/out/cli/mvstudio.mjs"));

  it('builds with vite when stale, saying so first', async () => {
    await file('out/web/index.html', 1000);
    const said: string[] = [];
    const builds: unknown[] = [];
    const vite: ViteLoader = async () => ({
      build: async (config) => {
        builds.push(config);
        said.push('built');
      },
    });
    await ensureWebBuild(root, out(), (l) => said.push(l), vite);
    expect(said).toEqual([
      'Building the web interface… (src/renderer changed since the last build)',
      'built',
    ]);
    expect(builds).toEqual([{ configFile: join(root, 'vite.web.config.ts'), logLevel: 'warn' }]);
  });

  it('does nothing when current', async () => {
    await file('out/web/index.html', 2000);
    const said: string[] = [];
    await ensureWebBuild(root, out(), (l) => said.push(l), noVite);
    expect(said).toEqual([]);
  });

  it('without vite: a missing build is a clear error, a stale one is served with a warning', async () => {
    const e = await ensureWebBuild(root, out(), () => {}, noVite).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(WebBuildError);
    expect((e as Error).message).toBe(
      `the web interface is not built (${join(out(), 'index.html')} is missing); vite, which ` +
        "builds the web interface, is not available (Cannot find package 'vite' imported from " +
        `/x/out/cli/mvstudio.mjs): run \`npm install\` (with the dev dependencies) in ${root}, ` +
        'then `npm run build:web`',
    );
    await file('out/web/index.html', 1000);
    const said: string[] = [];
    await ensureWebBuild(root, out(), (l) => said.push(l), noVite);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(
      /^the web interface may be out of date \(src\/renderer changed since the last build\); vite, which builds the web interface, is not available/,
    );
  });
});
