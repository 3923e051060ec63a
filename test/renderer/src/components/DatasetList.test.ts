/** The sidebar's list in a DOM (happy-dom): counts agree with their nouns and are grouped. */
import { render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import DatasetList from '../../../../src/renderer/src/components/DatasetList.svelte';
import type { DatasetEntry } from '../../../../src/shared/contract';

function entry(id: string, path: string, n: number, views: number): DatasetEntry {
  return {
    id,
    path,
    options: {},
    bundled: false,
    summary: { n, views: Array.from({ length: views }, (_, v) => ({ name: `v${v}` })) },
  } as unknown as DatasetEntry;
}

describe('DatasetList', () => {
  it('says "1 view" and "50,000 samples", and gives namesakes their folder', () => {
    render(DatasetList, {
      entries: [entry('a', '/x/one/data.csv', 50000, 1), entry('b', '/x/two/data.csv', 1, 3)],
      selectedId: null,
      onSelect: () => undefined,
      onRemove: () => undefined,
    });
    const items = screen.getAllByTestId('dataset-item');
    expect(items[0]!.textContent).toContain('50,000 samples · 1 view');
    expect(items[0]!.textContent).not.toContain('1 views');
    expect(items[1]!.textContent).toContain('1 sample · 3 views');
    const subs = screen.getAllByTestId('dataset-variant').map((s) => s.textContent?.trim());
    expect(subs).toEqual(['in one/', 'in two/']);
    // The full path and the subtitle are the tooltip.
    expect(items[0]!.getAttribute('title')).toBe('/x/one/data.csv\nin one/');
  });
});
