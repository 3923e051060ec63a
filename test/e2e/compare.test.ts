/**
 * End to end, in Chromium against `startServer` with the real library, loaders and solver
 * worker: Compare groups runs by dataset, ranks only like runs, shows the parameters that tell
 * runs of one method apart, marks single-seed rows, keeps the method column in view, writes
 * them all to the CSV; and for an unlabelled dataset it asks for k and shows its failures.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from './browser';
import { startStudio, type Studio } from '../helpers/studio';

const MSRC = resolve(REPO, '../shared/datasets/MSRC-v1/MSRCV1.mat');
/** The method these tests run: fast, and with an enum parameter to vary. */
const METHOD = 'kmeans-concat';

let out: string;
let page: Page;
let studio: Studio | undefined;
let missing: Error | undefined;

/** Throws the set-up problem, so that each test fails with a message saying what to do. */
function ready(): void {
  if (missing) throw missing;
}

beforeAll(async () => {
  // Fail, never skip, when the build or the browser is missing.
  const started = await startStudio();
  if (started instanceof Error) {
    missing = started;
    return;
  }
  studio = started;
  ({ page, out } = started);
  await page.getByTestId('dataset-item').first().waitFor();
});

afterAll(async () => {
  await studio?.close();
});

async function openPath(path: string, name: string): Promise<void> {
  await page.getByTestId('tab-dataset').click();
  await page.getByTestId('path-input').fill(path);
  await page.getByTestId('open-path').click();
  await page.getByTestId('info-file').filter({ hasText: name }).waitFor();
}

/** Runs METHOD from the Run form with `normalize` set, and waits for it to finish. */
async function runOnce(normalize: string, protocol: 'single' | 'paper', seeds = 3): Promise<void> {
  await page.getByTestId('tab-run').click();
  await page.getByTestId('method-select').selectOption(METHOD);
  await page
    .locator('[data-testid="param-field"][data-param="normalize"] select')
    .selectOption(normalize);
  await page.getByTestId(`protocol-${protocol}`).check();
  if (protocol === 'paper') await page.getByTestId('seeds-input').fill(String(seeds));
  const before = await page.getByTestId('run-item').count();
  await page.getByTestId('start-run').click();
  await expect.poll(() => page.getByTestId('run-item').count()).toBe(before + 1);
  await page
    .getByTestId('run-item')
    .first()
    .and(page.locator('[data-status="done"]'))
    .waitFor({ timeout: 120_000 });
}

const group = (name: string): Locator =>
  page.getByTestId('compare-group').filter({
    has: page.getByTestId('compare-group-name').getByText(name, { exact: true }),
  });

describe('Compare in a browser, with the real worker', () => {
  it('groups runs by dataset, shows differing parameters and single-seed rows, writes them to the CSV', async () => {
    ready();
    await openPath(MSRC, 'MSRCV1.mat');
    await runOnce('none', 'single');
    await runOnce('zscore', 'paper', 3);
    await page.getByTestId('dataset-item').filter({ hasText: 'NGs_Per0.5.mat' }).click();
    await page.getByTestId('info-file').filter({ hasText: 'NGs_Per0.5.mat' }).waitFor();
    await runOnce('none', 'single');

    await page.getByTestId('tab-compare').click();
    await expect.poll(() => page.getByTestId('compare-group').count()).toBe(2);
    const msrc = group('MSRCV1.mat');
    expect(await msrc.getByTestId('compare-group-facts').textContent()).toMatch(
      /^210 samples · \d+ views · 7 classes$/,
    );
    expect(await msrc.getByTestId('compare-row').count()).toBe(2);
    expect(await group('NGs_Per0.5.mat').getByTestId('compare-row').count()).toBe(1);
    // The two MSRC runs differ in a parameter (and in protocol): it is shown, and they are
    // not ranked against each other.
    const params = await msrc.locator('[data-col="params"]').allTextContents();
    expect(params.map((t) => t.trim()).sort()).toEqual(['normalize = none', 'normalize = zscore']);
    expect(await msrc.getByTestId('compare-cohort').allTextContents()).toEqual([
      'Paper protocol, 3 seeds, k = 7: no like run to rank against',
      'Single run, 1 seed, k = 7: no like run to rank against',
    ]);
    expect(await msrc.locator('[data-col="rank"]').allTextContents()).toEqual(['–', '–']);
    // The single-seed row says so and shows its value alone, never "± 0.0000".
    const single = msrc.locator('[data-testid="compare-row"][data-single="true"]');
    expect((await single.locator('[data-col="seeds"]').textContent())?.trim()).toBe('1 seed');
    expect(await single.locator('[data-metric="ACC"]').textContent()).toMatch(/^0\.\d{4}$/);
    const paper = msrc.locator('[data-testid="compare-row"][data-single="false"]');
    expect(await paper.locator('[data-metric="ACC"]').textContent()).toMatch(
      /^0\.\d{4} ± 0\.\d{4}$/,
    );

    // The method column stays in view when the table scrolls sideways.
    await page.setViewportSize({ width: 760, height: 960 });
    const wrap = msrc.locator('.table-wrap');
    const box = await wrap.boundingBox();
    const scrolled = await wrap.evaluate((el) => {
      el.scrollLeft = 400;
      return el.scrollLeft;
    });
    expect(scrolled).toBeGreaterThan(0);
    const method = await msrc.locator('th[scope="row"]').first().boundingBox();
    expect(Math.abs(method!.x - box!.x)).toBeLessThan(2);
    await page.setViewportSize({ width: 1280, height: 960 });

    const file = join(out, 'exports', 'comparison.csv');
    await page.getByTestId('export-compare-path').fill(file);
    await page.getByTestId('export-compare').click();
    await page.getByTestId('compare-message').waitFor();
    const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    const head = lines[0]!.split(',');
    for (const col of [
      'dataset',
      'dataset_path',
      'method',
      'run',
      'normalize',
      'k',
      'protocol',
      'seeds',
      'seed_range',
      'ACC_mean',
      'ACC_std',
    ])
      expect(head, col).toContain(col);
    const rows = lines.slice(1).map((l) => {
      const cells = l.split(',');
      return Object.fromEntries(head.map((h, i) => [h, cells[i]]));
    });
    const msrcRows = rows.filter((r) => r['dataset'] === 'MSRCV1.mat');
    expect(msrcRows.map((r) => r['dataset_path'])).toEqual([MSRC, MSRC]);
    expect(
      msrcRows.map((r) => [r['normalize'], r['protocol'], r['seeds'], r['seed_range'], r['k']]),
    ).toEqual([
      ['zscore', 'paper', '3', '1..3', '7'],
      ['none', 'single', '1', '1', '7'],
    ]);
    expect(rows.filter((r) => r['dataset'] === 'NGs_Per0.5.mat')).toHaveLength(1);
  }, 300_000); // three runs through one worker on a shared 2-core machine

  it('asks for k on an unlabelled dataset and shows a failed comparison in the Compare tab', async () => {
    ready();
    // 40 samples, one view, two blobs, no labels.
    const rows = Array.from({ length: 40 }, (_, i) => {
      const c = i < 20 ? 0 : 10;
      return `${c + (i % 5) * 0.1},${c + (i % 3) * 0.2},${c + (i % 7) * 0.05}`;
    });
    const csv = join(out, 'blobs.csv');
    await writeFile(csv, rows.join('\n') + '\n');
    await openPath(csv, 'blobs.csv');
    await page.getByTestId('tab-compare').click();
    await page.locator(`[data-testid="compare-method"][value="${METHOD}"]`).check();
    await page.getByTestId('compare-seeds').fill('2');
    const k = page.getByTestId('compare-k');
    expect(await k.getAttribute('placeholder')).toBe('required');
    expect(await page.getByTestId('compare-k-error').textContent()).toContain('no labels');
    expect(await page.getByTestId('compare-run').isDisabled()).toBe(true);
    await k.fill('1');
    expect(await page.getByTestId('compare-k-error').textContent()).toContain(
      'k must be a whole number from 2 to 40',
    );
    expect(await page.getByTestId('compare-run').isDisabled()).toBe(true);

    // The file goes away after it was opened: the run fails, and Compare says why.
    await k.fill('2');
    await rm(csv);
    await page.getByTestId('compare-run').click();
    const failed = page.getByTestId('compare-failed-run');
    await failed.waitFor({ timeout: 120_000 });
    expect(await failed.textContent()).toContain('blobs.csv');

    // Back in place, the same batch runs with k = 2.
    await writeFile(csv, rows.join('\n') + '\n');
    await page.getByTestId('compare-run').click();
    const blobs = group('blobs.csv');
    await blobs.getByTestId('compare-row').waitFor({ timeout: 120_000 });
    expect(await page.getByTestId('compare-failed').count()).toBe(0);
    expect(await blobs.getByTestId('compare-group-facts').textContent()).toBe(
      '40 samples · 1 view · no labels',
    );
    expect((await blobs.locator('[data-col="k"]').textContent())?.trim()).toBe('2');
    expect(await blobs.getByTestId('compare-cohort').textContent()).toBe(
      'Paper protocol, 2 seeds, k = 2: no like run to rank against',
    );
    // The k typed for one dataset stays with it: the sample's field shows its class count.
    await page.getByTestId('dataset-item').filter({ hasText: 'NGs_Per0.5.mat' }).click();
    await page.getByTestId('info-file').filter({ hasText: 'NGs_Per0.5.mat' }).waitFor();
    await page.getByTestId('tab-compare').click();
    expect(await k.inputValue()).toBe('');
    expect(await k.getAttribute('placeholder')).toBe('5');
    expect(await page.getByTestId('compare-k-error').count()).toBe(0);
  }, 300_000);
});
