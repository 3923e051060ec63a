/** Reading the numpy/scipy fixtures under test/fixtures/<area>/: JSON matrices to `Mat`. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Mat } from '../../src/core/linalg/types';

/** A matrix as the generator scripts write it: row-major data, repr floats. */
export interface JsonMat {
  rows: number;
  cols: number;
  data: number[];
}

/** test/fixtures/<area>/<file>, parsed. */
export function readFixture<T>(area: string, file: string): T {
  return JSON.parse(
    readFileSync(join(import.meta.dirname, '../fixtures', area, file), 'utf8'),
  ) as T;
}

export const jsonMat = (m: JsonMat): Mat => ({
  rows: m.rows,
  cols: m.cols,
  data: Float64Array.from(m.data),
});

/** max |A − B| / max |B|: a relative error over the whole matrix (shapes must agree). */
export function relDiff(A: Mat, B: Mat): number {
  if (A.rows !== B.rows || A.cols !== B.cols) {
    throw new Error(`shape ${A.rows}x${A.cols} vs ${B.rows}x${B.cols}`);
  }
  let d = 0;
  let s = 0;
  for (let i = 0; i < A.rows * A.cols; i++) {
    d = Math.max(d, Math.abs(A.data[i]! - B.data[i]!));
    s = Math.max(s, Math.abs(B.data[i]!));
  }
  return s === 0 ? d : d / s;
}
