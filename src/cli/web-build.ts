/**
 * The web interface `mvstudio serve` serves (out/web), built on demand: when it is missing, or
 * older than any of its sources (src/renderer, src/shared, the vite web config, the Svelte
 * config), `serve` builds it with vite's JS API before listening, so `npm install` then
 * `npx mvstudio serve` works on a fresh clone without `npm run build:web`. vite is a dev
 * dependency: an installed package without it serves the build it ships, or says what to do.
 */
import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** What the web build is made from, relative to the repository root. */
export const WEB_SOURCES = [
  'src/renderer',
  'src/shared',
  'vite.web.config.ts',
  'svelte.config.js',
] as const;

/** The file whose time stands for the whole build (vite writes it with the bundle). */
const BUILD_MARK = 'index.html';

/** Latest modification time (ms) of a file, or of any file under a folder; 0 when absent. */
export async function newestMtime(path: string): Promise<number> {
  const info = await stat(path).catch(() => null);
  if (info === null) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = 0;
  for (const entry of await readdir(path, { withFileTypes: true })) {
    newest = Math.max(newest, await newestMtime(join(path, entry.name)));
  }
  return newest;
}

/** Why out/web must be built ('missing' or the newer source), or null when it is current. */
export async function webBuildNeed(
  root: string,
  outDir: string,
  sources: readonly string[] = WEB_SOURCES,
): Promise<{ reason: 'missing' | 'stale'; detail: string } | null> {
  const mark = await stat(join(outDir, BUILD_MARK)).catch(() => null);
  if (mark === null) return { reason: 'missing', detail: `${join(outDir, BUILD_MARK)} is missing` };
  for (const source of sources) {
    // Strictly newer: an installed package gives every file one time (npm normalises them).
    if ((await newestMtime(join(root, source))) > mark.mtimeMs) {
      return { reason: 'stale', detail: `${source} changed since the last build` };
    }
  }
  return null;
}

/** The build could not be made and none is there to serve: the message says what to do. */
export class WebBuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebBuildError';
  }
}

/** How vite is loaded (tests inject a failing loader to stand for a missing vite). */
export type ViteLoader = () => Promise<{
  build(config: { configFile: string; logLevel: 'warn' | 'error' }): Promise<unknown>;
}>;

const loadVite: ViteLoader = () => import('vite');

/**
 * Builds out/web when it is missing or stale, telling `say` first. Without vite: a stale build
 * is served as it is (with a warning through `say`); a missing one is a WebBuildError.
 */
export async function ensureWebBuild(
  root: string,
  outDir: string,
  say: (line: string) => void,
  load: ViteLoader = loadVite,
): Promise<void> {
  const need = await webBuildNeed(root, outDir);
  if (need === null) return;
  const configFile = join(root, 'vite.web.config.ts');
  let vite;
  try {
    if (!existsSync(configFile)) throw new Error(`${configFile} is missing`);
    vite = await load();
  } catch (e) {
    const why = e instanceof Error ? e.message.split('\n')[0] : String(e);
    const fix =
      `vite, which builds the web interface, is not available (${why}): run \`npm install\` ` +
      `(with the dev dependencies) in ${root}, then \`npm run build:web\``;
    if (need.reason === 'stale') {
      say(`the web interface may be out of date (${need.detail}); ${fix}`);
      return;
    }
    throw new WebBuildError(`the web interface is not built (${need.detail}); ${fix}`);
  }
  say(`Building the web interface… (${need.detail})`);
  await vite.build({ configFile, logLevel: 'warn' });
}
