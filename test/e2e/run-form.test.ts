/**
 * The run form end to end, in Debian's Chromium against `mvstudio serve`'s server with the real
 * library, job manager and solver worker: k follows the dataset (issue 18 point 1), a dataset
 * without labels cannot be queued without k (point 8), the elapsed clock moves during a run
 * (point 5), and a queue item shows the dataset's name whole (point 9).
 */
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from './browser';
import { startStudio, type Studio } from '../helpers/studio';
import { DatasetLibrary } from '../../src/backend/library';
import type { RunManager } from '../../src/backend/runs';

const HW = resolve(REPO, '../shared/datasets/HW/HW.mat');
const MSRC = resolve(REPO, '../shared/datasets/MSRC-v1/MSRCV1.mat');

let manager: RunManager | undefined;
let out: string;
let page: Page;
let pageErrors: string[] = [];
/** Why the browser could not be set up; every test then fails with it (never skips). */
let studio: Studio | undefined;
let missing: Error | undefined;

function ready(): void {
  if (missing) throw missing;
}

beforeAll(async () => {
  // Updates every 20 ms: a run's updates then come faster than the renderer's clock ticks.
  const started = await startStudio({
    library: new DatasetLibrary({ bundled: [] }),
    progressIntervalMs: 20,
  });
  if (started instanceof Error) {
    missing = started;
    return;
  }
  studio = started;
  ({ page, out, runs: manager } = started);
  pageErrors = started.errors;
});

afterAll(async () => {
  await studio?.close();
});

/** Opens a dataset by its path and waits for its summary. */
async function open(path: string, name: string): Promise<void> {
  await page.getByTestId('tab-dataset').click();
  await page.getByTestId('path-input').fill(path);
  await page.getByTestId('open-path').click();
  await page.getByTestId('info-file').filter({ hasText: name }).waitFor();
}

/** Selects the sidebar's dataset named `name`, then the Run tab. */
async function selectDataset(name: string): Promise<void> {
  await page.getByTestId('dataset-item').filter({ hasText: name }).first().click();
  await page.getByTestId('info-file').filter({ hasText: name }).waitFor();
  await page.getByTestId('tab-run').click();
}

/** Seconds of an elapsed time as the queue prints it ('850 ms', '2.35 s', '1 min 3 s'). */
function seconds(text: string | null): number {
  const t = text ?? '';
  const m = /^(?:(\d+) min )?([\d.]+) (ms|s)$/.exec(t);
  if (!m) throw new Error(`not an elapsed time: '${t}'`);
  return Number(m[1] ?? 0) * 60 + Number(m[2]) / (m[3] === 'ms' ? 1000 : 1);
}

const kField = () => page.getByTestId('k-input');

describe('the run form, with the real worker', () => {
  it('keeps k, seed and seeds per dataset; a new dataset starts at its class count', async () => {
    ready();
    await open(HW, 'HW.mat');
    await open(MSRC, 'MSRCV1.mat');
    await selectDataset('HW.mat');
    expect(await kField().inputValue()).toBe('10');
    await kField().fill('12');
    await page.getByTestId('seed-input').fill('7');
    expect(await page.getByTestId('k-note').textContent()).toContain(
      'k = 12 differs from the 10 classes',
    );

    await selectDataset('MSRCV1.mat');
    expect(await kField().inputValue()).toBe('7');
    expect(await page.getByTestId('seed-input').inputValue()).toBe('1');
    expect(await page.getByTestId('k-note').count()).toBe(0);

    await selectDataset('HW.mat');
    expect(await kField().inputValue()).toBe('12');
    expect(await page.getByTestId('seed-input').inputValue()).toBe('7');
  });

  it('runs with the selected dataset’s k, and the queue names the dataset whole', async () => {
    ready();
    await selectDataset('MSRCV1.mat');
    await page.getByTestId('protocol-single').check();
    // Before any run the time is a guess, and says so.
    const time = page.getByTestId('time-estimate');
    await time.filter({ hasText: 'no run has finished here yet' }).waitFor();
    expect(await time.textContent()).toMatch(/Time: about [\d.]+.* (ms|s|min)/);
    await page.getByTestId('start-run').click();
    const item = page.getByTestId('run-item').first();
    await item.and(page.locator('[data-status="done"]')).waitFor({ timeout: 60_000 });
    await item.getByRole('button').first().click();
    await page.getByTestId('results').waitFor();
    // The run went ahead with MSRC-v1's own k (its 7 classes), not the 12 typed for HW.
    expect(manager!.list().at(-1)?.k).toBe(7);
    await page.getByTestId('tab-run').click();
    // The finished run calibrated the speed the next estimate uses.
    await time
      .filter({ hasText: 'measured on 1 finished run of this method on this dataset' })
      .waitFor();
    const dataset = item.getByTestId('run-dataset');
    expect(await dataset.textContent()).toBe('MSRCV1.mat');
    // Not cut: the name's box is as wide as its text, and inside the item.
    const fits = await dataset.evaluate((el) => {
      const e = el as unknown as {
        scrollWidth: number;
        clientWidth: number;
        getBoundingClientRect(): { right: number };
        closest(s: string): { getBoundingClientRect(): { right: number } } | null;
      };
      const item = e.closest('li')!.getBoundingClientRect();
      return e.getBoundingClientRect().right <= item.right + 0.5;
    });
    expect(fits).toBe(true);
  }, 90_000);

  it('refuses to queue a dataset without labels until k is given', async () => {
    ready();
    // 40 samples × 3 features in two blobs, no labels.
    const rows: string[] = [];
    for (let i = 0; i < 40; i++) {
      const c = i < 20 ? 0 : 5;
      rows.push([c + (i % 5) * 0.1, c + (i % 3) * 0.1, c + (i % 7) * 0.05].join(','));
    }
    const file = join(out, 'unlabelled-points.csv');
    await writeFile(file, rows.join('\n') + '\n');
    await open(file, 'unlabelled-points.csv');
    expect(await page.getByTestId('labels-summary').count()).toBeLessThanOrEqual(1);
    await page.getByTestId('tab-run').click();
    expect(await kField().inputValue()).toBe('');
    expect(await kField().getAttribute('placeholder')).toBe('required');
    const error = page.locator('[data-testid="form-error"][data-field="k"]');
    expect(await error.textContent()).toContain('k is required: this dataset has no labels');
    expect(await page.getByTestId('start-run').isDisabled()).toBe(true);
    const before = await page.getByTestId('run-item').count();
    // Ctrl+Enter does not queue it either.
    await kField().focus();
    await page.keyboard.press('Control+Enter');
    await page.waitForTimeout(300);
    expect(await page.getByTestId('run-item').count()).toBe(before);

    await kField().fill('2');
    expect(await error.count()).toBe(0);
    expect(await page.getByTestId('start-run').isDisabled()).toBe(false);
    await page.getByTestId('start-run').click();
    const item = page.getByTestId('run-item').first();
    await item.and(page.locator('[data-status="done"]')).waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('run-item').count()).toBe(before + 1);
  }, 90_000);

  it('moves the elapsed clock while a run is going on', async () => {
    ready();
    await selectDataset('HW.mat');
    await kField().fill('10');
    await page.getByTestId('protocol-paper').check();
    await page.getByTestId('seeds-input').fill('20');
    await page.getByTestId('start-run').click();
    const item = page.getByTestId('run-item').first();
    await item.and(page.locator('[data-status="running"]')).waitFor({ timeout: 30_000 });
    // k-means steps come fastest (an update every 20 ms): where the clock used to stand still.
    await item.getByTestId('run-step').filter({ hasText: 'kmeans' }).waitFor({ timeout: 30_000 });
    const elapsed = item.getByTestId('run-elapsed');
    const readings: string[] = [];
    for (let i = 0; i < 4; i++) {
      if (i > 0) await page.waitForTimeout(1100);
      readings.push((await elapsed.textContent()) ?? '');
    }
    expect(await item.getAttribute('data-status'), 'the run must still be going on').toBe(
      'running',
    );
    // Each reading later than the one before (1.1 s apart).
    for (let i = 1; i < readings.length; i++) {
      expect(seconds(readings[i]!), readings.join(' → ')).toBeGreaterThan(
        seconds(readings[i - 1]!),
      );
    }
    await item.getByTestId('cancel-run').click();
    await item.and(page.locator('[data-status="cancelled"]')).waitFor();
  }, 60_000);

  it('logged no page errors', () => {
    ready();
    expect(pageErrors).toEqual([]);
  });
});
