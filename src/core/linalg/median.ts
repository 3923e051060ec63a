/**
 * The median of an array of numbers by selection (Hoare's FIND with a median-of-three pivot),
 * O(m) on average instead of a sort's O(m log m): the same value a sort would give, since the
 * median is one order statistic (odd m) or the mean of two (even m). The array is reordered.
 */

/** Reorders a so that a[k] is its k-th smallest value, a[0..k) ≤ a[k] ≤ a(k..m); returns a[k]. */
export function selectInPlace(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (hi > lo) {
    // Median of three as the pivot, placed at lo … hi's middle.
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < a[lo]!) swap(a, mid, lo);
    if (a[hi]! < a[lo]!) swap(a, hi, lo);
    if (a[hi]! < a[mid]!) swap(a, hi, mid);
    const pivot = a[mid]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        swap(a, i, j);
        i++;
        j--;
      }
    }
    // Now a[lo..j] ≤ pivot ≤ a[i..hi] and every entry strictly between j and i equals the pivot.
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k]!;
  }
  return a[k]!;
}

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i]!;
  a[i] = a[j]!;
  a[j] = t;
}

/**
 * The median of `a` (reordered; NaN-free, non-empty): the middle value for odd length, the mean
 * of the two middle values for even length, as of the sorted array.
 */
export function medianInPlace(a: Float64Array): number {
  const m = a.length;
  if (m === 0) throw new RangeError('medianInPlace: the array is empty');
  const h = m >> 1;
  const upper = selectInPlace(a, h);
  if (m % 2 === 1) return upper;
  // a[0..h) ≤ a[h]: the lower middle value is their largest.
  let lower = a[0]!;
  for (let i = 1; i < h; i++) if (a[i]! > lower) lower = a[i]!;
  return (lower + upper) / 2;
}
