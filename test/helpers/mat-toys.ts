/** Hand-built MAT variable trees for the mapper's decision tests. */
import type { MatCell, MatFile, MatNumeric, MatValue } from '../../src/io/mat/types';

/** A double matrix of `dims` from its values in column-major order. */
export function mat(dims: number[], values: readonly number[]): MatNumeric {
  return { type: 'numeric', class: 'double', dims, re: Float64Array.from(values) };
}

export function cell(items: MatValue[]): MatCell {
  return { type: 'cell', dims: [1, items.length], items };
}

export function matFile(variables: Record<string, MatValue>): MatFile {
  return {
    path: 'toy.mat',
    version: 'v5',
    header: '',
    variables: new Map(Object.entries(variables)),
    warnings: [],
  };
}
