/**
 * The CGL / CGMVC-NC iteration (README.md; spec cgl-cgmvc-nc.md; seed paper Eqs. 7–17), one
 * generator for both methods: the T-step's shrinkage is the parameter that tells them apart.
 *
 * Inputs: views[v]: (n, d_v) dense, rows = samples in the order the FFT runs along.
 *   0. x ← (x − mean(x))/std(x) per sample and view (std with N − 1; 0 → eps; `zscoreRows`).
 *   1. W_v = the reference's symmetrised PKN graph (k neighbours, `referencePknGraph`);
 *      L_v = D^{-1/2}·W_v·D^{-1/2} (sparse).
 *   2. objective[0] = Σ_v ½λ‖L_v‖² (H = 0, T = 0); then per pass t = 2 … iterations:
 *      H-step  G_v = λL_v + Q_v(½(T_v + T_vᵀ) − ½F̄_vF̄_vᵀ)Q_v (previous q_v, T_v, F̄_v);
 *              H_v = top-c eigenvectors of G_v; q_i = 1/‖h_i‖; F̄_v = diag(q)·H_v   (Eq. 14)
 *      T-step  shrink the singular values of every Fourier slice of 𝓑 (`tensor.ts`)  (Eq. 16–17)
 *      objective = Σ_v [½λ‖L_v − H_vH_vᵀ‖² + ½‖T_v − F̄_vF̄_vᵀ‖²] + penalty
 *      stop when t ≥ minIterations and |Δobj|/|obj_prev| < tolerance.
 *   3. consensus graph: PKN (k neighbours) on the distance 2 − (1/V)Σ_v F̄_vF̄_vᵀ   (Eq. 6)
 *      (kNN on the concatenated F̄, never the n × n matrix), then its spectral embedding.
 *
 * Two paths compute the same numbers: 'factorised' (default; O(n·V·c) memory, `tensor.ts`
 * FactorisedTensor, block eigensolver on λL_v + low rank) and 'dense' (n ≤ 1000: materialised
 * 𝓑 and T_v, dense G_v and `symEig`), which the tests use as ground truth.
 */
import { normalisedAffinity } from '../../graph/affinity';
import { knn, type Knn } from '../../graph/knn';
import { pknRows, referenceNeighbours, referencePknGraph, symmetrise } from '../../graph/pkn';
import { spectralEmbedding } from '../../graph/spectral';
import { claimAll, claimEach, float64Array, threadPool, type ClaimInput } from '../../parallel';
import { normaliseInto } from './hstep';
import { HStepViews } from './hviews';
import { matmulTB, symEig } from '../../linalg/kernels';
import { concatColumns } from '../../linalg/rows';
import { zeros, type Csr, type Mat } from '../../linalg/types';
import { zscoreRows } from '../../linalg/zscore';
import type { Shrinkage } from './shrink';
import { denseTensorStep, FactorisedTensor, type TensorTerms } from './tensor';

export type CglPath = 'factorised' | 'dense';

export interface CglOptions {
  readonly lambda: number;
  readonly shrinkage: Shrinkage;
  /** Neighbours of the view graphs and of the consensus graph. */
  readonly neighbors: number;
  /** Most objective values, the initial one included (the reference's max_iter = 100). */
  readonly iterations: number;
  /** The stop test applies from this objective count on (the reference: iter > 40, i.e. 41). */
  readonly minIterations: number;
  readonly tolerance: number;
  readonly path: CglPath;
  /** Relative residual tolerance of the H-step eigensolver (factorised path); default 1e-11. */
  readonly eigTol?: number;
}

/** The graphs of step 1: one normalised affinity per view. */
export interface CglGraphs {
  readonly n: number;
  /** (V,) L_v: (n, n) CSR. */
  readonly L: readonly Csr[];
  /** (V,) ‖L_v‖²_F. */
  readonly L2: Float64Array;
}

/** A step of the iteration: the objective and its terms after one pass. */
export interface CglIterate {
  /** 1-based pass (the objective index t − 1; objective[0] is the initial value). */
  readonly pass: number;
  readonly objective: number;
  /** (V,) ½λ‖L_v − H_vH_vᵀ‖². */
  readonly graph: Float64Array;
  /** (V,) ½‖T_v − F̄_vF̄_vᵀ‖². */
  readonly tensor: Float64Array;
  readonly penalty: number;
  readonly tubalRank: number;
  readonly maxPasses: number;
  readonly relChange: number;
  readonly eigIterations: number;
}

export interface CglState {
  /** (V,) F̄_v: (n, c) row-normalised embeddings of the last pass. */
  readonly Fbar: Mat[];
  readonly objective: number[];
  readonly terms: { graph: number[][]; tensor: number[][]; penalty: number[]; tubalRank: number[] };
  readonly converged: boolean;
  /** Last T-step's slice spectrum: (⌊n/2⌋+1) × V σ and σ'. */
  readonly sigma: Float64Array;
  readonly kept: Float64Array;
  /** Dense path only: the last T_v. */
  readonly T: Mat[] | null;
  /** Factorised path only: the last T-step (T_v = F̄_vF̄_vᵀ + ΔP_v·F_catᵀ). */
  readonly factor: { readonly tensor: FactorisedTensor; readonly Fcat: Mat } | null;
  /** H-steps whose eigensolver missed its tolerance. */
  readonly eigMisses: number;
  /** Samples whose embedding row was zero in some view (q = 0 used). */
  readonly zeroRows: number;
}

/** Input of the helper task 'cgl.graphs' (`core/tasks.ts`): the views, claimed widest first. */
export interface ViewGraphTaskInput extends ClaimInput {
  readonly views: readonly Mat[];
  readonly neighbors: number;
}

/**
 * Steps 0–1 for each view claimed from `claim` until none is left: z-scored rows, PKN graph,
 * normalised affinity. Returns [view, graph] pairs.
 */
export function viewGraphTask(input: ViewGraphTaskInput): [number, Csr][] {
  return claimEach(input, (v) =>
    normalisedAffinity(referencePknGraph(zscoreRows(input.views[v]!), input.neighbors)),
  );
}

/**
 * Steps 0–1 for views[v]: (n, d_v): z-scored rows, PKN graph, normalised affinity. With helper
 * threads of `core/parallel` installed, every thread claims views from a shared counter, the
 * widest (costliest: the kNN is ≈ n²·d_v) first, so the threads finish close together; each
 * graph is the same whichever thread makes it.
 */
export function buildGraphs(views: readonly Mat[], neighbors: number): CglGraphs {
  const n = views[0]!.rows;
  const L = claimAll(
    'cgl.graphs',
    views.map((X) => X.cols),
    { views, neighbors },
    viewGraphTask,
  );
  const L2 = Float64Array.from(L, (S) => S.data.reduce((a, x) => a + x * x, 0));
  return { n, L, L2 };
}

function denseOf(S: Csr): Mat {
  const data = new Float64Array(S.rows * S.cols);
  for (let i = 0; i < S.rows; i++)
    for (let p = S.indptr[i]!; p < S.indptr[i + 1]!; p++)
      data[i * S.cols + S.indices[p]!] = S.data[p]!;
  return { rows: S.rows, cols: S.cols, data };
}

/** ½λ‖L − HHᵀ‖² formed densely (dense path). */
function graphTermDense(lambda: number, Ld: Mat, H: Mat): number {
  const HH = matmulTB(H, H);
  let acc = 0;
  for (let p = 0; p < HH.data.length; p++) acc += (Ld.data[p]! - HH.data[p]!) ** 2;
  return 0.5 * lambda * acc;
}

/** Top-c eigenvectors (descending) of a dense symmetric G through `symEig`. */
function topDense(G: Mat, c: number): Mat {
  const n = G.rows;
  const e = symEig(G);
  const H = zeros(n, c);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < c; j++) H.data[i * c + j] = e.vectors.data[i * n + (n - 1 - j)]!;
  return H;
}

/**
 * F_cat ← [F̄_1 … F̄_V] (n × Vc) in place (F_cat may be shared memory, so not `concatColumns`).
 * A function of its own: V8 does not optimise the loop inside the generator `cglIterate`.
 */
function concatInto(Fbar: readonly Mat[], Fcat: Mat): void {
  const { rows: n, cols: w, data: fc } = Fcat;
  let o = 0;
  for (const F of Fbar) {
    const { cols: c, data: f } = F;
    for (let i = 0; i < n; i++) for (let a = 0; a < c; a++) fc[i * w + o + a] = f[i * c + a]!;
    o += c;
  }
}

/**
 * The iteration (step 2). Yields one CglIterate per pass; returns the final state.
 * `graphs` from `buildGraphs`; c = number of clusters (≤ n).
 */
export function* cglIterate(
  graphs: CglGraphs,
  c: number,
  o: CglOptions,
): Generator<CglIterate, CglState, void> {
  const { n, L, L2 } = graphs;
  const V = L.length;
  const w = V * c;
  const { lambda, shrinkage } = o;
  const eigTol = o.eigTol ?? 1e-11;
  const dense = o.path === 'dense';
  const Ld = dense ? L.map(denseOf) : null;
  // What the helpers read and write every pass (q_v, F_cat, F̄_v; the T-step's spectra
  // likewise) lives in shared memory when there are helpers: posting it shares it, nothing is
  // copied. In an H-step each view's thread writes only that view's q_v, F̄_v (Fnext) and next
  // spectra, which nobody else reads until the step ends; F_cat is written between H-steps.
  const shared = !dense && threadPool() !== null;
  // F̄_v of the last pass and of this one (the H-step's threads write the latter).
  const block = (): Mat => ({ rows: n, cols: c, data: float64Array(n * c, shared) });
  let Fbar: Mat[] = Array.from({ length: V }, block);
  let Fnext: Mat[] = Array.from({ length: V }, block);
  const q = Array.from({ length: V }, () => float64Array(n, shared));
  const Fcat: Mat = { rows: n, cols: w, data: float64Array(n * w, shared) };
  const ft = dense ? null : new FactorisedTensor(n, V, c, threadPool());
  let T: Mat[] | null = null;
  // The factorised H-step's per-view solvers, split over the helper threads if a host has some.
  const hviews = dense ? null : new HStepViews(L, L2, c, lambda, eigTol, threadPool());
  const objective: number[] = [];
  const terms = {
    graph: [] as number[][],
    tensor: [] as number[][],
    penalty: [] as number[],
    tubalRank: [] as number[],
  };
  let init = 0;
  for (let v = 0; v < V; v++) init += 0.5 * lambda * L2[v]!;
  objective.push(init);
  let converged = false;
  let last: TensorTerms | null = null;
  let eigMisses = 0;
  let zeroRows = 0;
  // The helpers' sessions end with the solve, also when it is abandoned (the generator closed
  // early: a cancelled run) or fails; then an error of the ending must not hide the first.
  let finished = false;
  try {
    for (let t = 2; t <= o.iterations; t++) {
      const first = t === 2;
      const graph = new Float64Array(V);
      let eigIterations = 0;
      // H-step, every view from the previous iterate (F_cat, q_v, ΔP_v).
      // Factorised: the view's thread also makes q_v, F̄_v (into Fnext), the graph term and F̄_v's
      // spectra for the T-step.
      const hv = hviews ? hviews.run(q, first ? null : Fcat, ft!, Fnext) : null;
      for (let v = 0; v < V; v++) {
        if (hv) {
          const r = hv[v]!;
          eigIterations += r.products;
          if (!r.converged) eigMisses++;
          zeroRows = Math.max(zeroRows, r.zeroRows);
          graph[v] = r.graph;
        } else {
          const qv = q[v]!;
          const G = Float64Array.from(Ld![v]!.data, (x) => lambda * x);
          if (!first) {
            const Fv = Fbar[v]!;
            const FF = matmulTB(Fv, Fv);
            const Tv = T![v]!.data;
            for (let i = 0; i < n; i++)
              for (let j = 0; j < n; j++) {
                const inner = 0.5 * (Tv[i * n + j]! + Tv[j * n + i]!) - 0.5 * FF.data[i * n + j]!;
                G[i * n + j]! += qv[i]! * inner * qv[j]!;
              }
          }
          const Hv = topDense({ rows: n, cols: n, data: G }, c);
          zeroRows = Math.max(zeroRows, normaliseInto(Hv, qv, Fnext[v]!));
          graph[v] = graphTermDense(lambda, Ld![v]!, Hv);
        }
      }
      [Fbar, Fnext] = [Fnext, Fbar];
      concatInto(Fbar, Fcat);
      // T-step.
      let tt: TensorTerms;
      if (dense) {
        const r = denseTensorStep(Fbar, shrinkage);
        T = r.T;
        tt = r.terms;
      } else {
        // Step 1 was done view by view in the H-step. No ΔP_v yet: the next H-step makes them,
        // each thread those of its views, side by side.
        tt = ft!.step(Fbar, Fcat, shrinkage, 0, true);
      }
      last = tt;
      let obj = tt.penalty;
      for (let v = 0; v < V; v++) obj += graph[v]! + tt.tensor[v]!;
      const prev = objective[objective.length - 1]!;
      objective.push(obj);
      const relChange = Math.abs((obj - prev) / prev);
      terms.graph.push(Array.from(graph));
      terms.tensor.push(Array.from(tt.tensor));
      terms.penalty.push(tt.penalty);
      terms.tubalRank.push(tt.tubalRank);
      yield {
        pass: t - 1,
        objective: obj,
        graph,
        tensor: Float64Array.from(tt.tensor),
        penalty: tt.penalty,
        tubalRank: tt.tubalRank,
        maxPasses: tt.maxPasses,
        relChange,
        eigIterations,
      };
      if (t >= o.minIterations && relChange < o.tolerance) {
        converged = true;
        break;
      }
    }
    // The final state holds every ΔP_v.
    if (ft && last) ft.completeDeltaP();
    finished = true;
  } finally {
    if (finished) hviews?.end();
    else {
      try {
        hviews?.end();
      } catch {
        // The solve's own error (or its closing) is what the caller sees.
      }
    }
  }
  return {
    Fbar,
    objective,
    terms,
    converged,
    sigma: last ? Float64Array.from(last.sigma) : new Float64Array(0),
    kept: last ? Float64Array.from(last.kept) : new Float64Array(0),
    T,
    factor: ft ? { tensor: ft, Fcat } : null,
    eigMisses,
    zeroRows,
  };
}

/**
 * Step 3's graph: for each sample its `neighbors` + 1 nearest others under the distance
 * 2 − Dis_ij, Dis = (1/V)Σ_v F̄_vF̄_vᵀ (ties to the lower index), PKN weights, symmetrised.
 * Factorised: exact kNN on F_cat (n × Vc), since ‖f_i − f_j‖² = 2V − 2V·Dis_ij for unit rows,
 * then the selected distances recomputed as 2 − Dis_ij from the row products. Dense: from Dis.
 */
export function consensusGraph(Fbar: readonly Mat[], neighbors: number, path: CglPath): Csr {
  const V = Fbar.length;
  const n = Fbar[0]!.rows;
  const c = Fbar[0]!.cols;
  const k1 = neighbors + 1;
  const indices = new Int32Array(n * k1);
  const distances = new Float64Array(n * k1);
  const dis = (i: number, j: number): number => {
    let s = 0;
    for (let v = 0; v < V; v++) {
      const f = Fbar[v]!.data;
      let d = 0;
      for (let a = 0; a < c; a++) d += f[i * c + a]! * f[j * c + a]!;
      s += d;
    }
    return 2 - s / V;
  };
  if (path === 'dense') {
    // The whole row of 2 − Dis, self included, sorted by (distance, index); the first dropped.
    const D = new Float64Array(n * n);
    for (const F of Fbar) {
      const P = matmulTB(F, F).data;
      for (let p = 0; p < n * n; p++) D[p]! += P[p]!;
    }
    const order = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) order[j] = j;
      const row = (j: number): number => 2 - D[i * n + j]! / V;
      const sorted = Array.from(order)
        .sort((a, b) => row(a) - row(b) || a - b)
        .slice(1, k1 + 1);
      for (let r = 0; r < k1; r++) {
        indices[i * k1 + r] = sorted[r]!;
        distances[i * k1 + r] = row(sorted[r]!);
      }
    }
  } else {
    const nn = referenceNeighbours(knn(concatColumns(Fbar), k1), dis);
    return symmetrise(pknRows(nn, neighbors));
  }
  const nn: Knn = { n, k: k1, indices, distances };
  return symmetrise(pknRows(nn, neighbors));
}

/** Step 3: the consensus graph and its c-dimensional spectral embedding (rows normalised). */
export function consensusEmbedding(
  Fbar: readonly Mat[],
  neighbors: number,
  c: number,
  path: CglPath,
): { readonly W: Csr; readonly embedding: Mat; readonly converged: boolean } {
  const W = consensusGraph(Fbar, neighbors, path);
  const s = spectralEmbedding(W, c, { tol: 1e-10 });
  return { W, embedding: s.embedding, converged: s.converged };
}
