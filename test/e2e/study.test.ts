/**
 * End to end, in Chromium against `startServer` with the real library, loaders and solver
 * worker: the Study screen builds a 2 × 2 grid study of IMVC-CBG (lambda × anchors in units of
 * k) with 2 seeds on 3Sources, runs it with progress to its table (best bold, second
 * underlined, the selection named) and heatmap (four cells drawn); a second, longer study is
 * cancelled; the spec saved from the screen is what `mvstudio study run` accepts unchanged (it
 * finds the app's folder complete), a spec written for the CLI loads into the screen, and the
 * folder reopens from disk. The screen with its results passes an axe-core scan in both themes.
 *
 * With MVSTUDIO_SCREENSHOTS=1, writes docs/screenshots/study.png (the README's) when it changed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { validateStudySpec } from '../../src/core/study/spec';
import { REPO } from './browser';
import { scan } from '../helpers/axe';
import { useStudio } from '../helpers/studio';

const SOURCES = resolve(REPO, '../shared/datasets/3Sources/3sources.mat');
const SHOTS = join(REPO, 'docs', 'screenshots');
const BIN = join(REPO, 'bin', 'mvstudio.mjs');

// bypassCSP lets the axe-core scan be injected.
const studio = useStudio({ bypassCSP: true });
const page = (): Page => studio().page;

/**
 * Takes the README's screenshot of the results (the run's progress above them); with
 * MVSTUDIO_SCREENSHOTS=1 saves it, when it changed.
 */
async function shot(p: Page, name: string): Promise<void> {
  await p.mouse.move(0, 0);
  await p.evaluate('document.activeElement?.blur()');
  await p.setViewportSize({ width: 1280, height: 1000 });
  await p.waitForTimeout(300);
  await p.evaluate(
    "document.querySelector('[data-testid=\"study-report\"]')?.scrollIntoView({ block: 'start' })",
  );
  await p.waitForTimeout(100);
  const png = await p.screenshot({
    animations: 'disabled',
    caret: 'hide',
    // The temporary folder's name changes every run: hidden, so the picture changes only with the screen.
    style:
      '[data-testid="study-dir"], [data-testid="study-folder"] { color: transparent !important; }',
  });
  await p.setViewportSize({ width: 1280, height: 960 });
  expect(png.length).toBeGreaterThan(0);
  if (process.env['MVSTUDIO_SCREENSHOTS'] !== '1') return;
  const file = join(SHOTS, name);
  const previous = existsSync(file) ? await readFile(file) : null;
  if (previous && previous.equals(png)) return;
  await mkdir(SHOTS, { recursive: true });
  await writeFile(file, png);
}

/** Sets a text field that applies on change (seeds, replicates). */
async function setField(p: Page, testid: string, value: string): Promise<void> {
  await p.getByTestId(testid).fill(value);
  await p.getByTestId(testid).press('Tab');
}

describe('the Study screen, with the real worker', () => {
  it('builds a 2 × 2 grid study, runs it with progress, shows the table and the heatmap', async () => {
    const p = page();
    const out = studio().out;
    await p.getByTestId('path-input').fill(SOURCES);
    await p.getByTestId('open-path').click();
    await p.getByTestId('info-file').filter({ hasText: '3sources.mat' }).waitFor();

    await p.getByTestId('tab-study').click();
    await p.getByTestId('study-screen').waitFor();
    expect(await p.getByTestId('study-blocked').textContent()).toBe('Add a method to run.');
    await p.getByTestId('study-name').fill('grid');
    await p.locator('[data-testid="study-dataset"][data-name="3sources.mat"]').check();
    await p.getByTestId('study-add-method').selectOption('imvc-cbg');
    await p.getByTestId('study-add-method-button').click();
    const grid = (name: string) =>
      p.locator(`[data-testid="study-grid-input"][data-param="${name}"]`);
    await grid('lambda').fill('0.1, 1');
    await grid('anchors').fill('k, 2x');
    expect(await p.getByTestId('study-blocked').textContent()).toContain(
      "anchors: '2x' is not a whole number or k, 2k",
    );
    await grid('anchors').fill('k, 2k');
    await setField(p, 'study-seeds', '2');
    await setField(p, 'study-replicates', '5');
    expect(await p.getByTestId('study-cells').textContent()).toBe('4 cells × 2 seeds');

    const dir = join(out, 'study-grid');
    await p.getByTestId('study-folder').fill(dir);
    await p.getByTestId('study-start').click();
    // Progress: cells done of all cells while it runs, then done.
    await p.locator('[data-testid="study-status"][data-status="running"]').waitFor();
    expect(await p.getByTestId('study-progress-text').textContent()).toMatch(
      /grid: running · [0-3] of 4 cells/,
    );
    await p
      .locator('[data-testid="study-status"][data-status="done"]')
      .waitFor({ timeout: 120_000 });
    expect(await p.getByTestId('study-progress-text').textContent()).toContain(
      '4 of 4 cells (100 %)',
    );
    expect(await p.getByTestId('study-progress').getAttribute('value')).toBe('4');

    // The table: the selection used is named, one row; the heatmap: 2 × 2 cells drawn.
    await p.getByTestId('study-report').waitFor();
    expect(await p.getByTestId('study-selection-used').textContent()).toContain(
      'Selection used: oracle',
    );
    const table = p.getByTestId('study-table');
    expect(await table.locator('tbody tr').count()).toBe(1);
    expect(await table.locator('tbody strong').count()).toBeGreaterThan(0);
    const chart = p.getByTestId('study-chart');
    expect(await chart.count()).toBe(1);
    expect(await chart.locator('svg rect.cell').count()).toBe(4);
    const filled = await chart
      .locator('svg rect.cell')
      .evaluateAll((els) => els.map((e) => e.getAttribute('fill')));
    expect(new Set(filled).size).toBeGreaterThan(1);
    const box = await chart.locator('svg').boundingBox();
    expect(box!.width).toBeGreaterThan(100);
    expect(box!.height).toBeGreaterThan(50);
    await p.getByTestId('study-rule-label-free').check();
    await expect
      .poll(() => p.getByTestId('study-selection-used').textContent())
      .toContain('Selection used: label-free');
    await p.getByTestId('study-rule-oracle').check();
    await expect
      .poll(() => p.getByTestId('study-selection-used').textContent())
      .toContain('Selection used: oracle');
    await shot(p, 'study.png');
    // The screen with its results has no serious accessibility violation, in either theme.
    const found: Record<string, string[]> = {};
    for (const scheme of ['light', 'dark'] as const) {
      await p.emulateMedia({ colorScheme: scheme });
      await p.waitForTimeout(300);
      const hits = await scan(p);
      if (hits.length > 0) found[scheme] = hits;
    }
    await p.emulateMedia({ colorScheme: 'light' });
    expect(found).toEqual({});

    // The spec saved from the screen is the one the study ran: `study run` on the same folder
    // accepts it unchanged and finds nothing left to run.
    const specPath = join(out, 'grid.json');
    await p.getByTestId('study-save-spec-path').fill(specPath);
    await p.getByTestId('study-save-spec').click();
    await p.getByTestId('study-spec-message').filter({ hasText: 'Saved the spec' }).waitFor();
    const saved = JSON.parse(await readFile(specPath, 'utf8')) as unknown;
    expect(validateStudySpec(saved).seeds).toEqual([1, 2]);
    const records = (): Promise<string[]> =>
      Promise.all(
        ['c0001', 'c0002', 'c0003', 'c0004'].map((c) =>
          readFile(join(dir, 'cells', c, 'cell.json'), 'utf8'),
        ),
      );
    const before = await records();
    const cli = spawnSync(process.execPath, [BIN, 'study', 'run', specPath, '--out', dir], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(cli.status, cli.stderr).toBe(0);
    expect(cli.stdout).toContain('grid: 4 cells (0 failed)');
    // No cell ran again: every record is the one the app's worker wrote.
    expect(await records()).toEqual(before);
  }, 240_000);

  it('cancels a longer study: it stops with its finished cells kept', async () => {
    const p = page();
    await setField(p, 'study-seeds', '20');
    await setField(p, 'study-replicates', '20');
    await p.getByTestId('study-name').fill('longer');
    const dir = join(studio().out, 'study-longer');
    await p.getByTestId('study-folder').fill(dir);
    await p.getByTestId('study-start').click();
    await p.locator('[data-testid="study-status"][data-status="running"]').waitFor();
    await p.getByTestId('study-cancel').click();
    await p
      .locator('[data-testid="study-status"][data-status="cancelled"]')
      .waitFor({ timeout: 10_000 });
    const text = (await p.getByTestId('study-progress-text').textContent()) ?? '';
    const done = Number(/(\d+) of 4 cells/.exec(text)?.[1]);
    expect(done).toBeLessThan(4);
    const records = await readdir(join(dir, 'cells')).catch(() => [] as string[]);
    expect(records.length).toBeLessThanOrEqual(4);
  }, 120_000);

  it('loads a spec written for the CLI, and reopens a study folder from disk', async () => {
    const p = page();
    const spec = {
      name: 'from-cli',
      methods: [{ method: 'kmeans-concat', label: 'Concat' }],
      datasets: [{ file: SOURCES, label: 'S3' }],
      grid: { Concat: { normalize: ['none', 'zscore'] } },
      seeds: 3,
    };
    const file = join(studio().out, 'cli.json');
    await writeFile(file, JSON.stringify(spec));
    await p.getByTestId('study-load-spec').setInputFiles(file);
    await p.getByTestId('study-spec-message').filter({ hasText: 'Loaded cli.json' }).waitFor();
    expect(await p.getByTestId('study-name').inputValue()).toBe('from-cli');
    expect(await p.getByTestId('study-cells').textContent()).toBe('2 cells × 3 seeds');
    expect(
      await p.locator('[data-testid="study-grid-input"][data-param="normalize"]').inputValue(),
    ).toBe('none, zscore');

    await p.getByTestId('study-open-path').fill(join(studio().out, 'study-grid'));
    await p.getByTestId('study-open').click();
    await p
      .getByTestId('study-progress-text')
      .filter({ hasText: 'grid: done · 4 of 4 cells' })
      .waitFor();
    await p.getByTestId('study-chart').locator('svg rect.cell').first().waitFor();
    expect(await p.getByTestId('study-chart').locator('svg rect.cell').count()).toBe(4);
  }, 60_000);

  it('logged no page errors', () => {
    expect(studio().errors).toEqual([]);
  });
});
