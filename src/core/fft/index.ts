/**
 * FFT of any length, in pure TypeScript (numpy conventions: unnormalised forward
 * X_k = Σ_j x_j e^{−2πijk/n}, inverse scaled by 1/n).
 *
 * - `createFftPlan(n)`: complex transforms, split re/im arrays with offset and stride;
 *   mixed radix 2/3/4/5 + generic odd radix, Bluestein for lengths with a large prime factor.
 * - `createRealFftPlan(n)`: real signals ↔ the ⌊n/2⌋ + 1 non-redundant bins; many columns of
 *   a row-major matrix at once with `forwardColumns` / `inverseColumns` and a `ColumnWork`.
 * - `fftBatch`, `fftColumns`, `rfftBatch`, `irfftBatch`, `rfftColumns`, `irfftColumns`: many
 *   transforms of one length, contiguous or down the columns of a row-major matrix.
 *
 * Plans are cached per length and own their scratch: no allocation per transform.
 */
import { clearComplexFftCache } from './plan';
import { clearRealFftCache } from './real';

export { createFftPlan, chooseAlgorithm } from './plan';
export type { FftAlgorithm, FftPlan } from './plan';
export { ColumnWork, createRealFftPlan } from './real';
export { panelBackend, setPanelBackend } from './panel-run';
export type { PanelBackend } from './panel-run';
export type { RealFftPlan } from './real';
export { fftBatch, fftColumns, irfftBatch, irfftColumns, rfftBatch, rfftColumns } from './batch';

/** Drops every cached plan and table (complex and real); they are rebuilt on demand. */
export function clearFftCache(): void {
  clearRealFftCache();
  clearComplexFftCache();
}
