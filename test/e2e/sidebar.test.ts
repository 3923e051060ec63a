/**
 * The dataset screens end to end, in Debian's Chromium against `startServer` with the real
 * library and loader process: the sidebar never scrolls sideways and tells same-name datasets
 * apart; the incomplete dataset "Make views missing" made is saved as .mat and .npz and reads
 * back with the same presence.
 */
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, REPO, setupProblem, WEB } from './browser';
import { DatasetLibrary } from '../../src/backend/library';
import { startServer } from '../../src/cli/serve';
import type { RunningServer } from '../../src/cli/serve';

const HW = resolve(REPO, '../shared/datasets/HW/HW.mat');
const TWO_MOON = resolve(REPO, '../shared/datasets/Synthetic/TwoMoon.mat');
const LONG_NAME =
  'TwoMoon_with_a_file_name_far_longer_than_the_sidebar_is_wide_so_it_must_be_cut_short.mat';

let server: RunningServer | undefined;
let library: DatasetLibrary | undefined;
let context: BrowserContext | undefined;
let profile: string | undefined;
let out: string;
let page: Page;
const pageErrors: string[] = [];
/** Why the browser could not be set up; every test then fails with it (never skips). */
let missing: Error | undefined;

function ready(): void {
  if (missing) throw missing;
}

beforeAll(async () => {
  missing = setupProblem() ?? undefined;
  if (missing) return;
  out = await mkdtemp(join(tmpdir(), 'mvstudio-e2e-sidebar-'));
  library = new DatasetLibrary();
  server = await startServer({ port: 0, library, staticDir: WEB, dataDir: join(out, 'data') });
  profile = await mkdtemp(join(tmpdir(), 'mvstudio-e2e-profile-'));
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
  await page.goto(server.launchUrl);
});

afterAll(async () => {
  await context?.close();
  await server?.close();
  library?.dispose();
  if (profile) await rm(profile, { recursive: true, force: true });
  if (out) await rm(out, { recursive: true, force: true });
});

/** Opens `path` through the sidebar's path field, as a user of the web host does. */
async function openByPath(path: string): Promise<void> {
  const before = await page.getByTestId('dataset-item').count();
  await page.getByTestId('path-input').fill(path);
  await page.getByTestId('open-path').click();
  await page.getByTestId('dataset-item').nth(before).waitFor();
}

describe('the sidebar', () => {
  it('does not scroll sideways with a long-named dataset; the name is cut with a tooltip', async () => {
    ready();
    const folder = join(out, 'a-folder-with-a-rather-long-name-as-real-projects-have', 'moons');
    await mkdir(folder, { recursive: true });
    const long = join(folder, LONG_NAME);
    await copyFile(TWO_MOON, long);
    await openByPath(long);
    const item = page.getByTestId('dataset-item').filter({ hasText: 'TwoMoon_with' });
    await item.waitFor();
    const widths = await page.locator('aside').evaluate((aside) => ({
      scroll: aside.scrollWidth,
      client: aside.clientWidth,
    }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    // The name is ellipsised inside the item, and its full text is the tooltip.
    const name = item.locator('.name');
    expect(await name.getAttribute('title')).toBe(LONG_NAME);
    const cut = await name.evaluate((el) => el.scrollWidth > el.clientWidth);
    expect(cut).toBe(true);
    // The close button stays inside the sidebar.
    const box = await page
      .getByRole('button', { name: `Close ${LONG_NAME}` })
      .evaluate((b) => b.getBoundingClientRect().right);
    const aside = await page.locator('aside').evaluate((a) => a.getBoundingClientRect().right);
    expect(box).toBeLessThanOrEqual(aside);
    expect(await item.textContent()).toContain('200 samples · 2 views');
  });

  it('gives three HW.mat entries three different subtitles', async () => {
    ready();
    await openByPath(HW);
    // The same file read again with an override (as the mapping form's "Read again" does).
    await library!.open(HW, { orientation: 'd x n' });
    await page.reload();
    const hw = page.getByTestId('dataset-item').filter({ hasText: 'HW.mat' });
    await hw.nth(1).waitFor();
    await hw.first().click();
    await page.getByTestId('missing-percent').fill('30');
    await page.getByTestId('missing-seed').fill('1');
    await page.getByTestId('missing-generate').click();
    await page.getByTestId('missing-made').waitFor();
    await hw.nth(2).waitFor();
    expect(await hw.count()).toBe(3);
    const subtitles = await hw.locator('[data-testid="dataset-variant"]').allTextContents();
    expect(subtitles).toHaveLength(3);
    expect(new Set(subtitles.map((s) => s.trim())).size).toBe(3);
    expect(subtitles).toContain('views made missing: 30 % complete, seed 1');
    for (const s of subtitles) expect(s.trim()).not.toBe('');
    // Each is visible (not hidden, not zero-sized).
    for (let i = 0; i < 3; i++) {
      expect(await hw.nth(i).locator('[data-testid="dataset-variant"]').isVisible()).toBe(true);
    }
  });

  it('tells two files of the same name in different folders apart by their folder', async () => {
    ready();
    for (const f of ['first', 'second']) {
      await mkdir(join(out, f), { recursive: true });
      await copyFile(TWO_MOON, join(out, f, 'TwoMoon.mat'));
      await openByPath(join(out, f, 'TwoMoon.mat'));
    }
    const moons = page.getByTestId('dataset-item').filter({ hasText: /^TwoMoon\.mat/ });
    const subtitles = await moons.locator('[data-testid="dataset-variant"]').allTextContents();
    expect(subtitles.map((s) => s.trim()).sort()).toEqual(['in first/', 'in second/']);
  });
});

describe('saving the incomplete dataset', () => {
  it('saves the HW "Make views missing" made as .mat and .npz, which reopen with the same presence', async () => {
    ready();
    // The previous test left the generated HW (30 % complete, seed 1) selected.
    const made = library!.list().find((e) => e.options.mask !== undefined && e.path === HW);
    expect(made).toBeDefined();
    await page
      .getByTestId('dataset-item')
      .filter({ hasText: 'views made missing: 30 % complete, seed 1' })
      .click();
    for (const name of ['HW-missing.mat', 'HW-missing.npz']) {
      const path = join(out, name);
      await page.getByTestId('dataset-save-path').fill(path);
      await page.getByTestId('dataset-save-button').click();
      await page.getByTestId('dataset-saved').filter({ hasText: path }).waitFor();
      const back = await library!.open(path);
      expect(back.summary.missingness).toBe('nan-columns');
      expect(back.summary.samplesByViewCount).toEqual(made!.summary.samplesByViewCount);
      expect(library!.presence(back.id).bits).toEqual(library!.presence(made!.id).bits);
      expect(back.summary.labels?.sizes).toEqual(made!.summary.labels?.sizes);
    }
    // A name without .mat or .npz cannot be saved.
    await page.getByTestId('dataset-save-path').fill(join(out, 'HW-missing.csv'));
    expect(await page.getByTestId('dataset-save-button').isDisabled()).toBe(true);
  });
});

describe('page errors', () => {
  it('logged none', () => {
    ready();
    expect(pageErrors).toEqual([]);
  });
});
