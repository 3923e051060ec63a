/**
 * The common input layer's unit-L2 scaling (views/incomplete-input.ts) in the reference's own
 * arithmetic, for methods whose decisions hang on the last bits of the normalised values:
 * the IMVC-CBG code's `NormalizeData` divides each sample by max(1e-12, norm(x)), and GNU
 * Octave's `norm` of a vector is a scaled sum of squares (scale s = the largest |x_j| so far,
 * sum of (|x_j| / s)², result s·√sum). APMC ranks anchors by squared distances that often tie
 * up to rounding (text counts with no common word: D = ‖x‖² + ‖a‖²), so the rounding of ‖a‖²
 * decides its neighbours; with these bits its similarity equals the reference's. Mathematically
 * the same as `unitRowsView`; the values differ from it by an ulp or two.
 */
import type { View } from '../dataset';
import { REFERENCE_NORM_FLOOR } from './incomplete-input';

/**
 * ‖x‖₂ of `x[from .. to)` as Octave's `norm` accumulates it (scaled, one pass, left to right):
 * no overflow or underflow for any finite entries. O(to − from).
 */
export function scaledNorm2(x: Float64Array, from = 0, to = x.length): number {
  let scale = 0;
  let sum = 1;
  for (let j = from; j < to; j++) {
    const t = Math.abs(x[j]!);
    if (t === scale) sum += 1;
    else if (t > scale) {
      const r = scale / t;
      sum = sum * (r * r) + 1;
      scale = t;
    } else if (t !== 0) {
      const r = t / scale;
      sum += r * r;
    }
  }
  return scale * Math.sqrt(sum);
}

/**
 * `view` with each present sample divided by max(1e-12, scaledNorm2(sample)): the reference's
 * `x ./ max(1e-12, norm(x))`, bit for bit (a division, not a product with the reciprocal).
 * A new values array of the same kind (CSR: the stored values, zeros do not change the norm).
 * O(nnz).
 */
export function referenceUnitRowsView(view: View): View {
  const x = view.values;
  const data = new Float64Array(x.data.length);
  for (let r = 0; r < view.present.length; r++) {
    const from = x.kind === 'dense' ? r * x.cols : x.indptr[r]!;
    const to = x.kind === 'dense' ? (r + 1) * x.cols : x.indptr[r + 1]!;
    const den = Math.max(REFERENCE_NORM_FLOOR, scaledNorm2(x.data, from, to));
    for (let j = from; j < to; j++) data[j] = x.data[j]! / den;
  }
  return { ...view, values: { ...x, data } };
}
