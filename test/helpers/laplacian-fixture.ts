/**
 * test/fixtures/graph/laplacian.json (written by laplacian.py beside it): scipy's connected
 * components, Laplacians and eigenvalues of a few weighted graphs.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Csr, Mat } from '../../src/core/linalg/types';

interface CsrJson {
  indptr: number[];
  indices: number[];
  data: number[];
}

export interface LaplacianFixture {
  blocks: {
    n: number;
    W: CsrJson;
    count: number;
    labels: number[];
    laplacian: number[];
    eigenvalues: number[];
  };
  connected: {
    n: number;
    W: CsrJson;
    laplacian: number[];
    eigenvalues: number[];
    bottom4: number[];
  };
  features: { n: number; d: number; c: number; X: number[]; labels: number[] };
}

export function laplacianFixture(): LaplacianFixture {
  const url = new URL('../fixtures/graph/laplacian.json', import.meta.url);
  return JSON.parse(readFileSync(fileURLToPath(url), 'utf8')) as LaplacianFixture;
}

export function csrOf(n: number, j: CsrJson): Csr {
  return {
    rows: n,
    cols: n,
    indptr: Int32Array.from(j.indptr),
    indices: Int32Array.from(j.indices),
    data: Float64Array.from(j.data),
  };
}

export function denseOf(S: Csr): Mat {
  const data = new Float64Array(S.rows * S.cols);
  for (let i = 0; i < S.rows; i++)
    for (let p = S.indptr[i]!; p < S.indptr[i + 1]!; p++)
      data[i * S.cols + S.indices[p]!]! += S.data[p]!;
  return { rows: S.rows, cols: S.cols, data };
}
