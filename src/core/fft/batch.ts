/**
 * Many transforms of one length: contiguous batches and the columns of a row-major matrix.
 *
 * Contiguous batch: signal b occupies [b·dist, b·dist + n) (dist ≥ n leaves gaps, e.g. rows of
 * a wider matrix). Columns: a row-major rows × cols matrix M[i·cols + j]; column j is the
 * strided vector M[j + i·cols], i < rows — the layout of CGL's F̄_v (n × c), whose column
 * DFTs g_{v,s} the factorised T-step needs (spec, "factorisation").
 *
 * Column access: a plan gathers its input into contiguous scratch and scatters its output, so
 * a column transform reads and writes the matrix with stride `cols`. Measured against first
 * transposing blocks of 8 columns into contiguous scratch (the "columns" table of
 * `test/bench/fft.bench.ts`): for the n × c blocks of CGL (n ≤ 16,000, c ≤ 40, ≤ 5 MB) the
 * strided gather is faster (1.2–1.7×) and needs no scratch; only for matrices far beyond the L2
 * cache (50,000 × 20, 8 MB) does blocking win (≈ 1.5×). Each helper costs `count` (or `cols`)
 * transforms and allocates nothing. Faster for many columns: the plans' `forwardColumns` /
 * `inverseColumns` with a caller-owned `ColumnWork` transform all columns together on one panel
 * (`panel.ts`; the same bits; the "columns" table of the benchmark compares the three).
 */
import type { Real } from './core';
import type { FftPlan } from './plan';
import type { RealFftPlan } from './real';

function checkCount(what: string, count: number, dist: number, n: number): void {
  if (!Number.isInteger(count) || count < 0 || !Number.isInteger(dist) || dist < n) {
    throw new RangeError(
      `${what}: need an integer count ≥ 0 and dist ≥ ${n}, got ${count}, ${dist}`,
    );
  }
}

/**
 * In place, for b < count: the DFT (or IDFT when `inverse`) of the complex signal stored at
 * (re, im)[b·dist + j], j < plan.n.
 */
export function fftBatch(
  plan: FftPlan,
  re: Real,
  im: Real,
  count: number,
  dist: number = plan.n,
  inverse = false,
): void {
  checkCount('fftBatch', count, dist, plan.n);
  for (let b = 0; b < count; b++) plan.transform(inverse, re, im, re, im, b * dist, 1, b * dist, 1);
}

/**
 * In place: the DFT (or IDFT) of every column of the row-major plan.n × cols complex matrix
 * (re, im) (element (i, j) at i·cols + j), i.e. along the rows index:
 * Y[s, j] = Σ_i M[i, j] e^{−2πiis/n}.
 */
export function fftColumns(plan: FftPlan, re: Real, im: Real, cols: number, inverse = false): void {
  checkMatrix('fftColumns', re.length, plan.n, cols);
  checkMatrix('fftColumns', im.length, plan.n, cols);
  for (let j = 0; j < cols; j++) plan.transform(inverse, re, im, re, im, j, cols, j, cols);
}

/**
 * For b < count: the real DFT of x[b·xDist + j] (j < plan.n) into
 * (re, im)[b·yDist + k] (k < plan.bins).
 */
export function rfftBatch(
  plan: RealFftPlan,
  x: Real,
  count: number,
  re: Real,
  im: Real,
  xDist: number = plan.n,
  yDist: number = plan.bins,
): void {
  checkCount('rfftBatch', count, xDist, plan.n);
  checkCount('rfftBatch', count, yDist, plan.bins);
  for (let b = 0; b < count; b++) plan.forward(x, re, im, b * xDist, 1, b * yDist, 1);
}

/** For b < count: the inverse real DFT of (re, im)[b·yDist + k] into x[b·xDist + j]. */
export function irfftBatch(
  plan: RealFftPlan,
  re: Real,
  im: Real,
  count: number,
  x: Real,
  yDist: number = plan.bins,
  xDist: number = plan.n,
): void {
  checkCount('irfftBatch', count, xDist, plan.n);
  checkCount('irfftBatch', count, yDist, plan.bins);
  for (let b = 0; b < count; b++) plan.inverse(re, im, x, b * yDist, 1, b * xDist, 1);
}

/**
 * The real DFT of every column of the row-major plan.n × cols real matrix x, into the row-major
 * plan.bins × cols complex matrix (re, im): Y[s, j] = Σ_i x[i, j] e^{−2πiis/n}, s ≤ ⌊n/2⌋.
 */
export function rfftColumns(plan: RealFftPlan, x: Real, cols: number, re: Real, im: Real): void {
  checkMatrix('rfftColumns', x.length, plan.n, cols);
  checkMatrix('rfftColumns', re.length, plan.bins, cols);
  checkMatrix('rfftColumns', im.length, plan.bins, cols);
  for (let j = 0; j < cols; j++) plan.forward(x, re, im, j, cols, j, cols);
}

/** The inverse of `rfftColumns`: (re, im) plan.bins × cols → x plan.n × cols, real. */
export function irfftColumns(plan: RealFftPlan, re: Real, im: Real, cols: number, x: Real): void {
  checkMatrix('irfftColumns', re.length, plan.bins, cols);
  checkMatrix('irfftColumns', im.length, plan.bins, cols);
  checkMatrix('irfftColumns', x.length, plan.n, cols);
  for (let j = 0; j < cols; j++) plan.inverse(re, im, x, j, cols, j, cols);
}

function checkMatrix(what: string, length: number, rows: number, cols: number): void {
  if (!Number.isInteger(cols) || cols < 0 || length < rows * cols) {
    throw new RangeError(
      `${what}: a ${rows} × ${cols} matrix needs ${rows * cols} elements, got ${length}`,
    );
  }
}
