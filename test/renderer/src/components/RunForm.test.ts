/** The run form in a DOM (happy-dom): typing an out-of-range value shows the schema's message. */
import { fireEvent, render, screen } from '@testing-library/svelte';
import { createRawSnippet, flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import RunForm from '../../../../src/renderer/src/components/RunForm.svelte';
import { K_REQUIRED, RunFormState } from '../../../../src/renderer/src/lib/runs.svelte';
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

describe('RunForm preprocessing', () => {
  it('offers the three modes with a one-line explanation, default none, and sends the choice', async () => {
    const form = new RunFormState(() => METHODS);
    form.choose('imvc-cbg');
    render(RunForm, { form, methods: METHODS, dataset, estimate: null, onStart: () => {} });
    const select = screen.getByTestId('preprocess-select') as unknown as {
      value: string;
      options: ArrayLike<{ value: string; textContent: string | null }>;
    };
    expect(Array.from(select.options).map((o) => [o.value, o.textContent])).toEqual([
      ['none', 'None — as the reference code'],
      ['l2-rows', 'Unit-L2 rows per view'],
      ['zscore', 'Z-score per feature'],
    ]);
    expect(select.value).toBe('none');
    expect(screen.getByTestId('preprocess-select-explain').textContent).toMatch(/raw features/);
    expect(form.request('d1')).not.toHaveProperty('preprocess');
    await fireEvent.change(select, { target: { value: 'zscore' } });
    flushSync();
    expect(form.preprocess).toBe('zscore');
    expect(screen.getByTestId('preprocess-select-explain').textContent).toMatch(
      /standard deviation/,
    );
    expect(form.request('d1')?.preprocess).toBe('zscore');
  });
});

describe('RunForm k', () => {
  const unlabelled = {
    ...dataset,
    id: 'u',
    summary: { labels: null, views: [], n: 10 },
  } as unknown as DatasetEntry;

  it('refuses an empty k without labels, next to the field, and draws the k help there', () => {
    const form = new RunFormState(
      () => METHODS,
      () => unlabelled,
    );
    form.choose('imvc-cbg');
    const kHelp = createRawSnippet(() => ({ render: () => '<span>k-choice curve</span>' }));
    render(RunForm, {
      form,
      methods: METHODS,
      dataset: unlabelled,
      estimate: null,
      onStart: () => {},
      kHelp,
    });
    const k = screen.getByTestId('k-input') as unknown as Field;
    expect(k.placeholder).toBe('required');
    expect(k.getAttribute('aria-invalid')).toBe('true');
    expect(k.getAttribute('aria-describedby')).toBe('k-error');
    expect(screen.getByTestId('form-error').textContent).toBe(K_REQUIRED);
    expect((screen.getByTestId('start-run') as unknown as Field).disabled).toBe(true);
    expect(screen.getByTestId('k-help').textContent).toBe('k-choice curve');
  });

  it('says when k differs from the class count', async () => {
    const form = new RunFormState(
      () => METHODS,
      () => dataset,
    );
    form.choose('imvc-cbg');
    render(RunForm, { form, methods: METHODS, dataset, estimate: null, onStart: () => {} });
    expect((screen.getByTestId('k-input') as unknown as { value: string }).value).toBe('3');
    expect(screen.queryByTestId('k-note')).toBeNull();
    await fireEvent.input(screen.getByTestId('k-input'), { target: { value: '5' } });
    flushSync();
    expect(screen.getByTestId('k-note').textContent).toBe(
      'k = 5 differs from the 3 classes of the labels: the metrics compare 5 clusters with 3 classes',
    );
  });
});
