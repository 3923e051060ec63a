/**
 * The analyst's path end to end, in Debian's Chromium against `mvstudio serve`'s server with
 * the real library, job manager and solver worker (src/worker/index.ts forked through tsx):
 * open a dataset and see its presence chart; run a method and watch its progress, then its
 * result's charts; keep the page responsive during a long run and cancel it within a second;
 * compare methods × seeds; export labels and the comparison as CSV.
 *
 * With MVSTUDIO_SCREENSHOTS=1, writes docs/screenshots/{dataset,run,results,results-dark,compare}.png
 * (when they changed); otherwise the screenshots are taken but not saved, so a test run leaves
 * the checkout clean.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, REPO, setupProblem, WEB } from './browser';
import { DatasetLibrary } from '../../src/backend/library';
import { RunManager } from '../../src/backend/runs';
import { WorkerHost, forkWorker } from '../../src/backend/worker-host';
import { startServer } from '../../src/cli/serve';
import type { RunningServer } from '../../src/cli/serve';

const SAMPLE = join(REPO, 'resources', 'datasets', 'NGs_Per0.5.mat');
const HW = resolve(REPO, '../shared/datasets/HW/HW.mat');
const MSRC = resolve(REPO, '../shared/datasets/MSRC-v1/MSRCV1.mat');
const SHOTS = join(REPO, 'docs', 'screenshots');

let server: RunningServer | undefined;
let host: WorkerHost | undefined;
let context: BrowserContext | undefined;
let profile: string | undefined;
let out: string;
let page: Page;
const pageErrors: string[] = [];
let missing: Error | undefined;

function ready(): void {
  if (missing) throw missing;
}

beforeAll(async () => {
  missing = setupProblem() ?? undefined;
  if (missing) return;
  out = await mkdtemp(join(tmpdir(), 'mvstudio-e2e-out-'));
  // The host writes into folders that exist; it makes none on its own.
  await mkdir(join(out, 'exports'));
  const library = new DatasetLibrary({ bundled: [SAMPLE] });
  host = new WorkerHost({
    spawn: () => forkWorker(join(REPO, 'src/worker/index.ts'), ['--import', 'tsx']),
  });
  const runs = new RunManager({ host, library, bundleRoot: join(out, 'runs') });
  server = await startServer({
    port: 0,
    library,
    staticDir: WEB,
    runs,
    dataDir: join(out, 'data'),
  });
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
  await page.getByTestId('dataset-item').first().waitFor();
});

afterAll(async () => {
  await context?.close();
  host?.dispose();
  await server?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
  if (out) await rm(out, { recursive: true, force: true });
});

/** Painted (non-transparent) pixels of a canvas. */
/** The little of a canvas this file uses (it is typed for Node: no DOM lib). */
interface CanvasLike {
  width: number;
  height: number;
  getContext(type: '2d'): {
    getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> };
  };
}

function painted(canvas: Locator): Promise<number> {
  return canvas.evaluate((el) => {
    const c = el as unknown as CanvasLike;
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let count = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) count++;
    return count;
  });
}

/**
 * Takes a screenshot and, with MVSTUDIO_SCREENSHOTS=1, saves it (when it changed); `height`
 * makes the window taller for long screens.
 */
async function shot(name: string, height = 960): Promise<void> {
  await page.mouse.move(0, 0);
  await page.evaluate('document.activeElement?.blur()');
  await page.evaluate("document.querySelector('main')?.scrollTo(0, 0)");
  if (height !== 960) {
    await page.setViewportSize({ width: 1280, height });
    await page.waitForTimeout(300);
  }
  const png = await page.screenshot({ animations: 'disabled', caret: 'hide' });
  if (height !== 960) await page.setViewportSize({ width: 1280, height: 960 });
  expect(png.length).toBeGreaterThan(0);
  if (process.env['MVSTUDIO_SCREENSHOTS'] !== '1') return;
  const file = join(SHOTS, name);
  const previous = existsSync(file) ? await readFile(file) : null;
  if (previous && previous.equals(png)) return;
  await mkdir(SHOTS, { recursive: true });
  await writeFile(file, png);
}

/** Selects a method and protocol in the run form. */
async function fillForm(
  method: string,
  protocol: 'single' | 'paper',
  seeds?: number,
): Promise<void> {
  await page.getByTestId('tab-run').click();
  await page.getByTestId('method-select').selectOption(method);
  await page.getByTestId(`protocol-${protocol}`).check();
  if (seeds !== undefined) await page.getByTestId('seeds-input').fill(String(seeds));
}

/** The newest run item of the queue. */
const newestRun = (): Locator => page.getByTestId('run-item').first();

describe('Multiview Studio in a browser, with the real worker', () => {
  it('opens a shared dataset by path and draws its presence chart', async () => {
    ready();
    await page.getByTestId('path-input').fill(HW);
    await page.getByTestId('open-path').click();
    await page.getByTestId('info-file').filter({ hasText: 'HW.mat' }).waitFor();
    const chart = page.getByTestId('presence-chart');
    await chart.waitFor();
    expect(await painted(chart)).toBeGreaterThan(1000);
    // The sample: its presence has missing samples (3 views, 250 complete samples of 500).
    await page.getByTestId('dataset-item').first().click();
    await page.getByTestId('info-file').filter({ hasText: 'NGs_Per0.5.mat' }).waitFor();
    await page.getByTestId('presence-chart').waitFor();
    expect(await painted(page.getByTestId('presence-chart'))).toBeGreaterThan(1000);
    expect(await page.getByTestId('recent-list').textContent()).toContain('HW.mat');
    await shot('dataset.png', 1250);
  });

  it('runs a method: progress moves, then the four charts of its result are drawn', async () => {
    ready();
    // IMVC-CBG (an objective per iteration) when registered, else k-means on the concatenation.
    await page.getByTestId('tab-run').click();
    const methods = await page
      .getByTestId('method-select')
      .locator('option')
      .evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value));
    // 20 seeds: long enough (a few seconds) to watch the bar move even on an idle machine.
    await fillForm(methods.includes('imvc-cbg') ? 'imvc-cbg' : 'kmeans-concat', 'paper', 20);
    await page.getByTestId('start-run').click();
    const run = newestRun();
    await run.and(page.locator('[data-status="running"]')).waitFor();
    // Progress moves: the bar's step changes while the run goes on.
    const seen = new Set<string>();
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && seen.size < 3) {
      const bar = run.getByTestId('run-progress');
      if ((await bar.count()) === 0) break;
      const step = await Promise.all(
        ['data-seed', 'data-iteration', 'value'].map((a) => bar.getAttribute(a)),
      )
        .then((v) => v.join(':'))
        .catch(() => null);
      if (step) seen.add(step);
      if (seen.size === 2) await shot('run.png');
      await page.waitForTimeout(50);
    }
    expect(seen.size).toBeGreaterThanOrEqual(2);
    await run.and(page.locator('[data-status="done"]')).waitFor({ timeout: 30_000 });
    await run.getByRole('button').first().click();
    await page.getByTestId('results').waitFor();
    for (const id of ['chart-convergence', 'chart-timing', 'chart-scatter', 'chart-confusion']) {
      const canvas = page.getByTestId(id);
      await canvas.waitFor();
      expect(await painted(canvas), id).toBeGreaterThan(500);
    }
    expect(await page.getByTestId('metrics-table').textContent()).toMatch(
      /ACC\s*0\.\d{4} ± 0\.\d{4}/,
    );
    // IMVC-CBG reports its singular values: the spectrum chart is drawn too.
    if (methods.includes('imvc-cbg')) {
      expect(await painted(page.getByTestId('chart-spectrum'))).toBeGreaterThan(500);
    }
    await page.getByTestId('log-scale').check();
    expect(await painted(page.getByTestId('chart-convergence'))).toBeGreaterThan(500);
    await shot('results.png', 1500);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(200);
    await shot('results-dark.png', 1500);
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('exports the labels CSV of the run', async () => {
    ready();
    const file = join(out, 'exports', 'labels.csv');
    await page.getByTestId('export-labels-path').fill(file);
    await page.getByTestId('export-labels').click();
    await page.getByTestId('export-message').filter({ hasText: '500 rows' }).waitFor();
    const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
    expect(lines[0]).toBe('sample_id,cluster,true_label');
    expect(lines).toHaveLength(501);
    expect(lines.slice(1).every((l) => /^\d+,[1-5],[1-5]$/.test(l))).toBe(true);
    expect(lines.slice(1).map((l) => Number(l.split(',')[0]))).toEqual(
      Array.from({ length: 500 }, (_, i) => i + 1),
    );
  });

  it('asks before replacing an export, and refuses a relative path', async () => {
    ready();
    const file = join(out, 'exports', 'labels.csv');
    await writeFile(file, 'keep');
    const declined = new Promise<string>((resolveDialog) =>
      page.once('dialog', (d) => {
        resolveDialog(d.message());
        void d.dismiss();
      }),
    );
    await page.getByTestId('export-labels-path').fill(file);
    await page.getByTestId('export-labels').click();
    expect(await declined).toBe(`${file} already exists. Replace it?`);
    expect(await readFile(file, 'utf8')).toBe('keep');

    page.once('dialog', (d) => void d.accept());
    await page.getByTestId('export-labels').click();
    await page.getByTestId('export-message').filter({ hasText: '500 rows' }).waitFor();
    await expect.poll(() => readFile(file, 'utf8')).toMatch(/^sample_id,cluster,true_label\n/);

    await page.getByTestId('export-labels-path').fill('labels.csv');
    await page.getByTestId('export-labels').click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('type a full path');
    expect(existsSync(join(REPO, 'labels.csv'))).toBe(false);
    await page.getByRole('button', { name: 'Dismiss error' }).click();
  });

  it(
    'stays responsive during a 30-second stretch of a long run (no task over 100 ms), then cancels it within a second',
    { timeout: 120_000 },
    async () => {
      ready();
      await page.getByTestId('dataset-item').filter({ hasText: 'HW.mat' }).click();
      // 100 seeds of the paper protocol: minutes of k-means on HW even on a quiet machine, so
      // the run is still inside its seeds when the test cancels it.
      await fillForm('kmeans-concat', 'paper', 100);
      await page.evaluate(() => {
        const w = globalThis as unknown as { longTasks: number[] };
        w.longTasks = [];
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) w.longTasks.push(e.duration);
        }).observe({ type: 'longtask' as 'mark' });
      });
      // Ctrl+Enter starts the run the form describes.
      await page.keyboard.press('Control+Enter');
      const run = newestRun();
      await run.and(page.locator('[data-status="running"]')).waitFor();
      // 30 s of the run (several minutes long), progress checked to move every 10 s.
      let before = await run.getByTestId('run-step').textContent();
      for (let k = 0; k < 3; k++) {
        await page.waitForTimeout(10_000);
        const now = await run.getByTestId('run-step').textContent();
        expect(now).not.toBe(before);
        before = now;
      }
      const longTasks = await page.evaluate(
        () => (globalThis as unknown as { longTasks: number[] }).longTasks,
      );
      expect(longTasks.filter((d) => d > 100)).toEqual([]);

      const t0 = Date.now();
      await run.getByTestId('cancel-run').click();
      await run.and(page.locator('[data-status="cancelled"]')).waitFor({ timeout: 1000 });
      expect(Date.now() - t0).toBeLessThan(1000);
    },
  );

  it('runs methods × 5 seeds and shows the comparison table; exports it as CSV', async () => {
    ready();
    // A small complete dataset (210 samples, 6 views) keeps three methods × 5 seeds short.
    await page.getByTestId('tab-dataset').click();
    await page.getByTestId('path-input').fill(MSRC);
    await page.getByTestId('open-path').click();
    await page.getByTestId('info-file').filter({ hasText: 'MSRCV1.mat' }).waitFor();
    await page.getByTestId('tab-compare').click();
    const available = await page
      .getByTestId('compare-method')
      .evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value));
    const wanted = ['bsv', 'kmeans-concat', 'imvc-cbg'].filter((m) => available.includes(m));
    for (const m of wanted)
      await page.locator(`[data-testid="compare-method"][value="${m}"]`).check();
    await page.getByTestId('compare-seeds').fill('5');
    await page.getByTestId('compare-run').click();
    await expect
      .poll(() => page.getByTestId('compare-row').count(), { timeout: 60_000, interval: 250 })
      .toBe(wanted.length);
    const methods = await page
      .getByTestId('compare-row')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-method')));
    expect([...methods].sort()).toEqual([...wanted].sort());
    const seedsCells = await page
      .getByTestId('compare-row')
      .locator('td:nth-of-type(2)')
      .allTextContents();
    expect(seedsCells.every((t) => t.trim() === '5')).toBe(true);
    // Sorting by NMI orders rows by it.
    await page.getByTestId('sort-NMI').click();
    const nmi = (
      await page.getByTestId('compare-row').locator('[data-metric="NMI"]').allTextContents()
    ).map((t) => Number(t.split('±')[0]));
    expect(nmi).toEqual([...nmi].sort((a, b) => b - a));
    expect(await painted(page.getByTestId('chart-compare-metric'))).toBeGreaterThan(500);
    await shot('compare.png', 1200);

    const file = join(out, 'exports', 'comparison.csv');
    await page.getByTestId('export-compare-path').fill(file);
    await page.getByTestId('export-compare').click();
    await page.getByTestId('compare-message').waitFor();
    const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^dataset,dataset_path,method,run,.*,k,protocol,seeds,seed_range,seed,preprocess,fill_note,ACC_mean,ACC_std,/,
    );
    expect(lines).toHaveLength(wanted.length + 1);
  }, 120_000); // three paper-protocol runs in one worker: 25–50 s on a loaded 2-core machine

  it('makes views missing by the stated protocol, and Esc cancels a run', async () => {
    ready();
    await page.getByTestId('tab-dataset').click();
    await page.getByTestId('dataset-item').filter({ hasText: 'MSRCV1.mat' }).first().click();
    expect(await page.getByTestId('info-missingness').textContent()).toContain('complete');
    await page.getByTestId('missing-percent').fill('50');
    await page.getByTestId('missing-seed').fill('3');
    expect(await page.getByTestId('missing-protocol').textContent()).toContain(
      '50% of the samples (105 of 210',
    );
    await page.getByTestId('missing-generate').click();
    await page.getByTestId('missing-made').waitFor();
    await page.getByTestId('info-missingness').filter({ hasText: 'mask-file' }).waitFor();
    expect(await page.getByTestId('dataset-item').filter({ hasText: 'MSRCV1.mat' }).count()).toBe(
      2,
    );
    expect(await painted(page.getByTestId('presence-chart'))).toBeGreaterThan(1000);
    await shot('generator.png', 1500);

    await page.getByTestId('dataset-item').filter({ hasText: 'HW.mat' }).click();
    await fillForm('kmeans-concat', 'paper', 20);
    await page.getByTestId('start-run').click();
    const run = newestRun();
    await run.and(page.locator('[data-status="running"]')).waitFor();
    // Past the start-up (dataset parsed, first k-means steps), as a user pressing Esc would be.
    await page.waitForTimeout(1500);
    const t0 = Date.now();
    await page.keyboard.press('Escape');
    await run.and(page.locator('[data-status="cancelled"]')).waitFor({ timeout: 1000 });
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  it('logged no page errors', () => {
    ready();
    expect(pageErrors).toEqual([]);
  });
});
