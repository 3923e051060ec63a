/** The generator's save control in a DOM (happy-dom): only .mat or .npz; the dialog's name. */
import { fireEvent, render, screen } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import MissingGenerator from '../../../../src/renderer/src/components/MissingGenerator.svelte';
import type { DatasetEntry } from '../../../../src/shared/contract';

type Field = { disabled: boolean };

const made = {
  id: 'g',
  path: '/d/HW.mat',
  options: { mask: '/tmp/x/masks/HW-complete30-seed1.npz', fold: 1 },
  bundled: false,
  summary: { n: 2000, format: 'mat-v5', views: [{}, {}, {}, {}, {}, {}] },
} as unknown as DatasetEntry;

function props(native: boolean, saves: string[], picks: string[]) {
  return {
    entry: made,
    busy: false,
    made: null,
    onGenerate: () => undefined,
    native,
    onPickSave: async (name: string) => {
      picks.push(name);
      return `/chosen/${name}`;
    },
    onSave: (path: string) => saves.push(path),
    saved: null,
  };
}

describe('MissingGenerator save', () => {
  it('in a browser saves only to a typed .mat or .npz path', async () => {
    const saves: string[] = [];
    render(MissingGenerator, props(false, saves, []));
    expect(screen.getByTestId('dataset-save').textContent).toContain('n × 6 presence mask');
    const input = screen.getByTestId('dataset-save-path');
    const button = screen.getByTestId('dataset-save-button') as unknown as Field;
    await fireEvent.input(input, { target: { value: '/out/HW.csv' } });
    flushSync();
    expect(button.disabled).toBe(true);
    expect(screen.getByText('End the file name in .mat or .npz.')).toBeTruthy();
    await fireEvent.input(input, { target: { value: ' /out/HW-missing.mat ' } });
    flushSync();
    expect(button.disabled).toBe(false);
    await fireEvent.click(screen.getByTestId('dataset-save-button'));
    expect(saves).toEqual(['/out/HW-missing.mat']);
  });

  it('under Electron asks the dialog with the generated name and the chosen extension', async () => {
    const saves: string[] = [];
    const picks: string[] = [];
    render(MissingGenerator, props(true, saves, picks));
    await fireEvent.click(screen.getByTestId('dataset-save-npz'));
    await Promise.resolve();
    await Promise.resolve();
    expect(picks).toEqual(['HW-complete30-seed1.npz']);
    expect(saves).toEqual(['/chosen/HW-complete30-seed1.npz']);
  });

  it('offers no save for a dataset read without a mask', () => {
    render(MissingGenerator, { ...props(false, [], []), entry: { ...made, options: {} } });
    expect(screen.queryByTestId('dataset-save')).toBeNull();
  });
});
