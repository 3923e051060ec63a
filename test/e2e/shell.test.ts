/**
 * The app's shell end to end (Chromium, the real backend and worker): shortcuts act on the
 * visible screen only and Esc never cancels from a text field; the tabs are ARIA tabs with
 * arrow-key navigation; the theme switch applies at once and survives a reload, before the
 * first paint; screens never show what the user moved away from.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { REPO } from './browser';
import { finishQuickRun, newestRun, useStudio } from '../helpers/studio';

const HW = resolve(REPO, '../shared/datasets/HW/HW.mat');

const studio = useStudio();
const page = (): Page => studio().page;

const selected = (p: Page, tab: string): Promise<string | null> =>
  p.getByTestId(`tab-${tab}`).getAttribute('aria-selected');

describe('the shell', () => {
  it('has ARIA tabs: one selected, its panel labelled by it, arrow keys move', async () => {
    const p = page();
    expect(await p.getByRole('tablist').count()).toBe(1);
    expect(await p.getByRole('tab').count()).toBe(5);
    await p.getByTestId('tab-dataset').click();
    expect(await selected(p, 'dataset')).toBe('true');
    expect(await selected(p, 'run')).toBe('false');
    const panel = p.getByRole('tabpanel');
    const dataset = p.getByTestId('tab-dataset');
    expect(await dataset.getAttribute('aria-controls')).toBe(await panel.getAttribute('id'));
    expect(await panel.getAttribute('aria-labelledby')).toBe(await dataset.getAttribute('id'));

    await dataset.focus();
    await p.keyboard.press('ArrowRight');
    expect(await selected(p, 'run')).toBe('true');
    expect(await p.evaluate('document.activeElement?.dataset?.testid')).toBe('tab-run');
    await p.getByTestId('run-form').waitFor();
    await p.keyboard.press('ArrowLeft');
    await p.keyboard.press('ArrowLeft');
    expect(await selected(p, 'study')).toBe('true');
    await p.keyboard.press('Home');
    expect(await selected(p, 'dataset')).toBe('true');
    await p.keyboard.press('End');
    expect(await selected(p, 'study')).toBe('true');
  });

  it('Ctrl+Enter starts no run from a screen other than the Run form', async () => {
    const p = page();
    await p.getByTestId('tab-dataset').click();
    await p.getByTestId('dataset-item').first().click();
    await p.getByTestId('tab-compare').click();
    await p.locator('body').click({ position: { x: 5, y: 900 } });
    await p.keyboard.press('Control+Enter');
    expect(await selected(p, 'compare')).toBe('true');
    await p.getByTestId('tab-run').click();
    expect(await p.getByTestId('run-item').count()).toBe(0);
  });

  it('Esc in a text field leaves the run going; Esc outside one cancels it', async () => {
    const p = page();
    await p.getByTestId('path-input').fill(HW);
    await p.getByTestId('open-path').click();
    await p.getByTestId('info-file').filter({ hasText: 'HW.mat' }).waitFor();
    await p.getByTestId('tab-run').click();
    await p.getByTestId('method-select').selectOption('kmeans-concat');
    await p.getByTestId('protocol-paper').check();
    await p.getByTestId('seeds-input').fill('20');
    const k = p.getByTestId('k-input');
    if ((await k.inputValue()) === '') await k.fill('10');
    await p.getByTestId('start-run').click();
    const run = newestRun(p);
    await run.and(p.locator('[data-status="running"]')).waitFor();

    await p.getByTestId('seed-input').focus();
    await p.keyboard.press('Escape');
    // A later update (progress) proves the host went on with the run after the Esc.
    const step = await run.getByTestId('run-step').textContent();
    await run
      .getByTestId('run-step')
      .filter({ hasNotText: step ?? '' })
      .waitFor();
    expect(await run.getAttribute('data-status')).toBe('running');

    await p.getByTestId('seed-input').blur();
    await p.keyboard.press('Escape');
    await run.and(p.locator('[data-status="cancelled"]')).waitFor();
  });

  it('switches the theme at once and keeps it across a reload, from the first paint', async () => {
    const p = page();
    const theme = (): Promise<string | null> =>
      p.evaluate('document.documentElement.dataset.theme');
    const bg = (): Promise<string> => p.evaluate('getComputedStyle(document.body).backgroundColor');
    expect(await theme()).toBe('light');
    await p.getByTestId('theme-select').selectOption('dark');
    expect(await theme()).toBe('dark');
    expect(await bg()).toBe('rgb(22, 24, 29)');

    // The theme once the document is parsed, before the app's module script runs (that comes
    // after readyState 'interactive'): theme-init.js alone set it, ahead of the first paint.
    await p.addInitScript({
      content: `document.addEventListener('readystatechange', () => {
        globalThis.firstTheme ??= document.documentElement.dataset.theme ?? 'none';
      });`,
    });
    await p.reload();
    await p.getByTestId('dataset-item').first().waitFor();
    expect(await p.evaluate('globalThis.firstTheme')).toBe('dark');
    expect(await theme()).toBe('dark');
    expect(await p.getByTestId('theme-select').inputValue()).toBe('dark');

    // System follows the colour scheme the OS reports.
    await p.getByTestId('theme-select').selectOption('system');
    await p.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(theme).toBe('dark');
    await p.emulateMedia({ colorScheme: 'light' });
    await expect.poll(theme).toBe('light');
    expect(await bg()).toBe('rgb(255, 255, 255)');
  });

  it('opening a dataset from the Results screen shows the new dataset', async () => {
    const p = page();
    await p.getByTestId('tab-dataset').click();
    await p.getByTestId('dataset-item').filter({ hasText: 'NGs_Per0.5.mat' }).click();
    await finishQuickRun(p, 'kmeans-concat');
    await newestRun(p).getByRole('button').first().click();
    await p.getByTestId('results').waitFor();
    await p.getByTestId('path-input').fill(HW);
    await p.getByTestId('open-path').click();
    await p.getByTestId('info-file').filter({ hasText: 'HW.mat' }).waitFor();
    expect(await selected(p, 'dataset')).toBe('true');
    expect(await p.getByTestId('results').count()).toBe(0);
    // Back on Results, the run shown says it is on the other dataset.
    await p.getByTestId('tab-results').click();
    const note = p.getByTestId('results-other-dataset');
    expect(await note.textContent()).toMatch(
      /on NGs_Per0\.5\.mat; the selected dataset is HW\.mat\.\s+It has no finished run yet/,
    );
    await p.getByTestId('dataset-item').filter({ hasText: 'NGs_Per0.5.mat' }).click();
    await p.getByTestId('tab-results').click();
    await p.getByTestId('results').waitFor();
    expect(await note.count()).toBe(0);
  });

  it('names the file being opened from the moment a 100k-sample open starts', async () => {
    const p = page();
    const big = join(studio().out, 'big-100k.csv');
    const rows: string[] = [];
    for (let i = 0; i < 100_000; i++)
      rows.push(Array.from({ length: 8 }, (_, j) => ((i * 31 + j * 7) % 997) / 10).join(','));
    await writeFile(big, rows.join('\n') + '\n');
    await p.getByTestId('tab-run').click();
    await p.getByTestId('path-input').fill(big);
    await p.getByTestId('open-path').click();
    const opening = p.getByTestId('opening');
    await opening.waitFor();
    expect(await opening.textContent()).toContain('big-100k.csv');
    await p
      .getByTestId('info-file')
      .filter({ hasText: 'big-100k.csv' })
      .waitFor({ timeout: 60_000 });
    expect(await opening.count()).toBe(0);
    expect(await p.getByRole('status').count()).toBeGreaterThan(0);
  }, 90_000);

  it('drops an export message once what it describes changes', async () => {
    const p = page();
    const out = studio().out;
    await p.getByTestId('dataset-item').filter({ hasText: 'NGs_Per0.5.mat' }).click();
    await p.getByTestId('tab-run').click();
    const first = newestRun(p);
    await first.getByRole('button').first().click();
    await p.getByTestId('results').waitFor();
    const labels = join(out, 'exports', 'labels-a.csv');
    await p.getByTestId('export-labels-path').fill(labels);
    await p.getByTestId('export-labels').click();
    await p.getByTestId('export-message').filter({ hasText: '500 rows' }).waitFor();
    expect((await readFile(labels, 'utf8')).split('\n')[0]).toBe('sample_id,cluster,true_label');

    // Another run shown: the message was about the first one.
    await finishQuickRun(p, 'kmeans-concat');
    await newestRun(p).getByRole('button').first().click();
    await p.getByTestId('results').waitFor();
    expect(await p.getByTestId('export-message').count()).toBe(0);

    // The comparison: its message goes when another finished run changes the table.
    await p.getByTestId('tab-compare').click();
    await p.getByTestId('export-compare-path').fill(join(out, 'exports', 'comparison.csv'));
    await p.getByTestId('export-compare').click();
    await p.getByTestId('compare-message').waitFor();
    await finishQuickRun(p, 'kmeans-concat');
    await p.getByTestId('tab-compare').click();
    await p.getByTestId('export-compare').waitFor();
    expect(await p.getByTestId('compare-message').count()).toBe(0);
  }, 120_000);

  it('saves a chart as SVG (title, a mark per point, axis titles, legend) and as a titled PNG', async () => {
    const p = page();
    await p.getByTestId('tab-run').click();
    await newestRun(p).getByRole('button').first().click();
    await p.getByTestId('chart-scatter').waitFor();
    const download = async (testid: string): Promise<string> => {
      const [file] = await Promise.all([p.waitForEvent('download'), p.getByTestId(testid).click()]);
      const path = await file.path();
      // An SVG is UTF-8 text; a PNG's bytes go through latin1 one to one.
      return readFile(path, testid.endsWith('-svg') ? 'utf8' : 'latin1');
    };

    // The SVG parsed by the browser's own XML parser; its parts counted there.
    const inspect = (svg: string): Promise<Record<string, unknown>> =>
      p.evaluate(`(() => {
        const doc = new DOMParser().parseFromString(${JSON.stringify(svg)}, 'image/svg+xml');
        const texts = (sel) => [...doc.querySelectorAll(sel)].map((e) => e.textContent);
        return {
          error: doc.querySelector('parsererror')?.textContent ?? null,
          root: doc.documentElement.nodeName,
          title: texts('.chart-title')[0] ?? null,
          marks: doc.querySelectorAll('.mark').length,
          hollow: doc.querySelectorAll('.mark.hollow').length,
          axisTitles: texts('.axis-title'),
          legend: texts('.legend-item text'),
          ticks: doc.querySelectorAll('.tick').length,
          background: doc.querySelector('svg > rect')?.getAttribute('fill') ?? null,
        };
      })()`);

    const scatter = await inspect(await download('save-clusters-svg'));
    expect(scatter['error']).toBeNull();
    expect(scatter['root']).toBe('svg');
    expect(scatter['title']).toMatch(/^Clusters: .+ on NGs_Per0\.5\.mat, run /);
    // The sample: 500 samples, 250 of them missing a view (drawn hollow), 5 clusters.
    expect(scatter['marks']).toBe(500);
    expect(scatter['hollow']).toBe(250);
    expect(scatter['axisTitles']).toEqual(['PC 1', 'PC 2']);
    // Cluster swatches, then the one entry that says what a hollow mark is.
    expect(scatter['legend']).toEqual([
      ...[1, 2, 3, 4, 5].map((c) => `cluster ${c}`),
      'hollow: missing ≥ 1 view',
    ]);
    expect(scatter['ticks']).toBeGreaterThan(4);

    const timing = await inspect(await download('save-timing-svg'));
    expect(timing['error']).toBeNull();
    expect(timing['title']).toMatch(/^Time by stage: /);
    expect(timing['axisTitles']).toEqual(['seconds']);
    expect(timing['marks']).toBeGreaterThan(0);

    // The charts follow the theme: a dark one is saved on the dark background.
    await p.getByTestId('theme-select').selectOption('dark');
    expect((await inspect(await download('save-clusters-svg')))['background']).toBe('#16181d');
    await p.getByTestId('theme-select').selectOption('system');

    // The PNG: the canvas's pixels under a title band (PNG's IHDR holds width and height).
    const png = Buffer.from(await download('save-clusters-png'), 'latin1');
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    const size = await p
      .getByTestId('chart-scatter')
      .evaluate((c) => [
        (c as unknown as { width: number }).width,
        (c as unknown as { height: number }).height,
      ]);
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([size[0], (size[1] ?? 0) + 32]);
  });

  it('logged no page errors', () => {
    expect(studio().errors).toEqual([]);
  });
});
