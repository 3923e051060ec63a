/**
 * The two matrix layouts every numerical routine in `core` speaks.
 *
 * `Mat`: dense, row-major. Element (i, j) is `data[i * cols + j]`.
 * `Csr`: compressed sparse rows. Row i holds the entries `indptr[i] .. indptr[i + 1] - 1`,
 * with column indices `indices[p]` (strictly increasing within a row) and values `data[p]`.
 */
export interface Mat {
  readonly rows: number;
  readonly cols: number;
  readonly data: Float64Array;
}

export interface Csr {
  readonly rows: number;
  readonly cols: number;
  readonly indptr: Int32Array;
  readonly indices: Int32Array;
  readonly data: Float64Array;
}

/** A zero-filled row-major matrix. */
export function zeros(rows: number, cols: number): Mat {
  return { rows, cols, data: new Float64Array(rows * cols) };
}

/** Number of stored entries of a CSR matrix. */
export function nnz(m: Csr): number {
  return m.indptr[m.rows] ?? 0;
}
