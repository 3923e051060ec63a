/** Argument checks shared by the public FFT entry points (cheap: O(1) per call). */

/** Throws unless n is an integer in [1, 2^40]. */
export function checkLength(what: string, n: number): void {
  if (!Number.isInteger(n) || n < 1 || n > 2 ** 40) {
    throw new RangeError(`${what}: the length must be a positive integer, got ${n}`);
  }
}

/**
 * Throws unless the strided vector a[offset + j·stride], j < count, lies inside an array of
 * `length` elements (any integer stride, including 0 and negative ones).
 */
export function checkStrided(
  what: string,
  name: string,
  length: number,
  count: number,
  offset: number,
  stride: number,
): void {
  const last = offset + (count - 1) * stride;
  if (
    !Number.isInteger(offset) ||
    !Number.isInteger(stride) ||
    offset < 0 ||
    offset >= length ||
    last < 0 ||
    last >= length
  ) {
    throw new RangeError(
      `${what}: ${name}[${offset} + j·${stride}], j < ${count}, reaches index ${last}; ` +
        `${name} has ${length} elements`,
    );
  }
}

/**
 * Throws unless the `count` columns a[offset + j·rowStride + b], j < rows, b < count, lie
 * inside an array of `length` elements, with rowStride ≥ count (columns of a row-major matrix:
 * distinct elements).
 */
export function checkColumns(
  what: string,
  name: string,
  length: number,
  rows: number,
  count: number,
  offset: number,
  rowStride: number,
): void {
  const last = offset + (rows - 1) * rowStride + count - 1;
  if (
    !Number.isInteger(count) ||
    !Number.isInteger(offset) ||
    !Number.isInteger(rowStride) ||
    count < 1 ||
    offset < 0 ||
    rowStride < count ||
    last >= length
  ) {
    throw new RangeError(
      `${what}: ${count} columns ${name}[${offset} + j·${rowStride} + b], j < ${rows}, ` +
        `need count ≥ 1, rowStride ≥ count and index ${last} < ${length}`,
    );
  }
}
