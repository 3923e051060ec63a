/**
 * What every decision of the mapper shares: the variables that can be views or labels (real
 * 2-D matrices, dense or sparse), how a matrix is oriented, and which names are masks.
 */
import type { MatFile, MatNumeric, MatSparse, MatValue } from '../mat/types';
import { describe } from '../mat/types';
import { DataError } from '../errors';

/** A variable that can be a view: a real 2-D dense matrix or a sparse one (column-major). */
export type Matrix = MatNumeric | MatSparse;
/** 'n x d': samples are rows; 'd x n': samples are columns. */
export type Orientation = 'n x d' | 'd x n';

/** A view found in the file, named as the user would address it (`X{2}`, `V1`). */
export interface ViewSource {
  name: string;
  value: Matrix;
}

/** A real 2-D matrix: complex data are never views or labels (their imaginary part matters). */
export function isMatrix(v: MatValue | undefined): v is Matrix {
  return (
    v !== undefined &&
    !isComplex(v) &&
    (v.type === 'sparse' || (v.type === 'numeric' && v.dims.length === 2))
  );
}

export function isComplex(v: MatValue): boolean {
  return (
    (v.type === 'numeric' && v.im !== undefined) || (v.type === 'sparse' && v.pi !== undefined)
  );
}

const COMPLEX = 'complex values are not supported';

/** Refuses a complex variable the user named as a view or as the labels. */
export function refuseComplex(file: MatFile, name: string, v: MatValue): void {
  if (isComplex(v)) {
    throw new DataError(file.path, `'${name}' is a ${describe(v)} array: ${COMPLEX}`, {
      variable: name,
    });
  }
}

/** A warning per complex variable (top level or in a cell), since none can be used. */
export function complexWarnings(file: MatFile): string[] {
  const out: string[] = [];
  for (const [name, v] of file.variables) {
    if (isComplex(v)) out.push(`variable '${name}': ${COMPLEX}; it was skipped`);
    else if (v.type === 'cell') {
      v.items.forEach((item, i) => {
        if (isComplex(item)) out.push(`${name}{${i + 1}}: ${COMPLEX}; it was skipped`);
      });
    }
  }
  return out;
}

export function dims2(v: Matrix): [number, number] {
  return [v.dims[0]!, v.dims[1]!];
}

/** Names of missing-view mask variables (`folds`, `per10`, `W`, `missing...`). */
export function isMaskName(name: string): boolean {
  return /^(folds?|per\d*|miss\d*|mask\d*|W)$/i.test(name) || /^missing/i.test(name);
}
