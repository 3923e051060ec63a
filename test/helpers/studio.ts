/**
 * The e2e set-up the shell's tests share: `mvstudio serve`'s server with the real library,
 * run manager and solver worker, and Debian's Chromium on its launch page. A missing build or
 * browser is returned as `problem`, so every test fails with it (never skips).
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, REPO, setupProblem, WEB } from '../e2e/browser';
import { DatasetLibrary } from '../../src/backend/library';
import { RunManager } from '../../src/backend/runs';
import { WorkerHost, forkWorker } from '../../src/backend/worker-host';
import { startServer } from '../../src/cli/serve';
import type { RunningServer } from '../../src/cli/serve';

export const SAMPLE = join(REPO, 'resources', 'datasets', 'NGs_Per0.5.mat');

export interface Studio {
  page: Page;
  context: BrowserContext;
  /** The server's run manager (tests read the backend's own RunInfo through it). */
  runs: RunManager;
  /** A temp folder the test may write into (exports/ exists). */
  out: string;
  /** Page errors and console errors, in order. */
  errors: string[];
  close(): Promise<void>;
}

export interface StudioOptions {
  library?: DatasetLibrary;
  colorScheme?: 'light' | 'dark';
  /** Lets page.addScriptTag inject a script the page's CSP (script-src 'self') refuses. */
  bypassCSP?: boolean;
  /** Playwright's default timeout (ms); default 20 s. */
  timeout?: number;
  /** How often the run manager pushes a run's progress (ms); its default otherwise. */
  progressIntervalMs?: number;
}

export async function startStudio(options: StudioOptions = {}): Promise<Studio | Error> {
  const problem = setupProblem();
  if (problem) return problem;
  const out = await mkdtemp(join(tmpdir(), 'mvstudio-e2e-out-'));
  await mkdir(join(out, 'exports'));
  const library = options.library ?? new DatasetLibrary({ bundled: [SAMPLE] });
  const host = new WorkerHost({
    spawn: () => forkWorker(join(REPO, 'src/worker/index.ts'), ['--import', 'tsx']),
  });
  const runs = new RunManager({
    host,
    library,
    bundleRoot: join(out, 'runs'),
    ...(options.progressIntervalMs !== undefined
      ? { progressIntervalMs: options.progressIntervalMs }
      : {}),
  });
  const server: RunningServer = await startServer({
    port: 0,
    library,
    staticDir: WEB,
    runs,
    dataDir: join(out, 'data'),
  });
  const profile = await mkdtemp(join(tmpdir(), 'mvstudio-e2e-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: { width: 1280, height: 960 },
    deviceScaleFactor: 1,
    colorScheme: options.colorScheme ?? 'light',
    reducedMotion: 'reduce',
    locale: 'en-US',
    timezoneId: 'UTC',
    acceptDownloads: true,
    bypassCSP: options.bypassCSP ?? false,
  });
  context.setDefaultTimeout(options.timeout ?? 20_000);
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  await page.goto(server.launchUrl);
  // The open-by-path field is there with or without datasets.
  await page.getByTestId('path-input').waitFor();
  return {
    page,
    context,
    runs,
    out,
    errors,
    async close() {
      await context.close();
      host.dispose();
      await server.close();
      await rm(profile, { recursive: true, force: true });
      await rm(out, { recursive: true, force: true });
    },
  };
}

/** The newest run item of the queue. */
export const newestRun = (page: Page): Locator => page.getByTestId('run-item').first();

/**
 * Runs the first method of the list once (single protocol) on the selected dataset and waits
 * for it to finish; returns the method's value.
 */
export async function finishQuickRun(page: Page, method?: string): Promise<string> {
  await page.getByTestId('tab-run').click();
  const select = page.getByTestId('method-select');
  const chosen =
    method ??
    (
      await select
        .locator('option')
        .evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value))
    )
      .filter((v) => v !== '')
      .at(-1);
  if (!chosen) throw new Error('the Run form lists no method');
  await select.selectOption(chosen);
  await page.getByTestId('protocol-single').check();
  // k as the labels give it (the sample has 5 classes) when the form leaves it empty.
  const k = page.getByTestId('k-input');
  if ((await k.count()) > 0 && (await k.inputValue()) === '') await k.fill('5');
  // Wait for the new item first: until it is listed, the newest item is the last run, done.
  const items = page.getByTestId('run-item');
  const before = await items.count();
  await page.getByTestId('start-run').click();
  await items.nth(before).waitFor();
  await newestRun(page).and(page.locator('[data-status="done"]')).waitFor({ timeout: 60_000 });
  return chosen;
}

/**
 * Starts the studio before a test file's tests and closes it after them. The returned function
 * is the started studio; in a test it throws what kept the studio from starting (a missing build
 * or browser fails every test, never skips it).
 */
export function useStudio(options: StudioOptions = {}): () => Studio {
  let studio: Studio | undefined;
  let missing: Error | undefined;
  beforeAll(async () => {
    const started = await startStudio(options);
    if (started instanceof Error) missing = started;
    else studio = started;
  });
  afterAll(async () => {
    await studio?.close();
  });
  return () => {
    if (missing) throw missing;
    if (!studio) throw new Error('the studio did not start');
    return studio;
  };
}
