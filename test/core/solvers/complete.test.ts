/**
 * fillMissing, the one rule that completes the views of an `input: 'complete'` solver: a hand
 * example (dense and CSR views, mean rows by hand), `observed` keeping the original samples, a
 * complete input returned as it is; and the protocol handing every seed the same filled input
 * with the fill note among the run's notes.
 */
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../../src/core/protocol';
import {
  denseValues,
  fillMissing,
  fillNote,
  observedSamples,
} from '../../../src/core/solvers/complete';
import type { Solver, SolverInput } from '../../../src/core/solvers/types';
import { dataset, denseView, drain, handViews } from '../../helpers/toy';

// Sample 1 misses view a: its row is the mean of (1, 2) and (3, 6), (2, 4). Sample 0 misses
// view b (CSR): the mean of (0, 0, 4) and (2, 0, 8), (1, 0, 6).
const { dense: a, csr: b } = handViews();
const full = denseView('c', [0, 1, 2], [[7], [8], [9]]);

describe('fillMissing', () => {
  it('fills each view’s missing rows with the mean of its present rows, densified', () => {
    const { input, note } = fillMissing(dataset(3, [a, b, full]));
    expect(input.views.map((v) => Array.from(v.present))).toEqual([
      [0, 1, 2],
      [0, 1, 2],
      [0, 1, 2],
    ]);
    expect(Array.from(denseValues(input.views[0]!, 3).data)).toEqual([1, 2, 2, 4, 3, 6]);
    expect(Array.from(denseValues(input.views[1]!, 3).data)).toEqual([1, 0, 6, 0, 0, 4, 2, 0, 8]);
    // A complete view is kept as it is (the same object, no copy).
    expect(input.views[2]).toBe(full);
    expect(input.observed!.map((p) => Array.from(p))).toEqual([
      [0, 2],
      [1, 2],
      [0, 1, 2],
    ]);
    expect(Array.from(observedSamples(input, 1))).toEqual([1, 2]);
    expect(note).toBe(
      'missing samples of each view imputed with the mean of that view’s present samples ' +
        '(missing per view: 1, 1, 0 of 3; views with missing samples densified)',
    );
    expect(fillNote(input)).toBe(note);
    // The filled input carries no labels or provenance.
    expect(Object.keys(input).sort()).toEqual(['n', 'observed', 'sampleIds', 'views']);
  });

  it('returns a complete input itself, without a note; filling twice changes nothing', () => {
    const complete: SolverInput = { n: 3, views: [full], sampleIds: null };
    expect(fillMissing(complete)).toEqual({ input: complete, note: null });
    expect(fillMissing(complete).input).toBe(complete);
    expect(Array.from(observedSamples(complete, 0))).toEqual([0, 1, 2]);
    const once = fillMissing(dataset(3, [a])).input;
    expect(fillMissing(once).input).toBe(once);
  });

  it('refuses to read an unfilled view as complete, naming it', () => {
    expect(() => denseValues(a, 3)).toThrow("view 'a' holds 2 of 3 samples; fill it first");
  });
});

describe('the protocol and complete-input solvers', () => {
  /** Embeds the first view's first column; records every input it is given. */
  function recorder(input: 'complete' | 'incomplete', notes: (s: SolverInput) => string[]) {
    const seen: SolverInput[] = [];
    const solver: Solver = {
      name: 'toy-record',
      title: 'toy',
      description: 'records its inputs',
      schema: {},
      deterministic: false,
      input,
      monotone: false,
      iterationCap: () => null,
      cost: () => ({ solve: 1, kmeans: 1, perSeed: false }),
      footprint: () => ({ bytes: 0, quadratic: false, note: '' }),
      // eslint-disable-next-line require-yield
      *run(s) {
        seen.push(s);
        const X = denseValues(s.views[0]!, s.n);
        const data = Float64Array.from({ length: s.n }, (_, i) => X.data[i * X.cols]!);
        return {
          embedding: { rows: s.n, cols: 1, data },
          objective: [],
          converged: true,
          iterations: 1,
          notes: notes(s),
        };
      },
    };
    return { solver, seen };
  }
  const opts = { protocol: 'paper' as const, seed: 0, seeds: 3, replicates: 1 };
  const ds = dataset(3, [a, full], [0, 1, 1]);

  it('fills once, hands every seed the same label-free input, and notes the fill', () => {
    const { solver, seen } = recorder('complete', () => ['own note']);
    const { output } = drain(evaluate(ds, solver, {}, 2, opts));
    expect(seen).toHaveLength(3);
    expect(seen[1]).toBe(seen[0]);
    expect(seen[2]).toBe(seen[0]);
    expect('labels' in seen[0]!).toBe(false);
    expect(Array.from(seen[0]!.views[0]!.present)).toEqual([0, 1, 2]);
    expect(output.notes).toEqual(['own note', fillNote(seen[0]!)]);
  });

  it('keeps the solver’s own placement of the fill note, once', () => {
    const { solver } = recorder('complete', (s) => [fillNote(s)!, 'own note']);
    const { output } = drain(evaluate(ds, solver, {}, 2, opts));
    expect(output.notes).toEqual([fillMissing(ds).note, 'own note']);
  });

  it('gives an incomplete-input solver the views as they are', () => {
    const { solver, seen } = recorder('incomplete', () => []);
    // The toy reads view 'c' (complete) so that it can run on unfilled views.
    const reordered = dataset(3, [full, a], [0, 1, 1]);
    const { output } = drain(evaluate(reordered, solver, {}, 2, opts));
    expect(seen[0]!.views[1]).toBe(a);
    expect(seen[0]!.observed).toBeUndefined();
    expect(output.notes).toEqual([]);
  });
});
