import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  APP_CSP,
  APP_INDEX_URL,
  contentTypeOf,
  isAppUrl,
  resolveAppFile,
} from '../../src/backend/app-url';

describe('isAppUrl', () => {
  it('accepts the dev server origin only', () => {
    const app = 'http://localhost:5173/';
    expect(isAppUrl('http://localhost:5173/index.html#x', app)).toBe(true);
    expect(isAppUrl('http://localhost:5174/', app)).toBe(false);
    expect(isAppUrl('https://localhost:5173/', app)).toBe(false);
    expect(isAppUrl('http://evil.example/', app)).toBe(false);
    expect(isAppUrl(undefined, app)).toBe(false);
    expect(isAppUrl('not a url', app)).toBe(false);
  });

  it('accepts pages of app://renderer only, and no file: URL', () => {
    expect(APP_INDEX_URL).toBe('app://renderer/index.html');
    expect(isAppUrl('app://renderer/index.html', APP_INDEX_URL)).toBe(true);
    expect(isAppUrl('app://renderer/index.html?x#y', APP_INDEX_URL)).toBe(true);
    expect(isAppUrl('app://renderer/', APP_INDEX_URL)).toBe(true);
    expect(isAppUrl('app://other/index.html', APP_INDEX_URL)).toBe(false);
    expect(isAppUrl('file:///opt/app/out/renderer/index.html', APP_INDEX_URL)).toBe(false);
    expect(isAppUrl('file:///etc/passwd', APP_INDEX_URL)).toBe(false);
    expect(isAppUrl('http://renderer/', APP_INDEX_URL)).toBe(false);
    // A file: app URL (the old way) is no longer an app at all.
    const file = 'file:///opt/app/out/renderer/index.html';
    expect(isAppUrl(file, file)).toBe(false);
  });
});

describe('resolveAppFile', () => {
  const root = '/opt/app/out/renderer';

  it('maps app://renderer paths to files of the build', () => {
    expect(resolveAppFile('app://renderer/index.html', root)).toBe(join(root, 'index.html'));
    expect(resolveAppFile('app://renderer/', root)).toBe(join(root, 'index.html'));
    expect(resolveAppFile('app://renderer/assets/a%20b.js?v=1#x', root)).toBe(
      join(root, 'assets', 'a b.js'),
    );
    expect(resolveAppFile('app://renderer/assets/', root)).toBe(join(root, 'assets', 'index.html'));
  });

  it('refuses paths out of the build, other hosts and schemes, and malformed URLs', () => {
    for (const url of [
      'app://renderer/../main/index.js',
      'app://renderer/%2e%2e/main/index.js',
      'app://renderer/assets/%2e%2e/%2e%2e/secret',
      'app://renderer/..%2f..%2fetc%2fpasswd',
      'app://renderer/%2fetc%2fpasswd',
      'app://renderer/a%5c..%5c..%5cx',
      'app://renderer/%00',
      'app://renderer/%E0%A4%A',
      'app://other/index.html',
      'file:///opt/app/out/renderer/index.html',
      'http://renderer/index.html',
      'not a url',
    ]) {
      const file = resolveAppFile(url, root);
      if (file !== null) expect(file.startsWith(root + '/'), `${url} -> ${file}`).toBe(true);
      else expect(file, url).toBeNull();
    }
    // The URL parser folds a leading `..` at the root: it stays inside the build.
    expect(resolveAppFile('app://renderer/%2e%2e/main/index.js', root)).toBe(
      join(root, 'main', 'index.js'),
    );
    expect(resolveAppFile('app://renderer/..%2f..%2fetc%2fpasswd', root)).toBeNull();
    expect(resolveAppFile('app://other/index.html', root)).toBeNull();
  });

  it('types the build files and carries the CSP a meta tag cannot', () => {
    expect(contentTypeOf('/x/index.html')).toBe('text/html; charset=utf-8');
    expect(contentTypeOf('/x/a.WASM')).toBe('application/wasm');
    expect(contentTypeOf('/x/a.bin')).toBe('application/octet-stream');
    expect(APP_CSP).toContain("frame-ancestors 'none'");
    expect(APP_CSP).toContain("script-src 'self'");
  });
});
