/**
 * APMC (Guo and Ye, "Anchors Bring Ease: An Embarrassingly Simple Approach to Partial
 * Multi-view Clustering", AAAI 2019; spec baselines-incomplete.md §4), generalised to V ≥ 2
 * views and identical to the reference's 2- and 3-view code for V = 2, 3:
 *   1. for each view pair (a, b): the anchor graph Z_ab of the samples present in a or b to the
 *      samples present in both (`similarity.ts`), S_ab = Z_ab·Λ_ab·Z_abᵀ;
 *   2. S(i, j) = the mean of S_ab(i, j) over the pairs containing both samples (`groups.ts`);
 *   3. L = D − S; F = the c eigenvectors of L's c smallest eigenvalues (block eigensolver on the
 *      operator M = s·I − L, `operator.ts`; S is never formed), rows scaled to unit length;
 *      the protocol clusters F with k-means.
 * Input: the common layer (unit-L2 samples, divided by the norm as the reference's Octave
 * computes it: views/reference-norm.ts), missing samples simply absent from their views' rows
 * (the reference's all-zero rows, which it never reads for a missing sample).
 */
import { normaliseRows } from '../../graph/spectral';
import { blockEig, type BlockEigResult } from '../../linalg/blockeig';
import { symEigSelect } from '../../linalg/kernels';
import type { Mat } from '../../linalg/types';
import type { View } from '../../dataset';
import { denseRows } from '../../views/present';
import type { SolverStep } from '../types';
import type { Groups } from './groups';
import { denseSimilarity } from './dense';
import { degrees, shiftedLaplacianOp, similarityOp, similarityTrace } from './operator';
import { pairGraph, viewSource, type PairGraph } from './similarity';

/** Relative residual tolerance of the Laplacian eigenpairs (values then to ~1e-16·‖L‖). */
const EIG_TOL = 1e-10;

/**
 * Up to this many samples L is formed (n² doubles, 2 MB at the limit) and decomposed densely:
 * a few hundred operator products cost more there than one tridiagonalisation.
 */
export const DENSE_SPECTRUM_BELOW = 512;

/**
 * The want smallest eigenpairs of L = D − S, formed densely (n ≤ DENSE_SPECTRUM_BELOW), and the
 * degrees d = S·1 as the row sums of the dense S (the reference's `sum(S, 2)`, in column order).
 */
function denseBottom(
  groups: Groups,
  pairs: readonly PairGraph[],
  want: number,
): { eig: BlockEigResult; deg: Float64Array } {
  const L = denseSimilarity(groups, pairs);
  const n = L.rows;
  const deg = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let d = 0;
    for (let j = 0; j < n; j++) d += L.data[i * n + j]!;
    deg[i] = d;
  }
  for (let t = 0; t < L.data.length; t++) L.data[t] = -L.data[t]!;
  for (let i = 0; i < n; i++) L.data[i * n + i]! += deg[i]!;
  const e = symEigSelect(L, want, 'lowest');
  return {
    eig: {
      values: e.values,
      vectors: e.vectors,
      residualNorms: new Float64Array(want),
      iterations: 0,
      matvecs: 0,
      converged: true,
    },
    deg,
  };
}

/**
 * Every pair's anchor graph, one step per pair. `unitViews`: the views with unit-L2 samples
 * (`referenceUnitRowsView`, the reference's bits), present samples only.
 */
export function* pairGraphs(
  unitViews: readonly View[],
  groups: Groups,
  anchors: number,
  guard: boolean,
): Generator<SolverStep, PairGraph[], void> {
  const views = unitViews.map((v) => viewSource(denseRows(v)));
  const pos = unitViews.map((v) => {
    const at = new Int32Array(groups.n).fill(-1);
    v.present.forEach((i, r) => (at[i] = r));
    return at;
  });
  const out: PairGraph[] = [];
  for (const [a, b] of groups.pairs) {
    const g = pairGraph(groups, views, pos, a, b, anchors, guard);
    out.push(g);
    yield {
      stage: 'similarity',
      iteration: out.length,
      objective: null,
      values: { anchors: g.m, unpicked: g.unpicked },
    };
  }
  return out;
}

/** The spectral step's result. */
export interface ApmcSpectrum {
  /** (n, c) the eigenvectors of the c smallest eigenvalues of L, rows unit length. */
  readonly embedding: Mat;
  /** (c + 1,) L's smallest eigenvalues, ascending. */
  readonly values: Float64Array;
  readonly residualNorms: Float64Array;
  readonly converged: boolean;
  readonly iterations: number;
  readonly matvecs: number;
  /** Σ_ij S(i, j) and trace(S). */
  readonly sum: number;
  readonly trace: number;
}

/**
 * L = D − S and its c + 1 smallest eigenpairs; the embedding from the c smallest. Below
 * `denseBelow` samples L is decomposed densely, else by the block eigensolver on the operator.
 */
export function spectrum(
  groups: Groups,
  pairs: readonly PairGraph[],
  c: number,
  denseBelow = DENSE_SPECTRUM_BELOW,
): ApmcSpectrum {
  const want = Math.min(groups.n, c + 1);
  const dense = groups.n <= denseBelow;
  let r: BlockEigResult;
  let deg: Float64Array;
  let shift = 0;
  if (dense) {
    ({ eig: r, deg } = denseBottom(groups, pairs, want));
  } else {
    const S = similarityOp(groups, pairs);
    deg = degrees(S);
    let dmax = 0;
    for (const d of deg) dmax = Math.max(dmax, d);
    // L's spectrum lies in [0, 2·d_max] (Gershgorin), so M = 2·d_max·I − L is positive semidefinite.
    shift = 2 * dmax;
    r = blockEig(shiftedLaplacianOp(S, deg, shift), want, {
      which: 'largest',
      tol: EIG_TOL,
      bounds: { lower: 0, upper: shift },
    });
  }
  let sum = 0;
  for (const d of deg) sum += d;
  const n = groups.n;
  const F: Mat = { rows: n, cols: c, data: new Float64Array(n * c) };
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < c; j++) F.data[i * c + j] = r.vectors.data[i * want + j]!;
  }
  return {
    embedding: normaliseRows(F),
    values: dense ? r.values : Float64Array.from(r.values, (x) => shift - x),
    residualNorms: r.residualNorms,
    converged: r.converged,
    iterations: r.iterations,
    matvecs: r.matvecs,
    sum,
    trace: similarityTrace(groups, pairs),
  };
}
