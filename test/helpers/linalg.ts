/** Shared checks of the core numerics tests: identities and subspace angles. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { matmul, matmulTA, symEig } from '../../src/core/linalg/kernels';
import type { SymOp } from '../../src/core/linalg/linop';
import type { Csr, Mat } from '../../src/core/linalg/types';

export interface CsrJson {
  indptr: number[];
  indices: number[];
  data: number[];
}

export function csr(o: CsrJson, n: number, cols = n): Csr {
  return {
    rows: n,
    cols,
    indptr: Int32Array.from(o.indptr),
    indices: Int32Array.from(o.indices),
    data: Float64Array.from(o.data),
  };
}

export function mat(rows: number, cols: number, values: ArrayLike<number>): Mat {
  return { rows, cols, data: Float64Array.from(values) };
}

/** The graph fixture of test/fixtures/graph/make.py. */
export function graphFixture(): GraphFixture {
  const url = new URL('../fixtures/graph/graph.json', import.meta.url);
  return JSON.parse(readFileSync(fileURLToPath(url), 'utf8')) as GraphFixture;
}

export interface GraphFixture {
  eps: number;
  mixture: {
    X: number[];
    n: number;
    d: number;
    knn: { k: number; indices: number[]; distances: number[] };
    sklearnKnn: number[][] | null;
    pkn: { k: number; rowSums: number[]; W: CsrJson };
    eigenvalues: number[];
    top4: number[];
  };
  components: {
    X: number[];
    n: number;
    d: number;
    k: number;
    components: number;
    W: CsrJson;
    eigenvalues: number[];
  };
  lowrank: { n: number; r: number; S: CsrJson; U: number[]; C: number[]; eigenvalues: number[] };
}

/** max |VᵀV − I|. */
export function orthError(V: Mat): number {
  const G = matmulTA(V, V);
  let e = 0;
  for (let i = 0; i < V.cols; i++)
    for (let j = 0; j < V.cols; j++)
      e = Math.max(e, Math.abs(G.data[i * V.cols + j]! - (i === j ? 1 : 0)));
  return e;
}

/** max_i ‖A·v_i − λ_i·v_i‖₂. */
export function maxResidual(A: SymOp, values: Float64Array, V: Mat): number {
  const AV = { rows: V.rows, cols: V.cols, data: new Float64Array(V.data.length) };
  A.apply(V, AV);
  const r = new Float64Array(V.cols);
  for (let i = 0; i < V.rows; i++)
    for (let j = 0; j < V.cols; j++) {
      const d = AV.data[i * V.cols + j]! - values[j]! * V.data[i * V.cols + j]!;
      r[j]! += d * d;
    }
  return Math.sqrt(Math.max(...r));
}

/**
 * sin of the largest principal angle between span(U) and span(V), both orthonormal n×k:
 * ‖(I − UUᵀ)V‖₂ = √λ_max(PᵀP) with P = V − U(UᵀV).
 */
export function sinMaxAngle(U: Mat, V: Mat): number {
  const C = matmulTA(U, V);
  const UC = matmul(U, C);
  const P = { rows: V.rows, cols: V.cols, data: V.data.map((v, i) => v - UC.data[i]!) };
  const ev = symEig(matmulTA(P, P)).values;
  return Math.sqrt(Math.max(0, ev[ev.length - 1]!));
}

/** Columns of M scaled to unit length (for indicator bases). */
export function normaliseColumns(M: Mat): Mat {
  const data = Float64Array.from(M.data);
  for (let j = 0; j < M.cols; j++) {
    let s = 0;
    for (let i = 0; i < M.rows; i++) s += data[i * M.cols + j]! ** 2;
    for (let i = 0; i < M.rows; i++) data[i * M.cols + j]! /= Math.sqrt(s);
  }
  return { rows: M.rows, cols: M.cols, data };
}

export function maxRelDiff(a: ArrayLike<number>, b: ArrayLike<number>, scale?: number): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) {
    const s = scale ?? Math.max(Math.abs(b[i]!), 1e-300);
    m = Math.max(m, Math.abs(a[i]! - b[i]!) / s);
  }
  return m;
}

/** (n, n) CSR from per-row maps column → value (each row sorted by column here). */
export function csrFromRowMaps(rows: readonly Map<number, number>[]): Csr {
  const n = rows.length;
  const indptr = new Int32Array(n + 1);
  const indices: number[] = [];
  const data: number[] = [];
  rows.forEach((m, i) => {
    for (const [j, v] of [...m].sort((a, b) => a[0] - b[0])) {
      indices.push(j);
      data.push(v);
    }
    indptr[i + 1] = indices.length;
  });
  return {
    rows: n,
    cols: n,
    indptr,
    indices: Int32Array.from(indices),
    data: Float64Array.from(data),
  };
}
