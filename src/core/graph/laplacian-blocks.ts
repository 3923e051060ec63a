/**
 * The c + 1 smallest eigenpairs of a graph Laplacian L = diag(S·1) − S, using its components.
 * L is block diagonal over the connected components of S's nonzero pattern (any sign), so its
 * spectrum is the union of the components' spectra and each eigenvector of a component's
 * Laplacian, padded with zeros, is one of L. Two routes:
 * - one component: the block eigensolver on L for c + 1 pairs (relative tolerance 1e-12, the
 *   (c+1)-th for its value only), warm-started from the previous solve's whole block (or F);
 * - several components: component by component, each one's wanted values (densely by
 *   `symEigValues` up to DENSE_MAX samples, the accuracy of the reference's full decomposition;
 *   a larger one by the block eigensolver on its own block, started from its rows of the
 *   previous solve's block), the c + 1 smallest of their union,
 *   then vectors only for the components that give one of the c smallest (a zero of a
 *   nonnegative component is its normalised indicator, exactly). When S ≥ 0 has m components,
 *   each holds a zero, so a component gives at most c + 2 − m of the c + 1 smallest: with many
 *   components every block asks for few pairs.
 * Where eigenvalues tie (the zeros when m > 1) the basis differs from a full decomposition's, but
 * every quantity MVGL takes from F (row distances, the c-th and (c+1)-th sums) is invariant under
 * a rotation of an eigenspace. No n × n array is formed on any route.
 */
import { blockEig, csrOp, defaultBlockWidth } from '../linalg/blockeig';
import { symEigSelect, symEigValues } from '../linalg/kernels';
import type { Csr, Mat } from '../linalg/types';
import { connectedComponents } from './components';

/** Components up to this size are decomposed densely. */
export const DENSE_MAX = 160;

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
  const { count, labels } = connectedComponents(L, 'nonzero');
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

/** The residual tolerance of the vectors, relative to ‖L‖. */
const TOL = 1e-12;
/**
 * The (c+1)-th pair is wanted for its value only (s_{c+1} and the rank decisions; F holds the
 * c smallest vectors): it stops at a residual of VALUE_TOL·|λ|, which leaves the value a
 * relative error of about VALUE_TOL²·|λ|/δ (δ its distance to the next eigenvalue). A value
 * close to the next ones (a cluster at the filter's cut) would otherwise cost most of a solve.
 */
const VALUE_TOL = 1e-6;

/**
 * The c + 1 smallest eigenvalues (ascending) of the Laplacian L (CSR, from `laplacianOf`) of a
 * symmetric S and the (n, c) eigenvectors of the c smallest; `nonnegative` says S ≥ 0. `warm`
 * starts the block eigensolver (at most its block's width of columns; on the per-component route
 * each component starts from its rows of `warm`); `block` is the final block (per component:
 * the components' blocks side by side), the warm start for a solve on a nearby graph;
 * `matvecs` counts the eigensolver's products with single vectors (0 where all was dense).
 */
export function blockedBottomPairs(
  L: Csr,
  c: number,
  nonnegative: boolean,
  warm: Mat | null,
): { values: Float64Array; F: Mat; block: Mat | null; matvecs: number } {
  const G = groups(L);
  if (G.count > 1) return perComponent(L, G, c, nonnegative, warm);
  const r = blockEig(csrOp(L), c + 1, {
    which: 'smallest',
    tol: TOL,
    valuesFrom: { from: c, tol: VALUE_TOL },
    keepBlock: true,
    ...(warm ? { X0: warm } : {}),
  });
  const F: Mat = { rows: L.rows, cols: c, data: new Float64Array(L.rows * c) };
  for (let i = 0; i < L.rows; i++) {
    for (let j = 0; j < c; j++) F.data[i * c + j] = r.vectors.data[i * (c + 1) + j]!;
  }
  return { values: Float64Array.from(r.values), F, block: r.block ?? null, matvecs: r.matvecs };
}

interface Candidate {
  readonly value: number;
  readonly g: number;
  /** Index among the component's eigenvalues (ascending). */
  readonly j: number;
}

/**
 * Component by component: the wanted values of each (dense values-only up to DENSE_MAX samples
 * or when more than half its spectrum is wanted, else the block eigensolver from the
 * component's rows of `warm`), the c + 1 smallest of their union, then the vectors of the c
 * smallest: a zero of a nonnegative component is its normalised indicator, any other the
 * component's eigenvector. A component's last wanted pair (index want − 1) is at best the
 * (c+1)-th of the union (the component's want − 1 smaller values and, when S ≥ 0, every other
 * component's zero come first), so it is solved for its value only; should ties in the sort
 * ever need its vector, the component is solved again for it.
 */
function perComponent(
  L: Csr,
  G: Groups,
  c: number,
  nonnegative: boolean,
  warm: Mat | null,
): { values: Float64Array; F: Mat; block: Mat | null; matvecs: number } {
  const n = L.rows;
  let matvecs = 0;
  const want = nonnegative ? Math.min(c + 1, c + 2 - Math.min(G.count, c + 1)) : c + 1;
  const cands: Candidate[] = [];
  const vecs = new Map<number, Mat>();
  const blocks = new Map<number, Mat>();
  /** Components whose last pair was solved for its value only. */
  const valueOnly = new Set<number>();
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
    if (s <= DENSE_MAX || 2 * r > s) values = symEigValues(toDense(B));
    else {
      const members = G.order.subarray(G.start[g]!, G.start[g + 1]!);
      const X0 = warm ? restrict(warm, members, Math.min(s, defaultBlockWidth(r))) : null;
      const e = blockEig(csrOp(B), r, {
        which: 'smallest',
        tol: TOL,
        ...(r === want ? { valuesFrom: { from: r - 1, tol: VALUE_TOL } } : {}),
        keepBlock: true,
        ...(X0 ? { X0 } : {}),
      });
      matvecs += e.matvecs;
      if (e.block) blocks.set(g, e.block);
      if (r === want) valueOnly.add(g);
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
    if (V && j === want - 1 && valueOnly.has(g)) {
      const e = blockEig(csrOp(block(L, G, g)), want, {
        which: 'smallest',
        tol: TOL,
        X0: blocks.get(g)!,
      });
      matvecs += e.matvecs;
      V = e.vectors;
      vecs.set(g, V);
      valueOnly.delete(g);
    }
    if (!V) {
      V = symEigSelect(toDense(block(L, G, g)), Math.min(s, want), 'lowest').vectors;
      vecs.set(g, V);
    }
    for (let a = 0; a < s; a++) F.data[members[a]! * c + col] = V.data[a * V.cols + j]!;
  }
  return { values, F, block: stack(G, blocks, n), matvecs };
}

/**
 * The components' final blocks side by side in one (n, w) block, w the widest (component g's
 * rows hold its block, zero-padded; a component solved densely holds its indicator in column 0):
 * restricted to a component it is that component's block, the start for its next solve. Null
 * when no component went through the eigensolver.
 */
function stack(G: Groups, blocks: Map<number, Mat>, n: number): Mat | null {
  if (blocks.size === 0) return null;
  let w = 0;
  for (const B of blocks.values()) w = Math.max(w, B.cols);
  const X: Mat = { rows: n, cols: w, data: new Float64Array(n * w) };
  for (let g = 0; g < G.count; g++) {
    const members = G.order.subarray(G.start[g]!, G.start[g + 1]!);
    const B = blocks.get(g);
    if (!B) {
      for (const i of members) X.data[i * w] = 1 / Math.sqrt(members.length);
      continue;
    }
    for (let a = 0; a < members.length; a++) {
      const o = members[a]! * w;
      for (let j = 0; j < B.cols; j++) X.data[o + j] = B.data[a * B.cols + j]!;
    }
  }
  return X;
}

/** The rows `members` of W, its first min(cols, W.cols) columns: (members, ·). */
function restrict(W: Mat, members: Int32Array, cols: number): Mat {
  const m = Math.min(cols, W.cols);
  const s = members.length;
  const X: Mat = { rows: s, cols: m, data: new Float64Array(s * m) };
  for (let a = 0; a < s; a++) {
    const o = members[a]! * W.cols;
    for (let j = 0; j < m; j++) X.data[a * m + j] = W.data[o + j]!;
  }
  return X;
}
