import { describe, expect, it } from 'vitest';
import { HOLLOW_TEXT, scatterLegendItems } from '../../../../src/renderer/src/charts/legend';

const color = (c: number): string => ['#111111', '#222222', '#333333'][c]!;

describe('scatterLegendItems', () => {
  it('fills every cluster swatch with its colour and adds the hollow entry when views are missing', () => {
    const items = scatterLegendItems(3, 5, color, (c) => c === 1, '#000000');
    expect(items.map((i) => i.text)).toEqual(['cluster 1', 'cluster 2', 'cluster 3', HOLLOW_TEXT]);
    expect(items.slice(0, 3).map((i) => i.fillStyle)).toEqual(['#111111', '#222222', '#333333']);
    expect(items.slice(0, 3).map((i) => i.datasetIndex)).toEqual([0, 1, 2]);
    expect(items.map((i) => i.hidden)).toEqual([false, true, false, false]);
    const hollow = items[3]!;
    expect(hollow.fillStyle).toBe('transparent');
    expect(hollow.strokeStyle).toBe('#000000');
    expect(hollow.datasetIndex).toBeUndefined();
    expect(HOLLOW_TEXT).toBe('hollow: missing ≥ 1 view');
  });

  it('has no hollow entry when no sample misses a view', () => {
    const items = scatterLegendItems(2, 0, color, () => false, '#000000');
    expect(items.map((i) => i.text)).toEqual(['cluster 1', 'cluster 2']);
    expect(items.every((i) => i.fillStyle !== 'transparent')).toBe(true);
  });
});
