/**
 * End to end, in Chromium against `startServer` with the real library, worker and run manager:
 * the Results screen names the seed its charts and labels come from and shows another seed on
 * request (issue 18, point 4), states a k that differs from the class count (point 1), and a
 * cancelled run says it was cancelled and can be run again (point 6). Needs `npm run
 * build:web` first; fails (never skips) without it.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from './browser';
import { startStudio, type Studio } from '../helpers/studio';

const HW = resolve(REPO, '../shared/datasets/HW/HW.mat');

let out: string;
let page: Page;
let pageErrors: string[] = [];
let studio: Studio | undefined;
let missing: Error | undefined;

function ready(): void {
  if (missing) throw missing;
}

beforeAll(async () => {
  // Fail, never skip, when the build or the browser is missing.
  const started = await startStudio({ timeout: 30_000 });
  if (started instanceof Error) {
    missing = started;
    return;
  }
  studio = started;
  ({ page, out } = started);
  pageErrors = started.errors;
  await page.getByTestId('dataset-item').first().click();
  await page.getByTestId('info-file').filter({ hasText: 'NGs_Per0.5.mat' }).waitFor();
});

afterAll(async () => {
  await studio?.close();
});

/** The newest run item of the queue. */
const newestRun = (): Locator => page.getByTestId('run-item').first();

/** Fills the run form (method, protocol, first seed, seed count, k) and starts the run. */
async function startRun(o: {
  method: string;
  protocol: 'single' | 'paper';
  seed?: number;
  seeds?: number;
  k?: number;
}): Promise<Locator> {
  await page.getByTestId('tab-run').click();
  await page.getByTestId('method-select').selectOption(o.method);
  await page.getByTestId(`protocol-${o.protocol}`).check();
  if (o.seed !== undefined) await page.getByTestId('seed-input').fill(String(o.seed));
  if (o.seeds !== undefined) await page.getByTestId('seeds-input').fill(String(o.seeds));
  await page.getByTestId('k-input').fill(o.k === undefined ? '' : String(o.k));
  const before = await page.getByTestId('run-item').count();
  await page.getByTestId('start-run').click();
  await expect.poll(() => page.getByTestId('run-item').count()).toBe(before + 1);
  return newestRun();
}

/** Waits for a run to finish and opens its results. */
async function openResults(run: Locator): Promise<void> {
  await run.and(page.locator('[data-status="done"]')).waitFor({ timeout: 120_000 });
  await run.getByRole('button').first().click();
  await page.getByTestId('results').waitFor();
}

/** The cluster sizes the results state for the shown seed. */
async function clusterSizes(): Promise<number[]> {
  const text = (await page.getByTestId('cluster-sizes').textContent()) ?? '';
  return text
    .replace(/^.*:/, '')
    .replace(/\.\s*$/, '')
    .split(',')
    .map((s) => Number(s.trim()));
}

/** Samples per cluster of a labels CSV (`sample_id,cluster[,true_label]`, clusters 1-based). */
function csvSizes(csv: string, k: number): number[] {
  const sizes = new Array<number>(k).fill(0);
  for (const line of csv.trimEnd().split('\n').slice(1)) sizes[Number(line.split(',')[1]) - 1]!++;
  return sizes;
}

describe('the Results screen of a run, in a browser with the real worker', () => {
  it(
    'names the seed of the charts and labels; another seed shows its own clusters and labels',
    { timeout: 180_000 },
    async () => {
      ready();
      // IMVC-CBG solves once per seed (its anchors are random): each seed has its own charts.
      await openResults(
        await startRun({ method: 'imvc-cbg', protocol: 'paper', seed: 3, seeds: 4 }),
      );
      const named = page.getByTestId('chart-seed');
      expect(await named.textContent()).toContain(
        'Charts and labels: seed 3 (the first of 4 seeds)',
      );
      const picker = page.getByTestId('seed-picker');
      expect(
        await picker
          .locator('option')
          .evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value)),
      ).toEqual(['3', '4', '5', '6']);
      const first = await clusterSizes();
      expect(first.reduce((a, b) => a + b, 0)).toBe(500);

      // Every other seed: the named seed follows the picker, and its clusters are its own.
      const sizes = new Map<number, number[]>([[3, first]]);
      for (const seed of [4, 5, 6]) {
        await picker.selectOption(String(seed));
        await named.filter({ hasText: `seed ${seed} (no. ${seed - 2} of 4 seeds)` }).waitFor();
        await page
          .getByTestId('cluster-sizes')
          .filter({ hasText: `(seed ${seed})` })
          .waitFor();
        sizes.set(seed, await clusterSizes());
        expect(sizes.get(seed)!.reduce((a, b) => a + b, 0)).toBe(500);
      }
      const distinct = new Set([...sizes.values()].map((s) => s.join(',')));
      expect(distinct.size).toBeGreaterThan(1);

      // The labels CSV is the shown seed's: named so, and its clusters are the ones shown.
      await picker.selectOption('5');
      await named.filter({ hasText: 'seed 5 ' }).waitFor();
      expect(await page.getByText('Labels CSV (seed 5)').count()).toBe(1);
      const file = join(out, 'exports', 'labels-seed5.csv');
      await page.getByTestId('export-labels-path').fill(file);
      await page.getByTestId('export-labels').click();
      await page.getByTestId('export-message').filter({ hasText: '500 rows of seed 5' }).waitFor();
      expect(csvSizes(await readFile(file, 'utf8'), 5)).toEqual(sizes.get(5));
      // Seed 5's CSV differs from the first seed's whenever their cluster sizes do.
      if (sizes.get(5)!.join(',') !== first.join(',')) {
        expect(csvSizes(await readFile(file, 'utf8'), 5)).not.toEqual(first);
      }
    },
  );

  it('states a k that is not the number of classes', { timeout: 120_000 }, async () => {
    ready();
    await openResults(await startRun({ method: 'kmeans-concat', protocol: 'single', k: 4 }));
    expect(await page.getByTestId('k-classes').textContent()).toContain(
      'k = 4, the labels have 5 classes: the confusion matrix is 5 × 4',
    );
    expect(await page.getByTestId('chart-seed').textContent()).toContain('(single run)');
  });

  it(
    'says a cancelled run was cancelled, where, and runs it again on request',
    { timeout: 120_000 },
    async () => {
      ready();
      await page.getByTestId('tab-dataset').click();
      await page.getByTestId('path-input').fill(HW);
      await page.getByTestId('open-path').click();
      await page.getByTestId('info-file').filter({ hasText: 'HW.mat' }).waitFor();
      // 20 seeds of k-means on HW's concatenated views: minutes, so it is still running.
      const run = await startRun({
        method: 'kmeans-concat',
        protocol: 'paper',
        seed: 1,
        seeds: 20,
      });
      const cancelled = await run.getAttribute('data-run-id');
      await run.and(page.locator('[data-status="running"]')).waitFor();
      await run.getByTestId('cancel-run').click();
      await run.and(page.locator('[data-status="cancelled"]')).waitFor();
      await run.getByRole('button').first().click();
      const said = page.getByTestId('run-cancelled');
      await said.waitFor();
      const text = (await said.textContent()) ?? '';
      expect(text).toMatch(/This run was cancelled at .+, during seed \d+ of 20 \(/);
      expect(text).not.toContain('Results appear here');

      await page.getByTestId('run-again').click();
      await page.getByTestId('tab-run').click();
      await expect.poll(() => newestRun().getAttribute('data-run-id')).not.toBe(cancelled);
      const again = newestRun();
      expect(await again.textContent()).toContain('HW.mat');
      await again.and(page.locator('[data-status="running"]')).waitFor();
      await again.getByTestId('cancel-run').click();
      await again.and(page.locator('[data-status="cancelled"]')).waitFor();
    },
  );

  it('logged no page errors', () => {
    ready();
    expect(pageErrors).toEqual([]);
  });
});
