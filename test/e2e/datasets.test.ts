/**
 * Datasets end to end, in Debian's Chromium against `mvstudio serve`'s server with the real
 * library, loader and solver worker: a dataset of several CSV view files plus a labels file
 * opens with all its views and labels and a run on it finishes (issue 18, point 7); a mapping
 * override either takes effect or is refused with the reason (point 2); errors have human
 * titles, `~` is the home folder, a prose file gets a hint (point 11).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, REPO, setupProblem, WEB } from './browser';
import { DatasetLibrary } from '../../src/backend/library';
import { RunManager } from '../../src/backend/runs';
import { WorkerHost, forkWorker } from '../../src/backend/worker-host';
import { startServer } from '../../src/cli/serve';
import type { RunningServer } from '../../src/cli/serve';

const SAMPLE = join(REPO, 'resources', 'datasets', 'NGs_Per0.5.mat');

let server: RunningServer | undefined;
let host: WorkerHost | undefined;
let context: BrowserContext | undefined;
let profile: string | undefined;
let dir: string;
let home: string;
let page: Page;
let missing: Error | undefined;

function ready(): void {
  if (missing) throw missing;
}

/** 60 samples in 3 well-separated classes, in two CSV views (4 and 3 columns) and labels. */
async function writeDataset(folder: string): Promise<{ v1: string; v2: string; y: string }> {
  let state = 12345;
  const noise = (): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648 - 0.5;
  };
  const rows1: string[] = [];
  const rows2: string[] = ['a,b,c'];
  const labels: string[] = [];
  for (let i = 0; i < 60; i++) {
    const c = i % 3;
    rows1.push([0, 1, 2, 3].map((j) => (c * 10 + j + noise()).toFixed(3)).join(','));
    rows2.push([0, 1, 2].map((j) => (c * -8 + j + noise()).toFixed(3)).join(','));
    labels.push(['cat', 'dog', 'fox'][c]!);
  }
  const v1 = join(folder, 'view1.csv');
  const v2 = join(folder, 'view2.csv');
  const y = join(folder, 'labels.csv');
  await writeFile(v1, rows1.join('\n') + '\n');
  await writeFile(v2, rows2.join('\n') + '\n');
  await writeFile(y, labels.join('\n') + '\n');
  return { v1, v2, y };
}

let files: { v1: string; v2: string; y: string };

beforeAll(async () => {
  missing = setupProblem() ?? undefined;
  if (missing) return;
  dir = await mkdtemp(join(tmpdir(), 'mvstudio-e2e-datasets-'));
  home = join(dir, 'home');
  await mkdir(join(home, 'data'), { recursive: true });
  files = await writeDataset(dir);
  await writeFile(
    join(home, 'data', 'README.txt'),
    'How to use these files\n\nThe views come one per file, and the labels\nare in labels.csv, one per line.\n',
  );
  const library = new DatasetLibrary({ bundled: [SAMPLE] });
  host = new WorkerHost({
    spawn: () => forkWorker(join(REPO, 'src/worker/index.ts'), ['--import', 'tsx']),
  });
  const runs = new RunManager({ host, library, bundleRoot: join(dir, 'runs') });
  server = await startServer({ port: 0, library, staticDir: WEB, runs, home });
  profile = await mkdtemp(join(tmpdir(), 'mvstudio-e2e-profile-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: { width: 1280, height: 960 },
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  context.setDefaultTimeout(20_000);
  page = context.pages()[0] ?? (await context.newPage());
  await page.goto(server.launchUrl);
  await page.getByTestId('dataset-item').first().waitFor();
});

afterAll(async () => {
  await context?.close();
  host?.dispose();
  await server?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Opens a dataset from the sidebar's path fields: view files in order, and a labels file. */
async function openTyped(views: readonly string[], labelsFile?: string): Promise<void> {
  await page.getByTestId('path-input').fill(views[0]!);
  const more = page.getByTestId('open-more');
  if ((await more.getAttribute('open')) === null) await more.locator('summary').click();
  const extra = page.getByTestId('view-path-input');
  while ((await extra.count()) > views.length - 1) {
    await page
      .getByRole('button', { name: `Remove view file ${(await extra.count()) + 1}` })
      .click();
  }
  while ((await extra.count()) < views.length - 1) await page.getByTestId('add-view-path').click();
  for (let i = 1; i < views.length; i++) await extra.nth(i - 1).fill(views[i]!);
  await page.getByTestId('open-labels-input').fill(labelsFile ?? '');
  await page.getByTestId('open-path').click();
}

/** Dismisses the error alert, if one is shown. */
async function dismiss(): Promise<void> {
  const alert = page.getByTestId('error-alert');
  if ((await alert.count()) > 0) await alert.getByRole('button').click();
}

describe('datasets in the app', () => {
  it('opens two CSV view files and a labels file as one dataset, and runs on it', async () => {
    ready();
    await openTyped([files.v1, files.v2], files.y);
    await page.getByTestId('info-file').filter({ hasText: 'view1.csv' }).waitFor();
    await page.getByTestId('view-row').nth(1).waitFor();
    expect(await page.getByTestId('view-row').count()).toBe(2);
    expect(await page.getByTestId('labels-summary').textContent()).toContain('3 classes');
    expect(await page.getByTestId('mapping-view-file').allTextContents()).toEqual([
      expect.stringContaining('view1.csv'),
      expect.stringContaining('view2.csv'),
    ]);

    await page.getByTestId('tab-run').click();
    await page.getByTestId('method-select').selectOption('kmeans-concat');
    await page.getByTestId('protocol-single').check();
    await page.getByTestId('start-run').click();
    const run = page.getByTestId('run-item').first();
    await run.and(page.locator('[data-status="done"]')).waitFor({ timeout: 60_000 });
    await run.getByRole('button').first().click();
    await page.getByTestId('results').waitFor();
    // Three separated classes, both views used: k-means finds them.
    expect(await page.getByTestId('metrics-table').textContent()).toMatch(/ACC\s*1\.0000/);
    await page.getByTestId('tab-dataset').click();
  });

  it('applies an override of the view files and the labels file, and refuses one it cannot apply', async () => {
    ready();
    await openTyped([files.v1]);
    await page.getByTestId('mapping-view-file').first().waitFor();
    await page.getByTestId('labels-summary').filter({ hasText: 'No labels' }).waitFor();
    expect(await page.getByTestId('view-row').count()).toBe(1);

    // Applies: a second view file and the labels file, read again.
    await page.getByTestId('mapping-add-view-input').fill(files.v2);
    await page.getByTestId('mapping-add-view').click();
    await page.getByTestId('mapping-labels-file').fill(files.y);
    await page.getByTestId('mapping-submit').click();
    await page.getByTestId('view-row').nth(1).waitFor();
    expect(await page.getByTestId('view-row').count()).toBe(2);
    expect(await page.getByTestId('labels-summary').textContent()).toContain('3 classes');

    // Refused: samples as columns cannot apply to CSV views; nothing new is opened.
    const before = await page.getByTestId('dataset-item').count();
    await page.getByTestId('mapping-orientation').selectOption('d x n');
    await page.getByTestId('mapping-submit').click();
    const alert = page.getByTestId('error-alert');
    await alert.waitFor();
    expect(await page.getByTestId('error-title').textContent()).toBe('Cannot read this data');
    expect(await page.getByTestId('error-message').textContent()).toMatch(
      /the orientation \('orientation'\) cannot be applied: samples are the rows/,
    );
    expect(await page.getByTestId('dataset-item').count()).toBe(before);
    expect(await page.getByTestId('view-row').count()).toBe(2);
    await dismiss();
  });

  it('titles errors for people, expands ~ and hints that a prose file is not data', async () => {
    ready();
    await openTyped(['~/data/nope.mat']);
    await page.getByTestId('error-alert').waitFor();
    expect(await page.getByTestId('error-title').textContent()).toBe('File not found');
    expect(await page.getByTestId('error-message').textContent()).toBe(
      `~/data/nope.mat: no such file (looked for ${join(home, 'data', 'nope.mat')})`,
    );
    await dismiss();

    await openTyped(['~/data/README.txt']);
    await page.getByTestId('error-alert').waitFor();
    expect(await page.getByTestId('error-title').textContent()).toBe('Cannot read this data');
    expect(await page.getByTestId('error-message').textContent()).toMatch(
      /this file does not look like a data table: a view file holds numbers, one row per sample/,
    );
    await dismiss();
  });
});
