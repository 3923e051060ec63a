/**
 * End to end, in a real browser: the web build (out/web, made by `npm run build:web`, which
 * `npm test` runs first) served by `startServer` with the real library and loaders, driven
 * by Debian's Chromium through playwright-core.
 *
 * With MVSTUDIO_SCREENSHOTS=1 also writes docs/screenshots/dataset-info.png (the README's
 * screenshot), only when the picture changed: fixed viewport, scale, colour scheme, locale and time zone.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, REPO, setupProblem, WEB } from './browser';
import { DatasetLibrary } from '../../src/backend/library';
import { startServer } from '../../src/cli/serve';
import type { RunningServer } from '../../src/cli/serve';

const SAMPLE = join(REPO, 'resources', 'datasets', 'NGs_Per0.5.mat');
const HW = resolve(REPO, '../shared/datasets/HW/HW.mat');
const SCREENSHOT = join(REPO, 'docs', 'screenshots', 'dataset-info.png');

let server: RunningServer | undefined;
let context: BrowserContext | undefined;
let profile: string | undefined;
let page: Page;
const pageErrors: string[] = [];
/** Why the browser could not be set up; every test then fails with it (never skips). */
let missing: Error | undefined;

/** Throws the set-up problem, so that each test fails with a message saying what to do. */
function ready(): void {
  if (missing) throw missing;
}

beforeAll(async () => {
  // Fail, never skip, when the build is missing: a skipped e2e test proves nothing.
  missing = setupProblem() ?? undefined;
  if (missing) return;
  const library = new DatasetLibrary({ bundled: [SAMPLE] });
  server = await startServer({ port: 0, library, staticDir: WEB });
  profile = await mkdtemp(join(tmpdir(), 'mvstudio-e2e-profile-'));
  // launchPersistentContext is playwright's way to give Chromium a --user-data-dir.
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: { width: 1280, height: 960 },
    deviceScaleFactor: 1,
    colorScheme: 'light',
    reducedMotion: 'reduce',
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  context.setDefaultTimeout(20_000);
  page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (e) => pageErrors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(`console: ${m.text()}`);
  });
});

afterAll(async () => {
  await context?.close();
  await server?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
});

/** Texts of one column of the views table, thousands separators removed. */
async function column(name: string): Promise<string[]> {
  const texts = await page
    .getByTestId('view-row')
    .locator(`[data-col="${name}"]`)
    .allTextContents();
  return texts.map((t) => t.trim().replace(/,/g, ''));
}

describe('the app in a browser', () => {
  it('without the token says to open the address `mvstudio serve` printed', async () => {
    ready();
    const before = pageErrors.length;
    await page.goto(server!.url);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain(
      'open the address `mvstudio serve` printed, with its token',
    );
    expect(await page.getByTestId('dataset-item').count()).toBe(0);
    // The browser logs each refused request (and the refused event stream) as an error.
    const refused = pageErrors.splice(before);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((e) => e.includes('401'))).toBe(true);
  });

  it('shows the bundled sample and its summary', async () => {
    ready();
    // The printed address: its token moves into a cookie and out of the address bar.
    await page.goto(server!.launchUrl);
    expect(page.url()).toBe(`${server!.url}/`);
    const items = page.getByTestId('dataset-item');
    await items.first().waitFor();
    expect(await items.count()).toBe(1);
    const item = items.first();
    expect(await item.textContent()).toContain('NGs_Per0.5.mat');
    expect(await item.textContent()).toContain('sample');

    await item.click();
    await page.getByTestId('dataset-info').waitFor();
    expect(await page.getByTestId('info-file').textContent()).toBe('NGs_Per0.5.mat');
    expect((await page.getByTestId('info-n').textContent())?.trim()).toBe('500');
    expect(await page.getByTestId('view-row').count()).toBe(3);
    expect(await column('d')).toEqual(['2000', '2000', '2000']);
    expect(await column('present')).toEqual(['374', '372', '378']);
    expect(await column('storage')).toEqual(['dense', 'dense', 'dense']);
    expect(await page.getByTestId('info-missingness').textContent()).toContain('nan-columns');

    expect(await page.getByTestId('labels-summary').textContent()).toContain('5 classes');
    expect(await page.getByTestId('label-class').count()).toBe(5);
    expect(await page.getByTestId('label-size').allTextContents()).toEqual([
      '100',
      '100',
      '100',
      '100',
      '100',
    ]);
    expect(await page.getByTestId('decisions-table').locator('tbody tr').count()).toBeGreaterThan(
      0,
    );

    await saveScreenshot();
  });

  it('opens a dataset by path', async () => {
    ready();
    await page.getByTestId('path-input').fill(HW);
    await page.getByTestId('open-path').click();
    await page.getByTestId('info-file').filter({ hasText: 'HW.mat' }).waitFor();
    expect(await page.getByTestId('view-row').count()).toBe(6);
    expect(await page.getByTestId('dataset-item').count()).toBe(2);
    expect(await page.getByTestId('dataset-item').nth(1).getAttribute('aria-current')).toBe('true');
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('shows an alert naming a file that does not exist', async () => {
    ready();
    const missing = join(dirname(HW), 'does-not-exist.mat');
    await page.getByTestId('path-input').fill(missing);
    await page.getByTestId('open-path').click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.getAttribute('data-testid')).toBe('error-alert');
    expect(await alert.textContent()).toContain(missing);
    // The list and the selection are untouched.
    expect(await page.getByTestId('dataset-item').count()).toBe(2);
    expect(await page.getByTestId('info-file').textContent()).toBe('HW.mat');

    await page.getByRole('button', { name: 'Dismiss error' }).click();
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('logged no page errors (a CSP violation would show here)', () => {
    ready();
    expect(pageErrors).toEqual([]);
  });
});

/** Takes the README's screenshot; with MVSTUDIO_SCREENSHOTS=1 saves it, when it changed. */
async function saveScreenshot(): Promise<void> {
  await page.mouse.move(0, 0);
  await page.evaluate('document.activeElement?.blur()');
  const png = await page.screenshot({ animations: 'disabled', caret: 'hide' });
  expect(png.length).toBeGreaterThan(0);
  if (process.env['MVSTUDIO_SCREENSHOTS'] !== '1') return;
  const previous = existsSync(SCREENSHOT) ? await readFile(SCREENSHOT) : null;
  if (previous && previous.equals(png)) return;
  await mkdir(dirname(SCREENSHOT), { recursive: true });
  await writeFile(SCREENSHOT, png);
}
