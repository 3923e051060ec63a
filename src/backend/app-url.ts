/**
 * Which URLs are the app's own. Electron's main process uses it to check the sender of every
 * IPC call and to refuse navigation away from the app. Pure, so it is tested without Electron.
 */

/**
 * True when `url` is a page of the app loaded from `appUrl`: the same origin when the app is
 * served over http(s) (the dev server), the same file when it is loaded from disk.
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
  if (app.protocol === 'file:') {
    return candidate.protocol === 'file:' && candidate.pathname === app.pathname;
  }
  if (app.protocol !== 'http:' && app.protocol !== 'https:') return false;
  return candidate.origin === app.origin;
}
