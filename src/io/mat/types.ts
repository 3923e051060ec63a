/**
 * The variables of a MAT file as a format-neutral tree, produced by both the v5 reader
 * (`v5.ts`) and the v7.3/HDF5 reader (`v73.ts`), and read by the mapper (`../mapper.ts`).
 *
 * All arrays are column-major, as MATLAB stores them: element (i, j) of a 2-D array of
 * dims [m, n] is at index i + j * m. Numeric values are widened to the array's MATLAB class
 * and held as Float64Array whatever the on-disk storage type was.
 */

export type NumericClass =
  | 'double'
  | 'single'
  | 'int8'
  | 'uint8'
  | 'int16'
  | 'uint16'
  | 'int32'
  | 'uint32'
  | 'int64'
  | 'uint64';

export interface MatNumeric {
  readonly type: 'numeric';
  readonly class: NumericClass | 'logical';
  /** MATLAB dims, at least two entries. */
  readonly dims: readonly number[];
  /** Real part, column-major, length = product of dims. */
  readonly re: Float64Array;
  /** Imaginary part when the array is complex. */
  readonly im?: Float64Array;
}

export interface MatSparse {
  readonly type: 'sparse';
  readonly class: 'double' | 'logical';
  /** [rows, cols]. */
  readonly dims: readonly [number, number];
  /** Compressed sparse columns: column j holds entries jc[j] .. jc[j+1]-1 with rows ir[p]. */
  readonly ir: Int32Array;
  readonly jc: Int32Array;
  readonly pr: Float64Array;
  readonly pi?: Float64Array;
}

export interface MatChar {
  readonly type: 'char';
  readonly dims: readonly number[];
  /** The characters in column-major order; for a 1×k row this is the string itself. */
  readonly text: string;
}

export interface MatCell {
  readonly type: 'cell';
  readonly dims: readonly number[];
  /** Elements in column-major order. */
  readonly items: readonly MatValue[];
}

export interface MatStruct {
  readonly type: 'struct';
  readonly dims: readonly number[];
  readonly fields: readonly string[];
  /** One record per element, column-major. */
  readonly items: readonly Readonly<Record<string, MatValue>>[];
}

/** A variable the readers recognise but do not decode (function handle, object, ...). */
export interface MatUnsupported {
  readonly type: 'unsupported';
  /** What it is, e.g. 'function handle', 'object (MCOS)', 'opaque'. */
  readonly what: string;
}

export type MatValue = MatNumeric | MatSparse | MatChar | MatCell | MatStruct | MatUnsupported;

export interface MatFile {
  readonly path: string;
  readonly version: 'v5' | 'v7.3' | 'npz';
  /** The 116-byte descriptive text of the header, trimmed. */
  readonly header: string;
  /** Variables in file order. */
  readonly variables: ReadonlyMap<string, MatValue>;
  /** Problems that did not stop reading (damaged tail, unsupported variables, ...). */
  readonly warnings: readonly string[];
}

/** Thrown for a file that cannot be read at all; the message names the file and the problem. */
export class MatReadError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
    this.name = 'MatReadError';
  }
}

/** Product of dims (number of elements). */
export function numel(dims: readonly number[]): number {
  let p = 1;
  for (const d of dims) p *= d;
  return p;
}

/** Human text for a value's shape and kind, e.g. '2500x3 double', '1x3 cell'. */
export function describe(v: MatValue): string {
  if (v.type === 'unsupported') return v.what;
  const size = v.dims.join('x');
  switch (v.type) {
    case 'numeric':
      return `${size} ${v.class}${v.im ? ' complex' : ''}`;
    case 'sparse':
      return `${size} sparse ${v.class}`;
    case 'char':
      return `${size} char`;
    case 'cell':
      return `${size} cell`;
    case 'struct':
      return `${size} struct`;
  }
}
