/**
 * The whole app under an axe-core scan (node_modules/axe-core, injected into the page), on
 * each tab with a dataset open and a finished run shown, in the light and the dark theme:
 * no serious or critical violation. A failure lists each violation with the elements it hit.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { scan } from '../helpers/axe';
import { finishQuickRun, newestRun, useStudio } from '../helpers/studio';

// bypassCSP lets the axe-core scan be injected.
const studio = useStudio({ bypassCSP: true });
const page = (): Page => studio().page;

describe('accessibility (axe-core)', () => {
  it('has no serious violation on any tab, light or dark, with a dataset and a finished run', async () => {
    const p = page();
    await p.getByTestId('dataset-item').first().click();
    await p.getByTestId('presence-chart').waitFor();
    await finishQuickRun(p, 'kmeans-concat');
    await newestRun(p).getByRole('button').first().click();
    await p.getByTestId('results').waitFor();
    const found: Record<string, string[]> = {};
    for (const scheme of ['light', 'dark'] as const) {
      await p.emulateMedia({ colorScheme: scheme });
      for (const tab of ['dataset', 'run', 'results', 'compare', 'study']) {
        await p.getByTestId(`tab-${tab}`).click();
        await p.getByRole('tabpanel').waitFor();
        await p.waitForTimeout(300);
        const hits = await scan(p);
        if (hits.length > 0) found[`${scheme} ${tab}`] = hits;
      }
    }
    expect(found).toEqual({});
  }, 120_000);

  it('logged no page errors', () => {
    expect(studio().errors).toEqual([]);
  });
});
