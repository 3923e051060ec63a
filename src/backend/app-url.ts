/**
 * Which URLs are the app's own, and what the app's pages are sent with. Electron's main
 * process loads the built renderer from the privileged scheme `app://renderer/` (never
 * file://), uses `isAppUrl` to check the sender of every IPC call and to refuse navigation
 * away from the app, and `resolveAppFile` to map an `app://` request to a file of the build.
 * Pure, so it is tested without Electron.
 */
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';

/** The custom scheme the packaged renderer is loaded from. */
export const APP_SCHEME = 'app';
/** The one host of that scheme: a standard scheme needs a host, and one host is one origin. */
export const APP_HOST = 'renderer';
/** The page Electron opens. */
export const APP_INDEX_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/**
 * The pages' policy, sent as a header by both the web host and the `app://` handler
 * (index.html carries the parts a meta tag can hold).
 */
export const APP_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

/** The Content-Type of a file of the build, by its extension. */
export function contentTypeOf(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/** True when `target` is `dir` or inside it (both absolute, resolved). */
export function isInsideFolder(dir: string, target: string): boolean {
  const rel = relative(dir, target);
  return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel));
}

/**
 * True when `url` is a page of the app loaded from `appUrl`: the same scheme and host for
 * `app://` (the packaged app), the same origin when the app is served over http(s) (the dev
 * server). Anything else (file:, other hosts, malformed URLs) is not the app.
 */
export function isAppUrl(url: string | undefined, appUrl: string): boolean {
  if (!url) return false;
  let candidate: URL;
  let app: URL;
  try {
    candidate = new URL(url);
    app = new URL(appUrl);
  } catch {
    return false;
  }
  if (app.protocol === `${APP_SCHEME}:`) {
    return candidate.protocol === app.protocol && candidate.host === app.host;
  }
  if (app.protocol !== 'http:' && app.protocol !== 'https:') return false;
  return candidate.origin === app.origin;
}

/**
 * The file of the build (`root`, absolute) that an `app://renderer/…` request names, or null
 * when the URL is not the app's, is malformed, or leads out of `root`. `/` is index.html.
 */
export function resolveAppFile(url: string, root: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return null;
  let path: string;
  try {
    path = decodeURIComponent(parsed.pathname);
  } catch {
    return null;
  }
  if (path.includes('\0') || path.includes('\\')) return null;
  if (path === '' || path.endsWith('/')) path += 'index.html';
  const base = resolve(root);
  const target = resolve(base, '.' + (path.startsWith('/') ? path : '/' + path));
  return isInsideFolder(base, target) ? target : null;
}
