/** The run form in a DOM (happy-dom): typing an out-of-range value shows the schema's message. */
import { fireEvent, render, screen } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import RunForm from '../../../../src/renderer/src/components/RunForm.svelte';
import { RunFormState } from '../../../../src/renderer/src/lib/runs.svelte';
import type { DatasetEntry, MethodInfo } from '../../../../src/shared/contract';

const METHODS: MethodInfo[] = [
  {
    name: 'imvc-cbg',
    title: 'IMVC-CBG',
    description: 'anchors',
    deterministic: false,
    params: [
      {
        name: 'tol',
        spec: {
          type: 'number',
          min: 0,
          max: 1,
          exclusiveMin: true,
          default: 0.001,
          doc: 'tolerance',
        },
        expects: 'a number above 0, at most 1',
      },
      {
        name: 'normalize',
        spec: { type: 'boolean', default: true, doc: 'scale views' },
        expects: 'true or false',
      },
    ],
  },
];

/** The DOM properties these tests read (the test tsconfig has no DOM lib). */
type Field = { disabled: boolean; placeholder: string; getAttribute(name: string): string | null };

const dataset = {
  id: 'd1',
  path: '/x.mat',
  options: {},
  bundled: false,
  summary: { labels: { classes: [1, 2, 3] }, views: [], n: 10 },
} as unknown as DatasetEntry;

describe('RunForm', () => {
  it('rejects an out-of-range value with the schema’s message and disables Run', async () => {
    const form = new RunFormState(() => METHODS);
    form.choose('imvc-cbg');
    let started = 0;
    render(RunForm, {
      form,
      methods: METHODS,
      dataset,
      estimate: null,
      onStart: () => started++,
    });
    const run = screen.getByTestId('start-run') as unknown as Field;
    expect(run.disabled).toBe(false);
    expect(screen.getByText(/tolerance/)).toBeTruthy();

    const tol = screen.getByLabelText('tol') as unknown as Field;
    await fireEvent.input(tol, { target: { value: '0' } });
    flushSync();
    expect(screen.getByTestId('param-error').textContent).toBe(
      "parameter 'tol' must be a number above 0, at most 1; got 0",
    );
    expect(tol.getAttribute('aria-invalid')).toBe('true');
    expect(run.disabled).toBe(true);

    await fireEvent.input(tol, { target: { value: '0.01' } });
    flushSync();
    expect(screen.queryByTestId('param-error')).toBeNull();
    expect(run.disabled).toBe(false);
    await fireEvent.click(run);
    expect(started).toBe(1);
    expect(form.request('d1')?.params).toEqual({ tol: 0.01 });
  });

  it('shows the k placeholder from the labels and checks the seed', async () => {
    const form = new RunFormState(() => METHODS);
    form.choose('imvc-cbg');
    render(RunForm, { form, methods: METHODS, dataset, estimate: null, onStart: () => {} });
    expect((screen.getByTestId('k-input') as unknown as Field).placeholder).toBe('3');
    await fireEvent.input(screen.getByTestId('seed-input'), { target: { value: '-2' } });
    flushSync();
    expect(screen.getByTestId('form-error').textContent).toBe(
      'the seed must be a whole number from 0; got "-2"',
    );
  });
});
