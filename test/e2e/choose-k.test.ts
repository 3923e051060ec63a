/**
 * Choose k end to end (issue 18, point 8): in Debian's Chromium against `startServer` with the
 * real library, job manager and solver worker (src/worker/index.ts forked through tsx), an
 * unlabelled dataset (four well separated blobs, written as a CSV to a temp folder) gets the
 * silhouette/objective and eigengap charts drawn with a suggestion, "Use k" fills the Run
 * form's k field, and a running sweep can be cancelled.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStudio, type Studio } from '../helpers/studio';
import { DatasetLibrary } from '../../src/backend/library';
import { createRng } from '../../src/core/random';

let blobs: string;
let page: Page;
let pageErrors: string[] = [];
/** Why the browser could not be set up; every test then fails with it (never skips). */
let studio: Studio | undefined;
let missing: Error | undefined;

function ready(): void {
  if (missing) throw missing;
}

/** 4 blobs of 15 samples in 3-D, centres 10 apart, jitter ±0.5; no labels column. */
function blobsCsv(): string {
  const rng = createRng(5);
  const centres = [
    [0, 0, 0],
    [10, 0, 0],
    [0, 10, 0],
    [0, 0, 10],
  ];
  const rows: string[] = [];
  for (let i = 0; i < 60; i++) {
    rows.push(centres[i % 4]!.map((c) => (c + rng.next() - 0.5).toFixed(4)).join(','));
  }
  return rows.join('\n') + '\n';
}

beforeAll(async () => {
  const started = await startStudio({ library: new DatasetLibrary({ bundled: [] }) });
  if (started instanceof Error) {
    missing = started;
    return;
  }
  studio = started;
  page = started.page;
  pageErrors = started.errors;
  // Tall enough for the form, the sweep's two charts and its table at once.
  await page.setViewportSize({ width: 1280, height: 1400 });
  blobs = join(started.out, 'blobs.csv');
  await writeFile(blobs, blobsCsv());
});

afterAll(async () => {
  await studio?.close();
});

/** The little of a canvas this file uses (it is typed for Node: no DOM lib). */
interface CanvasLike {
  width: number;
  height: number;
  getContext(type: '2d'): {
    getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> };
  };
}

/** Painted (non-transparent) pixels of a canvas. */
function painted(canvas: Locator): Promise<number> {
  return canvas.evaluate((el) => {
    const c = el as unknown as CanvasLike;
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let count = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) count++;
    return count;
  });
}

describe('choose k in the Run form', () => {
  it('on an unlabelled dataset draws the curves, suggests k = 4, and "Use k" fills k', async () => {
    ready();
    await page.getByTestId('path-input').fill(blobs);
    await page.getByTestId('open-path').click();
    await page.getByTestId('info-file').filter({ hasText: 'blobs.csv' }).waitFor();
    expect(await page.getByTestId('labels-summary').textContent()).toMatch(/no labels|none/i);

    await page.getByTestId('tab-run').click();
    await page.getByTestId('method-select').selectOption('kmeans-concat');
    expect(await page.getByTestId('k-input').inputValue()).toBe('');
    const panel = page.getByTestId('choose-k');
    await panel.locator('summary').first().click();
    await page.getByTestId('choose-k-from').fill('2');
    await page.getByTestId('choose-k-to').fill('7');
    await page.getByTestId('choose-k-run').click();

    const suggestion = page.getByTestId('choose-k-suggestion');
    await suggestion.waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('choose-k-silhouette-k').textContent()).toBe('k = 4');
    expect(await page.getByTestId('choose-k-eigengap-k').textContent()).toBe('k = 4');
    for (const id of ['choose-k-silhouette-chart', 'choose-k-eigengap-chart']) {
      const canvas = page.getByTestId(id);
      await canvas.waitFor();
      expect(await painted(canvas)).toBeGreaterThan(500);
    }
    // The table holds one row per k with a silhouette for each.
    const rows = page.getByTestId('choose-k-table').locator('tbody tr');
    expect(await rows.count()).toBe(6);
    const silhouettes = await rows.locator('td:nth-child(3)').allTextContents();
    expect(silhouettes.every((s) => Number.isFinite(Number(s)))).toBe(true);
    expect(Math.max(...silhouettes.map(Number))).toBe(Number(silhouettes[2]));

    await page.getByTestId('choose-k-use-silhouette').click();
    expect(await page.getByTestId('k-input').inputValue()).toBe('4');
    expect(pageErrors).toEqual([]);
  });

  it('a running sweep is cancelled from its Cancel button', async () => {
    ready();
    // IMVC-CBG over a wide range: one extra solve for its graph, then 40 more.
    await page.getByTestId('method-select').selectOption('imvc-cbg');
    await page.getByTestId('choose-k-from').fill('2');
    await page.getByTestId('choose-k-to').fill('41');
    await page.getByTestId('choose-k-run').click();
    await page.getByTestId('choose-k-cancel').click();
    await page.getByTestId('choose-k').getByText('Cancelled.').waitFor();
    expect(await page.getByTestId('choose-k-run').isEnabled()).toBe(true);
    expect(pageErrors).toEqual([]);
  });
});
