/**
 * End to end: a small study run with `mvstudio study run` (a 2 × 2 grid of IMVC-CBG, a
 * one-parameter grid of it, and k-means on the concatenation, 2 seeds on 3Sources), its
 * `study report --format html` opened in Chromium as a file:// page: every chart is drawn
 * (the heatmap's four cells, the line plot's points and line, each with a size on the page), no
 * image is broken, nothing is refused by the page's CSP, and the table marks the best in bold
 * and the second underlined.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS, REPO, setupProblem } from './browser';

const SOURCES = resolve(REPO, '../shared/datasets/3Sources/3sources.mat');
const BIN = join(REPO, 'bin', 'mvstudio.mjs');

const SPEC = {
  name: 'report-e2e',
  methods: [
    { method: 'imvc-cbg', label: 'IMVC-CBG grid' },
    { method: 'imvc-cbg', label: 'IMVC-CBG lambda' },
    { method: 'kmeans-concat', label: 'Concat' },
  ],
  datasets: [{ file: SOURCES, label: '3sources' }],
  grid: {
    'IMVC-CBG grid': { lambda: [0.1, 1], anchors: ['k', '2k'] },
    'IMVC-CBG lambda': { lambda: [0.01, 1, 10] },
  },
  seeds: 2,
  protocol: { replicates: 3 },
  metrics: ['acc', 'nmi'],
};

let tmp: string;
let browser: Browser | undefined;
let problem: Error | null = null;

beforeAll(async () => {
  problem = setupProblem();
  tmp = await mkdtemp(join(tmpdir(), 'mvstudio-report-e2e-'));
  if (problem === null) {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await rm(tmp, { recursive: true, force: true });
});

const mvstudio = (args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 300_000 });

describe('study report --format html in Chromium', () => {
  it('draws every chart and marks the table', async () => {
    if (problem) throw problem;
    const specPath = join(tmp, 'spec.json');
    await writeFile(specPath, JSON.stringify(SPEC));
    const dir = join(tmp, 'study');
    const run = mvstudio(['study', 'run', specPath, '--out', dir]);
    expect(run.status, run.stderr).toBe(0);
    const report = mvstudio(['study', 'report', dir, '--format', 'html']);
    expect(report.status, report.stderr).toBe(0);
    const file = join(tmp, 'report.html');
    await writeFile(file, report.stdout);

    const page = await browser!.newPage();
    const refused: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') refused.push(m.text());
    });
    page.on('pageerror', (e) => refused.push(e.message));
    await page.goto(pathToFileURL(file).href);

    // One heatmap (the 2 × 2 grid) and one line plot (the lambda grid), each drawn.
    const svgs = page.locator('figure svg');
    const sizes = await svgs.evaluateAll((els) =>
      els.map((e) => {
        const r = e.getBoundingClientRect();
        return [r.width, r.height];
      }),
    );
    expect(sizes.length).toBe(2);
    for (const [w, h] of sizes) {
      expect(w).toBeGreaterThan(100);
      expect(h).toBeGreaterThan(50);
    }
    const heatmap = page.locator('figure svg:has(rect.cell)');
    expect(await heatmap.count()).toBe(1);
    const cells = heatmap.locator('rect.cell');
    expect(await cells.count()).toBe(4);
    const fills = await cells.evaluateAll((els) => els.map((e) => e.getAttribute('fill')));
    expect(new Set(fills).size).toBeGreaterThan(1);
    expect(await heatmap.locator('text.value').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringMatching(/^0\.\d{3}$/)]),
    );
    const line = page.locator('figure svg:has(polyline)');
    expect(await line.count()).toBe(1);
    expect(await line.locator('circle.point').count()).toBe(3);
    const points = (await line.locator('polyline').getAttribute('points')) ?? '';
    expect(points.trim().split(/\s+/)).toHaveLength(3);

    // No broken image (the charts are inline SVG; any <img> must have loaded).
    const broken = (await page.evaluate(
      '[...document.images].filter((i) => !i.complete || i.naturalWidth === 0).length',
    )) as number;
    expect(broken).toBe(0);

    // The table: three rows, the best in bold and the second underlined.
    const table = page.locator('table.study');
    expect(await table.locator('tbody tr').count()).toBe(3);
    expect(await table.locator('tbody strong').count()).toBeGreaterThan(0);
    expect(await table.locator('tbody u').count()).toBeGreaterThan(0);
    expect(refused).toEqual([]);
    await page.close();
  }, 300_000);
});
