/**
 * The line series of the results' typed charts (`RunResult.charts`, declared by the solver in
 * core/solvers/types.ts): what RunResults.svelte hands to `linesChart`. Nothing here reads
 * diagnostics or guesses from a method's name: a chart is drawn when the solver offers it.
 */
import type { SpectrumChart, WeightsChart } from '../../../shared/contract';

export type SlicesSpectrum = Extract<SpectrumChart, { kind: 'slices' }>;

/** One line: y over x (x and y of equal length). */
export interface Line {
  readonly label: string;
  readonly x: readonly number[];
  readonly y: readonly number[];
  /** Which item of the chart the line belongs to (the colour), and whether it is dashed. */
  readonly index: number;
  readonly dashed: boolean;
}

/** Transposes slices × values into values × slices; a shorter slice leaves a gap (NaN). */
function byIndex(m: readonly (readonly number[])[]): number[][] {
  const width = Math.max(0, ...m.map((r) => r.length));
  return Array.from({ length: width }, (_, i) => m.map((r) => r[i] ?? NaN));
}

/**
 * A sliced spectrum as one line per singular-value index over the slices (σ_i), then one
 * dashed line per index of what the shrinkage kept.
 */
export function spectrumLines(chart: SlicesSpectrum): Line[] {
  const x = chart.slices;
  return [
    ...byIndex(chart.sigma).map((y, i) => ({ label: `σ${i + 1}`, x, y, index: i, dashed: false })),
    ...byIndex(chart.kept ?? []).map((y, i) => ({
      label: `σ${i + 1} kept`,
      x,
      y,
      index: i,
      dashed: true,
    })),
  ];
}

/** A weights chart's history as one line per item over iterations 1..T; empty without one. */
export function weightTraceLines(chart: WeightsChart): Line[] {
  const trace = chart.trace ?? [];
  if (trace.length === 0) return [];
  const x = trace.map((_, t) => t + 1);
  return chart.labels.map((label, j) => ({
    label,
    x,
    y: trace.map((row) => row[j] ?? NaN),
    index: j,
    dashed: false,
  }));
}
