/**
 * The contract between a transform algorithm (mixed radix, Bluestein) and the plans that wrap
 * it. A core holds only read-only tables and its own small scratch; the plans own the signal
 * buffers, so one core serves every plan of its length.
 *
 * Inside the cores, complex vectors are interleaved (element j is (v[2j], v[2j + 1])): one
 * array per buffer halves the typed-array accesses V8 has to check and keeps re and im in the
 * same cache line (measured ~12 % faster per pass than split arrays). The public API is split;
 * the plans convert while they copy in and out, which they must do anyway to honour strides.
 */

export type Real = Float64Array;

export interface FftCore {
  /** Transform length. */
  readonly n: number;
  /** Radices of the passes, in order (for Bluestein: of its power-of-two inner transform). */
  readonly factors: readonly number[];
  /**
   * Unnormalised forward DFT X_k = Σ_j x_j e^{−2πijk/n} of the interleaved signal
   * x_j = (src[so + 2j], src[so + 2j + 1]), j < n, using a and b (length ≥ 2n) as work
   * buffers. `src` is only read and may be `a` itself (with so = 0) but not `b`. Returns the
   * buffer holding X (interleaved, from index 0): `a` or `b`.
   */
  run(src: Real, so: number, a: Real, b: Real): Real;
  /**
   * The same transform of `count` signals at once on a panel (`panel.ts`): signal c's element
   * j is (a[2(j·count + c)], a[2(j·count + c) + 1]), j < n. `a` holds the input and is
   * overwritten; `b` (length ≥ 2n·count) is work. Returns the buffer holding the panel of
   * spectra, `a` or `b`. Each signal's spectrum has the bits `run` gives it.
   */
  runPanel(a: Real, b: Real, count: number): Real;
}
