/**
 * The c + 1 smallest eigenpairs of a graph Laplacian L = diag(S·1) − S, using its components.
 * L is block diagonal over the connected components of S's nonzero pattern (any sign), so its
 * spectrum is the union of the components' spectra and each eigenvector of a component's
 * Laplacian, padded with zeros, is one of L. Three routes:
 * - every component ≤ DENSE_MAX samples: each component's eigenvalues densely (`symEigValues`,
 *   the accuracy of the reference's full decomposition), the c + 1 smallest of their union, then
 *   vectors only for the components that give one of the c smallest (a zero of a nonnegative
 *   component is its normalised indicator, exactly);
 * - S ≥ 0 with m ≤ c components: the null space is the m indicators Q (exact); the other
 *   c + 1 − m pairs are the smallest of L + σ·Q·Qᵀ (σ = 2·max degree ≥ λ_max) by the block
 *   eigensolver (relative tolerance 1e-12), warm-started from the previous F with Q projected out;
 * - otherwise (signed weights): the block eigensolver on L for c + 1 pairs, warm-started.
 * Where eigenvalues tie (the zeros when m > 1) the basis differs from a full decomposition's, but
 * every quantity MVGL takes from F (row distances, the c-th and (c+1)-th sums) is invariant under
 * a rotation of an eigenspace. No n × n array is formed on any route.
 */
import { blockEig, csrOp } from '../linalg/blockeig';
import { symEigSelect, symEigValues } from '../linalg/kernels';
import type { Csr, Mat } from '../linalg/types';

/** Components up to this size are decomposed densely. */
export const DENSE_MAX = 160;

/** Cap on the deflated route's extra block columns (one per component). */
const BLOCK_EXTRA = 16;

/** Connected components of the nonzero pattern of the symmetric S (any sign joins). */
export function patternComponents(S: Csr): { count: number; labels: Int32Array } {
  const n = S.rows;
  const labels = new Int32Array(n).fill(-1);
  const stack = new Int32Array(n);
  let count = 0;
  for (let s = 0; s < n; s++) {
    if (labels[s] !== -1) continue;
    let top = 0;
    stack[top++] = s;
    labels[s] = count;
    while (top > 0) {
      const i = stack[--top]!;
      for (let p = S.indptr[i]!; p < S.indptr[i + 1]!; p++) {
        const j = S.indices[p]!;
        if (S.data[p]! !== 0 && labels[j] === -1) {
          labels[j] = count;
          stack[top++] = j;
        }
      }
    }
    count++;
  }
  return { count, labels };
}

/** The members of each component, grouped: component g is order[start[g] .. start[g + 1]). */
interface Groups {
  readonly count: number;
  readonly start: Int32Array;
  readonly order: Int32Array;
  /** Position of each sample within its component. */
  readonly local: Int32Array;
  readonly largest: number;
}

function groups(L: Csr): Groups {
  const n = L.rows;
  const { count, labels } = patternComponents(L);
  const start = new Int32Array(count + 1);
  for (let i = 0; i < n; i++) start[labels[i]! + 1]!++;
  let largest = 0;
  for (let g = 0; g < count; g++) {
    largest = Math.max(largest, start[g + 1]!);
    start[g + 1]! += start[g]!;
  }
  const order = new Int32Array(n);
  const local = new Int32Array(n);
  const fill = start.slice(0, count);
  for (let i = 0; i < n; i++) {
    const g = labels[i]!;
    local[i] = fill[g]! - start[g]!;
    order[fill[g]!++] = i;
  }
  return { count, start, order, local, largest };
}

/** Component g's Laplacian block on local indices (rows of L keep their sorted order). */
function block(L: Csr, G: Groups, g: number): Csr {
  const members = G.order.subarray(G.start[g]!, G.start[g + 1]!);
  const s = members.length;
  let nnz = 0;
  for (const i of members) nnz += L.indptr[i + 1]! - L.indptr[i]!;
  const indptr = new Int32Array(s + 1);
  const indices = new Int32Array(nnz);
  const data = new Float64Array(nnz);
  let q = 0;
  for (let a = 0; a < s; a++) {
    const i = members[a]!;
    for (let p = L.indptr[i]!; p < L.indptr[i + 1]!; p++) {
      indices[q] = G.local[L.indices[p]!]!;
      data[q++] = L.data[p]!;
    }
    indptr[a + 1] = q;
  }
  return { rows: s, cols: s, indptr, indices, data };
}

function toDense(B: Csr): Mat {
  const s = B.rows;
  const A: Mat = { rows: s, cols: s, data: new Float64Array(s * s) };
  for (let a = 0; a < s; a++) {
    for (let p = B.indptr[a]!; p < B.indptr[a + 1]!; p++)
      A.data[a * s + B.indices[p]!] = B.data[p]!;
  }
  return A;
}

/**
 * The c + 1 smallest eigenvalues (ascending) of the Laplacian L (CSR, from `laplacianOf`) of a
 * symmetric S and the (n, c) eigenvectors of the c smallest; `nonnegative` says S ≥ 0.
 */
export function blockedBottomPairs(
  L: Csr,
  c: number,
  nonnegative: boolean,
  warm: Mat | null,
): { values: Float64Array; F: Mat } {
  const G = groups(L);
  if (G.largest <= DENSE_MAX) return perComponent(L, G, c, nonnegative);
  if (nonnegative && G.count <= c) return deflated(L, G, c, warm);
  if (G.count === 1) {
    const r = blockEig(csrOp(L), c + 1, {
      which: 'smallest',
      tol: 1e-12,
      ...(warm && warm.cols <= c + 1 ? { X0: warm } : {}),
    });
    const F: Mat = { rows: L.rows, cols: c, data: new Float64Array(L.rows * c) };
    for (let i = 0; i < L.rows; i++) {
      for (let j = 0; j < c; j++) F.data[i * c + j] = r.vectors.data[i * (c + 1) + j]!;
    }
    return { values: Float64Array.from(r.values), F };
  }
  return perComponent(L, G, c, nonnegative);
}

interface Candidate {
  readonly value: number;
  readonly g: number;
  /** Index among the component's eigenvalues (ascending). */
  readonly j: number;
}

/**
 * Component by component: the wanted values of each (dense values-only below DENSE_MAX, else the
 * block eigensolver), the c + 1 smallest of their union, then the vectors of the c smallest:
 * a zero of a nonnegative component is its normalised indicator, any other the component's
 * eigenvector.
 */
function perComponent(
  L: Csr,
  G: Groups,
  c: number,
  nonnegative: boolean,
): { values: Float64Array; F: Mat } {
  const n = L.rows;
  const want = nonnegative ? Math.min(c + 1, c + 2 - Math.min(G.count, c + 1)) : c + 1;
  const cands: Candidate[] = [];
  const vecs = new Map<number, Mat>();
  const size = (g: number): number => G.start[g + 1]! - G.start[g]!;
  for (let g = 0; g < G.count; g++) {
    const s = size(g);
    const r = Math.min(s, want);
    if (s === 1) {
      cands.push({ value: 0, g, j: 0 });
      continue;
    }
    const B = block(L, G, g);
    let values: ArrayLike<number>;
    if (s <= DENSE_MAX) values = symEigValues(toDense(B));
    else {
      const e = blockEig(csrOp(B), r, { which: 'smallest', tol: 1e-12 });
      values = e.values;
      vecs.set(g, e.vectors);
    }
    for (let j = 0; j < r; j++) cands.push({ value: values[j]!, g, j });
  }
  cands.sort((x, y) => x.value - y.value);
  const values = new Float64Array(c + 1);
  for (let j = 0; j <= c && j < cands.length; j++) values[j] = cands[j]!.value;
  const F: Mat = { rows: n, cols: c, data: new Float64Array(n * c) };
  for (let col = 0; col < c && col < cands.length; col++) {
    const { g, j } = cands[col]!;
    const members = G.order.subarray(G.start[g]!, G.start[g + 1]!);
    const s = members.length;
    if (s === 1 || (nonnegative && j === 0)) {
      for (const i of members) F.data[i * c + col] = 1 / Math.sqrt(s);
      continue;
    }
    let V = vecs.get(g);
    if (!V) {
      V = symEigSelect(toDense(block(L, G, g)), Math.min(s, want), 'lowest').vectors;
      vecs.set(g, V);
    }
    for (let a = 0; a < s; a++) F.data[members[a]! * c + col] = V.data[a * V.cols + j]!;
  }
  return { values, F };
}

/**
 * S ≥ 0 with m ≤ c components: L's null space is spanned by the m normalised indicators Q
 * (exact), and the other c + 1 − m wanted pairs are the smallest of L + σ·Q·Qᵀ (σ ≥ λ_max by
 * Gershgorin, 2·max degree, lifts the null space to the top) by the block eigensolver, warm-started
 * from the previous F with Q projected out.
 */
function deflated(
  L: Csr,
  G: Groups,
  c: number,
  warm: Mat | null,
): { values: Float64Array; F: Mat } {
  const n = L.rows;
  const m = G.count;
  const label = new Int32Array(n);
  const scale = new Float64Array(m);
  for (let g = 0; g < m; g++) {
    scale[g] = 1 / Math.sqrt(G.start[g + 1]! - G.start[g]!);
    for (let p = G.start[g]!; p < G.start[g + 1]!; p++) label[G.order[p]!] = g;
  }
  let deg = 0;
  for (let i = 0; i < n; i++) {
    for (let p = L.indptr[i]!; p < L.indptr[i + 1]!; p++) {
      if (L.indices[p] === i) deg = Math.max(deg, L.data[p]!);
    }
  }
  const sigma = 2 * deg;
  const base = csrOp(L);
  let proj = new Float64Array(0);
  /** P ← Qᵀ·X (m × b). */
  const project = (X: Mat): Float64Array => {
    const b = X.cols;
    if (proj.length < m * b) proj = new Float64Array(m * b);
    proj.fill(0, 0, m * b);
    for (let i = 0; i < n; i++) {
      const o = label[i]! * b;
      const fi = scale[label[i]!]!;
      const x = i * b;
      for (let t = 0; t < b; t++) proj[o + t]! += fi * X.data[x + t]!;
    }
    return proj;
  };
  const f = new Float64Array(n);
  for (let i = 0; i < n; i++) f[i] = scale[label[i]!]!;
  const op = {
    n,
    apply(X: Mat, Y: Mat): void {
      base.apply(X, Y);
      const b = X.cols;
      const P = project(X);
      for (let g = 0; g < m * b; g++) P[g]! *= sigma;
      for (let i = 0; i < n; i++) {
        const o = label[i]! * b;
        const fi = f[i]!;
        const y = i * b;
        for (let t = 0; t < b; t++) Y.data[y + t]! += fi * P[o + t]!;
      }
    },
  };
  const k = c + 1 - m;
  let X0: Mat | null = null;
  if (warm) {
    // Q projected out of the previous F; its strongest columns start the iteration.
    const w = warm.cols;
    const Xp: Mat = { rows: n, cols: w, data: Float64Array.from(warm.data) };
    const P = project(Xp);
    for (let i = 0; i < n; i++) {
      const o = label[i]! * w;
      const f = scale[label[i]!]!;
      for (let t = 0; t < w; t++) Xp.data[i * w + t]! -= f * P[o + t]!;
    }
    const norms = Array.from({ length: w }, (_, t) => {
      let s = 0;
      for (let i = 0; i < n; i++) s += Xp.data[i * w + t]! ** 2;
      return { t, s };
    })
      .filter((x) => x.s > 1e-8)
      .sort((x, y) => y.s - x.s)
      .slice(0, k);
    if (norms.length > 0) {
      const q = norms.length;
      X0 = { rows: n, cols: q, data: new Float64Array(n * q) };
      for (let i = 0; i < n; i++) {
        for (let a = 0; a < q; a++) X0.data[i * q + a] = Xp.data[i * w + norms[a]!.t]!;
      }
    }
  }
  // The other components' lowest nonzero eigenvalues crowd λ_{c+1} (one each): a block wide
  // enough to hold them keeps the filter's gap open.
  const blockSize = Math.min(n, k + Math.max(3, Math.ceil(k / 4)) + Math.min(m, BLOCK_EXTRA));
  const r = blockEig(op, k, {
    which: 'smallest',
    tol: 1e-12,
    blockSize,
    ...(X0 ? { X0 } : {}),
  });
  const values = new Float64Array(c + 1);
  values.set(r.values, m);
  const F: Mat = { rows: n, cols: c, data: new Float64Array(n * c) };
  for (let i = 0; i < n; i++) {
    F.data[i * c + label[i]!] = scale[label[i]!]!;
    for (let j = 0; j < c - m; j++) F.data[i * c + m + j] = r.vectors.data[i * k + j]!;
  }
  return { values, F };
}
