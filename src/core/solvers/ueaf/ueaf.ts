/**
 * UEAF (Wen et al., AAAI 2019), the math: the feature graphs, the seeded start and the
 * iteration of the reference `UEAF.m` as a generator of steps (README.md has the equations).
 *
 * Shapes, with the reference's d_v × n matrices stored transposed (rows = samples):
 *   views[v].values: (n_v, d_v) the present samples, unit L2; missing[v]: (m_v,) the others;
 *   E[v]: (d_v, m_v) the inferred missing samples, as in the reference;
 *   U[v]: (d_v, c); P: (n, c) the consensus embedding (the reference's Pᵀ); F: (n, c);
 *   S: (n, n) the learnt sample graph; A = I + λ2·L_{S∘S}: (n, n).
 * The feature graph W_v (d_v × d_v, binary kNN over the rows of the reference's X_v) is sparse;
 * (I + λ1·L_v)⁻¹ is applied by preconditioned CG on it, never formed.
 */
import type { View } from '../../dataset';
import { binaryKnnGraph } from '../../graph/knn-binary';
import { shiftedLaplacianSolve } from '../../graph/laplacian-solve';
import { choleskyFactor, choleskySolve } from '../../linalg/chol';
import { transposeInto } from '../../linalg/dense';
import { symEigSelect } from '../../linalg/eig';
import { matmul, matmulTA, matmulTB } from '../../linalg/gemm';
import { gatherRows } from '../../linalg/rows';
import { projectSimplexNewtonAt } from '../../linalg/simplex';
import { spmm, spmmTA, transposeCsr } from '../../linalg/sparse';
import { procrustes, thinSvd } from '../../linalg/svd';
import type { Csr, Mat } from '../../linalg/types';
import type { Rng } from '../../random';
import type { SolverStep } from '../types';

/** The reference's floor on P-distances in the S-step: S_ij ∝ Df_ij / max(Dp_ij, 1e-10). */
export const DISTANCE_FLOOR = 1e-10;

export interface UeafOptions {
  readonly lambda1: number;
  readonly lambda2: number;
  readonly lambda3: number;
  readonly r: number;
  /** Embedding dimension c of P and F. */
  readonly dim: number;
  readonly knn: number;
  readonly iterations: number;
  readonly tol: number;
}

/** One view as the iteration holds it. */
interface ViewState {
  readonly x: View['values'];
  readonly present: Int32Array;
  readonly missing: Int32Array;
  readonly d: number;
  /** W_v: (d_v, d_v) binary symmetric feature graph. */
  readonly graph: Csr;
  /** Σ_r ‖x_r‖² over the present samples. */
  readonly norm2: number;
  U: Mat;
  E: Mat;
}

export interface UeafResult {
  /** (n, c) P with each nonzero row scaled to unit L2 (the reference demo's embedding). */
  readonly embedding: Mat;
  readonly objective: number[];
  readonly converged: boolean;
  /** Final view weights α_v (sum 1). */
  readonly alpha: number[];
  /** α_v after each iteration. */
  readonly alphaTrace: number[][];
  /** Per view: d_v and tr(L_v) = nnz(W_v), the reference's `graph_checks`. */
  readonly graphChecks: { readonly size: number[]; readonly trace: number[] };
  /** Singular values of P (c × n in the reference), descending. */
  readonly singularValues: number[];
  /** Most CG iterations one E-step column took. */
  readonly cgIterations: number;
}

/** The missing samples of a view: 0..n−1 without `present` (sorted). O(n). */
export function missingOf(present: Int32Array, n: number): Int32Array {
  const out = new Int32Array(n - present.length);
  let p = 0;
  let q = 0;
  for (let i = 0; i < n; i++) {
    if (p < present.length && present[p] === i) p++;
    else out[q++] = i;
  }
  return out;
}

/**
 * W_v of the reference demo: `constructW` (KNN, Binary) on the d_v × n matrix X_v, i.e. the
 * features are the points and the samples their coordinates (the missing samples, all zero,
 * add nothing to a distance, so the present block suffices). O(d_v²·n_v) for the kNN.
 */
export function featureGraph(x: View['values'], knn: number): Csr {
  const t = x.kind === 'csr' ? transposeCsr(x) : transposeInto(x);
  return binaryKnnGraph(t, knn);
}

function uniformMat(rows: number, cols: number, rng: Rng): Mat {
  const data = new Float64Array(rows * cols);
  for (let i = 0; i < data.length; i++) data[i] = rng.next();
  return { rows, cols, data };
}

/** Xf·U (n_v rows of the present block, then the m_v inferred rows), accumulated into T. */
function addProjection(T: Mat, s: ViewState, weight: number): void {
  const c = T.cols;
  const xu = s.x.kind === 'csr' ? spmm(s.x, s.U) : matmul(s.x, s.U);
  const eu = matmulTA(s.E, s.U);
  const t = T.data;
  for (let r = 0; r < s.present.length; r++) {
    const o = s.present[r]! * c;
    for (let j = 0; j < c; j++) t[o + j]! += weight * xu.data[r * c + j]!;
  }
  for (let r = 0; r < s.missing.length; r++) {
    const o = s.missing[r]! * c;
    for (let j = 0; j < c; j++) t[o + j]! += weight * eu.data[r * c + j]!;
  }
}

/** Σ_ij A_ij·B_ij of two equally shaped matrices. */
function inner(A: Mat, B: Mat): number {
  let s = 0;
  for (let i = 0; i < A.data.length; i++) s += A.data[i]! * B.data[i]!;
  return s;
}

/** tr(Eᵀ·L·E) for E (d, m) and L = D − W, W the binary graph: Σ_i deg_i‖E_i‖² − ⟨E, W·E⟩. */
function laplacianForm(W: Csr, E: Mat): number {
  const m = E.cols;
  const WE = spmm(W, E);
  let s = 0;
  for (let i = 0; i < W.rows; i++) {
    const deg = W.indptr[i + 1]! - W.indptr[i]!;
    for (let j = i * m; j < (i + 1) * m; j++) s += E.data[j]! * (deg * E.data[j]! - WE.data[j]!);
  }
  return s;
}

/** The reference's guards after a product: NaN → 0, ±Inf → `big`. */
function sanitise(M: Mat, big: number): void {
  const a = M.data;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    if (Number.isNaN(x)) a[i] = 0;
    else if (!Number.isFinite(x)) a[i] = big;
  }
}

/** Row squared norms of a row-major (rows, c) array. */
function rowNorms2(M: Mat, out: Float64Array): void {
  const c = M.cols;
  for (let i = 0; i < M.rows; i++) {
    let s = 0;
    for (let j = i * c; j < (i + 1) * c; j++) s += M.data[j]! * M.data[j]!;
    out[i] = s;
  }
}

/**
 * The S-step: S_ij = −(λ3/(2λ2·Σa))·Df_ij / max(Dp_ij, 1e-10) for j ≠ i, each row then
 * projected onto the simplex over j ≠ i (EProjSimplex_new); S_ii = 0. Returns Σ_ij Dp_ij·S_ij²
 * (the reference's sum(sum(Dp.*S2)), S2 the symmetrised S∘S). O(n²·c), no n × n scratch.
 */
function updateS(S: Float64Array, P: Mat, F: Mat, coef: number, scratch: Scratch): number {
  const n = P.rows;
  const c = P.cols;
  const { sp, sf, row, dp } = scratch;
  rowNorms2(P, sp);
  rowNorms2(F, sf);
  const p = P.data;
  const f = F.data;
  let graph = 0;
  for (let i = 0; i < n; i++) {
    let q = 0;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      let gp = 0;
      let gf = 0;
      for (let t = 0; t < c; t++) {
        gp += p[i * c + t]! * p[j * c + t]!;
        gf += f[i * c + t]! * f[j * c + t]!;
      }
      const dpij = sp[i]! + sp[j]! - 2 * gp;
      const dfij = sf[i]! + sf[j]! - 2 * gf;
      dp[q] = dpij;
      row[q++] = (coef * dfij) / Math.max(dpij, DISTANCE_FLOOR);
    }
    projectSimplexNewtonAt(row, 0, n - 1, row, 0);
    q = 0;
    for (let j = 0; j < n; j++) {
      if (j === i) {
        S[i * n + j] = 0;
        continue;
      }
      const s = row[q]!;
      S[i * n + j] = s;
      graph += dp[q++]! * s * s;
    }
  }
  return graph;
}

interface Scratch {
  readonly sp: Float64Array;
  readonly sf: Float64Array;
  readonly row: Float64Array;
  readonly dp: Float64Array;
}

/**
 * From S (n × n, any, not necessarily symmetric): into `lap` the Laplacian of (S + Sᵀ)/2, and
 * into `A` the P-step matrix I + λ2·L_{S2} with S2 = (S∘S + (S∘S)ᵀ)/2. O(n²).
 */
function graphMatrices(S: Float64Array, n: number, lambda2: number, lap: Mat, A: Mat): void {
  const l = lap.data;
  const a = A.data;
  for (let i = 0; i < n; i++) {
    let d1 = 0;
    let d2 = 0;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const sij = S[i * n + j]!;
      const sji = S[j * n + i]!;
      const w1 = (sij + sji) / 2;
      const w2 = (sij * sij + sji * sji) / 2;
      l[i * n + j] = -w1;
      a[i * n + j] = -lambda2 * w2;
      d1 += w1;
      d2 += w2;
    }
    l[i * n + i] = d1;
    a[i * n + i] = 1 + lambda2 * d2;
  }
}

/**
 * The UEAF iteration (reference `UEAF.m`), from a start drawn from `rng` in the reference's
 * shapes: U_v an orthonormal basis of a uniform d_v × c matrix, E_v uniform, S uniform
 * symmetric with a zero diagonal and F its Laplacian's c smallest eigenvectors. Yields one
 * 'solve' step per iteration.
 */
export function* ueafIterate(
  n: number,
  views: readonly View[],
  o: UeafOptions,
  rng: Rng,
): Generator<SolverStep, UeafResult, void> {
  const c = o.dim;
  const V = views.length;
  const states: ViewState[] = views.map((view, v) => {
    const missing = missingOf(view.present, n);
    const vr = rng.fork(`view-${v + 1}`);
    let norm2 = 0;
    for (let i = 0; i < view.values.data.length; i++) norm2 += view.values.data[i]! ** 2;
    return {
      x: view.values,
      present: view.present,
      missing,
      d: view.d,
      graph: featureGraph(view.values, o.knn),
      norm2,
      U: procrustes(uniformMat(view.d, c, vr)),
      E: uniformMat(view.d, missing.length, vr),
    };
  });
  yield { stage: 'prepare', iteration: 0, objective: null };
  const normX = states.reduce((a, s) => a + s.norm2, 0);

  // S, its Laplacian, F and A = I + λ2·L_{S∘S} from the random symmetric start.
  const S = new Float64Array(n * n);
  const sr = rng.fork('S');
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      // (S + Sᵀ)/2 of a uniform matrix: S_ij and S_ji drawn, both replaced by their mean.
      const s = (sr.next() + sr.next()) / 2;
      S[i * n + j] = s;
      S[j * n + i] = s;
    }
  }
  const lap: Mat = { rows: n, cols: n, data: new Float64Array(n * n) };
  const A: Mat = { rows: n, cols: n, data: new Float64Array(n * n) };
  graphMatrices(S, n, o.lambda2, lap, A);
  let F = symEigSelect(lap, c, 'lowest').vectors;

  let alpha = new Array<number>(V).fill(1 / V);
  let a = alpha.map((x) => x ** o.r);
  const objective: number[] = [];
  const alphaTrace: number[][] = [];
  const scratch: Scratch = {
    sp: new Float64Array(n),
    sf: new Float64Array(n),
    row: new Float64Array(Math.max(1, n - 1)),
    dp: new Float64Array(Math.max(1, n - 1)),
  };
  let P: Mat = { rows: n, cols: c, data: new Float64Array(n * c) };
  let converged = false;
  let cgIterations = 0;
  for (let t = 1; t <= o.iterations; t++) {
    // P-step: P = (I + λ2·L_{S∘S})⁻¹ · Σ_v a_v·Xf_v·U_v / Σ_v a_v.
    const sumA = a.reduce((x, y) => x + y, 0);
    const T: Mat = { rows: n, cols: c, data: new Float64Array(n * c) };
    states.forEach((s, v) => addProjection(T, s, a[v]!));
    P = choleskySolve(choleskyFactor(A), T, P);
    for (let i = 0; i < P.data.length; i++) P.data[i]! /= sumA;
    sanitise(P, 1e5);

    // S-step, then F = the c smallest eigenvectors of L_{(S+Sᵀ)/2}.
    const coef = (-0.5 * o.lambda3) / o.lambda2 / sumA;
    const graphTerm = updateS(S, P, F, coef, scratch);
    graphMatrices(S, n, o.lambda2, lap, A);
    const eig = symEigSelect(lap, c, 'lowest');
    F = eig.vectors;
    let spectral = 0;
    for (let j = 0; j < c; j++) spectral += eig.values[j]!;

    // U_v (Procrustes) and E_v per view, and the view errors.
    const err = states.map((s) => {
      const Pp = gatherRows(P, s.present);
      const Pm = gatherRows(P, s.missing);
      const Bp = s.x.kind === 'csr' ? spmmTA(s.x, Pp) : matmulTA(s.x, Pp);
      const B = matmul(s.E, Pm);
      for (let i = 0; i < B.data.length; i++) B.data[i]! += Bp.data[i]!;
      sanitise(B, 1e10);
      s.U = procrustes(B);
      sanitise(s.U, 0);
      const rhs = matmulTB(s.U, Pm);
      const solved = shiftedLaplacianSolve(s.graph, o.lambda1, rhs);
      s.E = solved.X;
      cgIterations = Math.max(cgIterations, solved.maxIterations);
      // ‖Xf − U·Pᵀ‖²: the present block by expansion (‖X‖² − 2⟨XᵀPp, U⟩ + ⟨PpᵀPp, UᵀU⟩),
      // the inferred block directly (‖E − U·Pmᵀ‖², U·Pmᵀ being the E-step's right-hand side).
      const fit = s.norm2 - 2 * inner(Bp, s.U) + inner(matmulTA(Pp, Pp), matmulTA(s.U, s.U));
      let inferred = 0;
      for (let i = 0; i < rhs.data.length; i++) inferred += (s.E.data[i]! - rhs.data[i]!) ** 2;
      // As coded: λ1·trace(EᵀLE + ½λ2·Σ Dp∘S2) adds the scalar to each of the m_v diagonal
      // entries, so the graph term counts m_v times, scaled by λ1.
      const smooth = laplacianForm(s.graph, s.E) + s.missing.length * 0.5 * o.lambda2 * graphTerm;
      return fit + inferred + o.lambda1 * smooth;
    });

    // α_v ∝ err_v^(1/(1−r)); the objective with the new weights, normalised by Σ‖X_v‖².
    const h = err.map((e) => e ** (1 / (1 - o.r)));
    const hs = h.reduce((x, y) => x + y, 0);
    alpha = h.map((x) => x / hs);
    a = alpha.map((x) => x ** o.r);
    let obj = o.lambda3 * spectral;
    for (let v = 0; v < V; v++) obj += a[v]! * err[v]!;
    obj /= normX;
    objective.push(obj);
    alphaTrace.push(alpha.slice());
    const values: Record<string, number> = {};
    alpha.forEach((x, v) => (values[`alpha${v + 1}`] = x));
    yield { stage: 'solve', iteration: t, objective: obj, values };
    if (t > 2 && Math.abs(obj - objective[t - 2]!) < o.tol) {
      converged = true;
      break;
    }
  }

  const singularValues = Array.from(thinSvd(P).s);
  const embedding: Mat = { rows: n, cols: c, data: P.data.slice() };
  const e = embedding.data;
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = i * c; j < (i + 1) * c; j++) s += e[j]! * e[j]!;
    if (s === 0) continue;
    const inv = 1 / Math.sqrt(s);
    for (let j = i * c; j < (i + 1) * c; j++) e[j]! *= inv;
  }
  return {
    embedding,
    objective,
    converged,
    alpha,
    alphaTrace,
    graphChecks: {
      size: states.map((s) => s.d),
      trace: states.map((s) => s.graph.indptr[s.d]!),
    },
    singularValues,
    cgIterations,
  };
}
