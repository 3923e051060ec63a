/** The dataset screen in a DOM (happy-dom): grouped counts, nouns that agree with them. */
import { render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import DatasetInfo from '../../../../src/renderer/src/components/DatasetInfo.svelte';
import type { DatasetEntry } from '../../../../src/shared/contract';

const summary = {
  file: '/d/big.csv',
  format: 'csv',
  n: 50000,
  views: [{ name: 'big', d: 1200, present: 50000, sparse: false, nanCount: 0 }],
  orientation: ['n x d'],
  missingness: 'complete',
  variables: [],
  samplesByViewCount: [50000],
  labels: { classes: [1], sizes: [50000], source: 'labels.csv' },
  decisions: [],
  warnings: [],
};

describe('DatasetInfo', () => {
  it('groups thousands and says "1 class"', () => {
    const entry = { id: 'a', path: '/d/big.csv', options: {}, bundled: false, summary };
    render(DatasetInfo, { entry: entry as unknown as DatasetEntry });
    expect(screen.getByTestId('info-n').textContent).toBe('50,000');
    expect(screen.getByTestId('labels-summary').textContent).toContain('1 class, from');
    expect(screen.getByTestId('label-size').textContent).toBe('50,000');
    const d = screen.getByTestId('view-row').querySelector('[data-col="d"]');
    expect(d?.textContent).toBe('1,200');
  });
});
