/**
 * The last step of the mapper: each view as an (present_v, d_v) matrix of its present samples,
 * row-major dense or CSR, gathered from the file's column-major storage in either orientation.
 */
import type { View, ViewValues } from '../../core/dataset';
import { DataError, nonFiniteWarning } from '../errors';
import type { MatFile, MatNumeric, MatSparse } from '../mat/types';
import type { Orientation, ViewSource } from './matrix';

/**
 * Builds the views over their present samples (`present[v][s]` = 1), with a warning per view
 * holding non-finite values and one for the samples present in no view.
 */
export function buildViews(
  file: MatFile,
  views: readonly ViewSource[],
  orientation: readonly Orientation[],
  present: readonly Uint8Array[],
  nSamples: number,
): { views: View[]; warnings: string[] } {
  const warnings: string[] = [];
  const built: View[] = views.map((src, v) => {
    const idx: number[] = [];
    const col = present[v]!;
    for (let s = 0; s < nSamples; s++) if (col[s]) idx.push(s);
    const samples = Int32Array.from(idx);
    const o = orientation[v]!;
    if (samples.length === 0) {
      throw new DataError(file.path, `view ${src.name} has no present sample`, {
        variable: src.name,
      });
    }
    const values: ViewValues =
      src.value.type === 'sparse'
        ? sparseRows(src.value, o, samples)
        : (() => {
            const { data, d } = denseRows(src.value, o, samples);
            return { kind: 'dense' as const, rows: samples.length, cols: d, data };
          })();
    if (values.cols === 0) {
      throw new DataError(file.path, `view ${src.name} has no features (d = 0)`, {
        variable: src.name,
      });
    }
    let nonFinite = 0;
    const vals = values.data;
    for (let i = 0; i < vals.length; i++) if (!Number.isFinite(vals[i]!)) nonFinite++;
    if (nonFinite) {
      warnings.push(nonFiniteWarning(src.name, nonFinite));
    }
    return { name: src.name, d: values.cols, values, present: samples };
  });

  const inNone = (() => {
    let k = 0;
    for (let s = 0; s < nSamples; s++) if (present.every((p) => !p[s])) k++;
    return k;
  })();
  if (inNone) warnings.push(`${inNone} samples are present in no view`);
  return { views: built, warnings };
}

/** Dense column-major matrix as (n, d) row-major rows for the given samples. */
function denseRows(
  v: MatNumeric,
  o: Orientation,
  samples: ArrayLike<number>,
): { data: Float64Array; d: number } {
  const [r, c] = [v.dims[0]!, v.dims[1]!];
  const d = o === 'd x n' ? r : c;
  const m = samples.length;
  const out = new Float64Array(m * d);
  const re = v.re;
  if (o === 'd x n') {
    // Column j of a d×n column-major array is sample j's features, contiguous.
    for (let k = 0; k < m; k++) {
      const j = samples[k]!;
      out.set(re.subarray(j * d, j * d + d), k * d);
    }
  } else {
    // n×d column-major: feature f of sample i is at i + f*n. Walk each feature column once.
    for (let f = 0; f < d; f++) {
      const col = f * r;
      for (let k = 0; k < m; k++) out[k * d + f] = re[col + samples[k]!]!;
    }
  }
  return { data: out, d };
}

/** Sparse CSC matrix as CSR (n, d) rows for the given (sorted) samples. */
function sparseRows(
  v: MatSparse,
  o: Orientation,
  samples: Int32Array,
): ViewValues & { kind: 'csr' } {
  const [r, c] = v.dims;
  const m = samples.length;
  if (o === 'd x n') {
    // Columns are samples: CSC columns are already the CSR rows.
    const d = r;
    const indptr = new Int32Array(m + 1);
    for (let k = 0; k < m; k++) {
      const j = samples[k]!;
      indptr[k + 1] = indptr[k]! + (v.jc[j + 1]! - v.jc[j]!);
    }
    const nz = indptr[m]!;
    const indices = new Int32Array(nz);
    const data = new Float64Array(nz);
    for (let k = 0; k < m; k++) {
      const j = samples[k]!;
      indices.set(v.ir.subarray(v.jc[j]!, v.jc[j + 1]!), indptr[k]!);
      data.set(v.pr.subarray(v.jc[j]!, v.jc[j + 1]!), indptr[k]!);
    }
    return { kind: 'csr', rows: m, cols: d, indptr, indices, data };
  }
  // n×d CSC -> CSR by counting entries per row (rows come out sorted by column).
  const d = c;
  const rowOf = new Int32Array(r).fill(-1);
  for (let k = 0; k < m; k++) rowOf[samples[k]!] = k;
  const indptr = new Int32Array(m + 1);
  for (let p = 0; p < v.jc[c]!; p++) {
    const k = rowOf[v.ir[p]!]!;
    if (k >= 0) indptr[k + 1]!++;
  }
  for (let k = 0; k < m; k++) indptr[k + 1]! += indptr[k]!;
  const fill = indptr.slice(0, m);
  const indices = new Int32Array(indptr[m]!);
  const data = new Float64Array(indptr[m]!);
  for (let j = 0; j < c; j++) {
    for (let p = v.jc[j]!; p < v.jc[j + 1]!; p++) {
      const k = rowOf[v.ir[p]!]!;
      if (k < 0) continue;
      const at = fill[k]!++;
      indices[at] = j;
      data[at] = v.pr[p]!;
    }
  }
  return { kind: 'csr', rows: m, cols: d, indptr, indices, data };
}
