/**
 * The factorised H-step's pieces (src/core/solvers/cgl/hstep.ts, and the eigensolver it calls,
 * src/core/linalg/topeig.ts), against quantities formed densely by the definitions:
 * - `HStepOp` applies G_v = λL_v + Q(½F̄_vF̄_vᵀ + ½(ΔP_vF_catᵀ + F_catΔP_vᵀ))Q, i.e.
 *   λL_v + Q(½(T_v + T_vᵀ) − ½F̄_vF̄_vᵀ)Q for T_v = F̄_vF̄_vᵀ + ΔP_vF_catᵀ, to a block, and its
 *   `lastTrace` is tr(XᵀL_vX) of the block applied;
 * - `topEigenpairs` from a start that is not orthonormal (checkFrom = 2: a plain power step
 *   first) returns the top-c eigenpairs of the dense matrix (`symEig`) to the tolerance.
 */
import { describe, expect, it } from 'vitest';
import { symEig } from '../../../../src/core/linalg/kernels';
import type { Csr, Mat } from '../../../../src/core/linalg/types';
import { HStepOp, packFactor } from '../../../../src/core/solvers/cgl/hstep';
import { topEigenpairs } from '../../../../src/core/linalg/topeig';
import { endTask, hstepTask, openSessions } from '../../../../src/core/solvers/cgl/hviews';
import { setThreadPool, type ThreadPool } from '../../../../src/core/parallel';
import { TASKS } from '../../../../src/core/tasks';
import { buildGraphs, cglIterate, type CglGraphs } from '../../../../src/core/solvers/cgl/cgl';
import { meanImputed } from '../../../../src/core/solvers/impute';
import { synthesize } from '../../../../src/core/synth';
import { maxDiff, naiveMul, randMat, transpose } from '../../../helpers/mat';
import { prng } from '../../../helpers/prng';

/** A symmetric random sparse n×n matrix (about `perRow` entries a row) and its dense form. */
function randSymCsr(n: number, perRow: number, seed: number): { S: Csr; D: Mat } {
  const r = prng(seed);
  const D: Mat = { rows: n, cols: n, data: new Float64Array(n * n) };
  for (let i = 0; i < n; i++)
    for (let t = 0; t < perRow; t++) {
      const j = Math.floor(r() * n);
      const v = r() - 0.5;
      D.data[i * n + j] = v;
      D.data[j * n + i] = v;
    }
  const indptr = new Int32Array(n + 1);
  const indices: number[] = [];
  const data: number[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++)
      if (D.data[i * n + j] !== 0) {
        indices.push(j);
        data.push(D.data[i * n + j]!);
      }
    indptr[i + 1] = indices.length;
  }
  const S = {
    rows: n,
    cols: n,
    indptr,
    indices: Int32Array.from(indices),
    data: Float64Array.from(data),
  };
  return { S, D };
}

const add = (A: Mat, B: Mat, a = 1, b = 1): Mat => ({
  rows: A.rows,
  cols: A.cols,
  data: A.data.map((x, i) => a * x + b * B.data[i]!),
});
const scaleRows = (q: Float64Array, A: Mat): Mat => ({
  rows: A.rows,
  cols: A.cols,
  data: A.data.map((x, i) => q[Math.floor(i / A.cols)]! * x),
});
const fro = (A: Mat): number => Math.sqrt(A.data.reduce((s, x) => s + x * x, 0));

/** G_v formed densely from its definition through T_v. */
function denseG(
  D: Mat,
  lambda: number,
  q: Float64Array,
  Fcat: Mat,
  dP: Mat,
  v: number,
  c: number,
): Mat {
  const n = D.rows;
  const Fv: Mat = { rows: n, cols: c, data: new Float64Array(n * c) };
  for (let i = 0; i < n; i++)
    for (let a = 0; a < c; a++) Fv.data[i * c + a] = Fcat.data[i * Fcat.cols + v * c + a]!;
  const FF = naiveMul(Fv, transpose(Fv));
  const T = add(FF, naiveMul(dP, transpose(Fcat)));
  const inner = add(add(T, transpose(T), 0.5, 0.5), FF, 1, -0.5);
  const QiQ = scaleRows(q, transpose(scaleRows(q, inner))); // Q·inner·Q (inner symmetric)
  return add(D, QiQ, lambda, 1);
}

describe('HStepOp', () => {
  it.each([
    [60, 3, 4, 1],
    [45, 2, 5, 0],
  ])('equals the dense G_v on blocks (n = %i, V = %i, c = %i, view %i)', (n, V, c, v) => {
    const w = V * c;
    const { S, D } = randSymCsr(n, 4, n);
    const Fcat = randMat(n, w, 1);
    const dP = randMat(n, w, 2);
    for (let i = 0; i < n * w; i++) dP.data[i]! *= 1e-3;
    const r = prng(3);
    const q = Float64Array.from({ length: n }, () => 0.5 + r());
    const lambda = 0.37;
    const op = new HStepOp(S, lambda, q, v, c, packFactor(Fcat), packFactor(dP));
    const G = denseG(D, lambda, q, Fcat, dP, v, c);
    for (const b of [c, 1, 7]) {
      const X = randMat(n, b, 10 + b);
      const Y: Mat = { rows: n, cols: b, data: new Float64Array(n * b).fill(NaN) };
      op.apply(X, Y);
      const want = naiveMul(G, X);
      expect(maxDiff(Y, want)).toBeLessThan(1e-13 * fro(G) * fro(X));
      const LX = naiveMul(D, X);
      let tr = 0;
      for (let p = 0; p < n * b; p++) tr += X.data[p]! * LX.data[p]!;
      expect(Math.abs(op.lastTrace - tr)).toBeLessThan(1e-13 * fro(D) * fro(X) ** 2);
    }
  });
});

describe('topEigenpairs', () => {
  it('from a non-orthonormal start with a plain power step first: the dense top-c pairs', () => {
    const n = 80;
    const c = 4;
    const V = 2;
    const w = V * c;
    const { S, D } = randSymCsr(n, 3, 5);
    // A dominant low-rank part, as in the H-step after the first pass.
    const Fcat = randMat(n, w, 6);
    const dP = randMat(n, w, 7);
    for (let i = 0; i < n * w; i++) dP.data[i]! *= 1e-2;
    const q = Float64Array.from({ length: n }, (_, i) => 1 + (i % 5));
    const lambda = 0.05;
    const op = new HStepOp(S, lambda, q, 0, c, packFactor(Fcat), packFactor(dP));
    const G = denseG(D, lambda, q, Fcat, dP, 0, c);
    const e = symEig(G); // ascending
    // Start: the view's block of F_cat scaled by q (not orthonormal), as cgl.ts does.
    const X0: Mat = { rows: n, cols: c, data: new Float64Array(n * c) };
    for (let i = 0; i < n; i++)
      for (let a = 0; a < c; a++) X0.data[i * c + a] = q[i]! * Fcat.data[i * w + a]!;
    const norm = Math.max(Math.abs(e.values[0]!), Math.abs(e.values[n - 1]!));
    const r = topEigenpairs(op, c, X0, norm, 1e-12, { lower: -norm, upper: norm }, 2);
    expect(r.converged).toBe(true);
    for (let j = 0; j < c; j++) {
      expect(Math.abs(r.values[j]! - e.values[n - 1 - j]!)).toBeLessThan(1e-10 * norm);
      // Residual ‖G·h − θ·h‖ ≤ tol·‖G‖ (with room for the dense product's rounding).
      const h: Mat = { rows: n, cols: 1, data: new Float64Array(n) };
      for (let i = 0; i < n; i++) h.data[i] = r.vectors.data[i * c + j]!;
      const Gh = naiveMul(G, h);
      let res = 0;
      for (let i = 0; i < n; i++) res += (Gh.data[i]! - r.values[j]! * h.data[i]!) ** 2;
      expect(Math.sqrt(res)).toBeLessThan(1e-11 * norm);
    }
    // Orthonormal output.
    const HtH = naiveMul(transpose(r.vectors), r.vectors);
    for (let a = 0; a < c; a++)
      for (let b = 0; b < c; b++)
        expect(Math.abs(HtH.data[a * c + b]! - (a === b ? 1 : 0))).toBeLessThan(1e-13);
  });
});

describe('topEigenpairs: acceptance by the bound on the next block (predict)', () => {
  it('one product fewer, and the subspace still meets the tolerance (dense check)', () => {
    const n = 90;
    const c = 4;
    const V = 2;
    const w = V * c;
    const { S, D } = randSymCsr(n, 3, 15);
    const Fcat = randMat(n, w, 16);
    const dP = randMat(n, w, 17);
    for (let i = 0; i < n * w; i++) dP.data[i]! *= 1e-3;
    const q = Float64Array.from({ length: n }, (_, i) => 1 + (i % 7));
    const lambda = 0.05;
    const G = denseG(D, lambda, q, Fcat, dP, 0, c);
    const e = symEig(G); // ascending
    // β: the largest |λ_j| outside the top c (exact here; the H-step uses a bound).
    const beta = Math.max(Math.abs(e.values[0]!), Math.abs(e.values[n - c - 1]!));
    const X0: Mat = { rows: n, cols: c, data: new Float64Array(n * c) };
    for (let i = 0; i < n; i++)
      for (let a = 0; a < c; a++) X0.data[i * c + a] = q[i]! * Fcat.data[i * w + a]!;
    const tol = 1e-11;
    const run = (predict: boolean) => {
      const op = new HStepOp(S, lambda, q, 0, c, packFactor(Fcat), packFactor(dP));
      const bounds = { lower: -beta, upper: e.values[n - 1]! };
      return topEigenpairs(op, c, X0, beta, tol, bounds, 2, undefined, predict);
    };
    const plain = run(false);
    const early = run(true);
    expect(plain.predicted).toBe(false);
    expect(early.predicted).toBe(true);
    expect(early.converged).toBe(true);
    expect(early.products).toBe(plain.products - 1);
    // The returned block: orthonormal, its subspace residual ‖(I − HHᵀ)·G·H‖_F within the
    // tolerance, and the same subspace as the top-c eigenvectors (all principal cosines ≈ 1).
    const H = early.vectors;
    const HtH = naiveMul(transpose(H), H);
    for (let a = 0; a < c; a++)
      for (let b = 0; b < c; b++)
        expect(Math.abs(HtH.data[a * c + b]! - (a === b ? 1 : 0))).toBeLessThan(1e-13);
    const GH = naiveMul(G, H);
    const R = naiveMul(H, naiveMul(transpose(H), GH));
    let res = 0;
    for (let p = 0; p < n * c; p++) res += (GH.data[p]! - R.data[p]!) ** 2;
    const norm = Math.max(Math.abs(early.values[0]!), beta);
    expect(Math.sqrt(res)).toBeLessThan(tol * norm);
    const U: Mat = { rows: n, cols: c, data: new Float64Array(n * c) };
    for (let i = 0; i < n; i++)
      for (let a = 0; a < c; a++) U.data[i * c + a] = e.vectors.data[i * n + (n - 1 - a)]!;
    const cos = symEig(naiveMul(transpose(naiveMul(transpose(U), H)), naiveMul(transpose(U), H)));
    for (const x of cos.values) expect(Math.abs(x - 1)).toBeLessThan(1e-12);
  });

  it('declines when the bound cannot prove the next block (β close to θ_c)', () => {
    const n = 60;
    const c = 3;
    const w = 2 * c;
    const { S, D } = randSymCsr(n, 3, 25);
    const Fcat = randMat(n, w, 26);
    const dP = randMat(n, w, 27);
    const q = Float64Array.from({ length: n }, () => 1);
    const G = denseG(D, 0.05, q, Fcat, dP, 0, c);
    const e = symEig(G);
    const big = Math.max(Math.abs(e.values[0]!), Math.abs(e.values[n - 1]!));
    const X0: Mat = { rows: n, cols: c, data: new Float64Array(n * c) };
    for (let i = 0; i < n; i++)
      for (let a = 0; a < c; a++) X0.data[i * c + a] = Fcat.data[i * w + a]!;
    const op = new HStepOp(S, 0.05, q, 0, c, packFactor(Fcat), packFactor(dP));
    // β = ‖G‖: no gap to prove anything with; whatever converges does so by the test.
    const r = topEigenpairs(op, c, X0, big, 1e-11, { lower: -big, upper: big }, 2, undefined, true);
    expect(r.predicted).toBe(false);
  });
});

describe('helper task sessions (cgl.hstep / cgl.end)', () => {
  it('a pass needs its session; the first pass sets it up, cgl.end drops it', () => {
    const { S } = randSymCsr(40, 4, 9);
    const q = new Float64Array(40).fill(1);
    const F = new Float64Array(40 * 3);
    const G = new Float64Array(2 * 21 * 3);
    // One view; the claim counter starts each pass at 0 (the solver resets it).
    const claim = new Int32Array(1);
    const base = { helper: 0, claim, q: [q], Fnext: [F], Gnext: [G], Fcat: null, spectra: null };
    const L2 = S.data.reduce((a, x) => a + x * x, 0);
    const setup = { L: [S], L2: [L2], V: 1, c: 3, lambda: 0.5, eigTol: 1e-10 };
    expect(() => hstepTask({ token: 901, ...base })).toThrow(/no session 901 on this helper/);
    claim[0] = 0;
    const [first] = hstepTask({ token: 901, setup, ...base });
    expect(first!.view).toBe(0);
    // Claimed: another task of this pass finds nothing left.
    expect(hstepTask({ token: 901, ...base })).toEqual([]);
    expect(first!.products).toBeGreaterThan(0);
    expect(first!.converged).toBe(true);
    expect(first!.zeroRows).toBe(0);
    // The view is finished where it was solved: F̄ = diag(q)·H has unit rows, q > 0, and G holds
    // F̄'s spectra (bin 0: the column sums); the graph term lies in [0, ½λ‖L‖²].
    for (let i = 0; i < 40; i++) {
      expect(Math.hypot(F[i * 3]!, F[i * 3 + 1]!, F[i * 3 + 2]!)).toBeCloseTo(1, 12);
      expect(q[i]).toBeGreaterThan(0);
    }
    for (let a = 0; a < 3; a++) {
      let sum = 0;
      for (let i = 0; i < 40; i++) sum += F[i * 3 + a]!;
      expect(G[a]).toBeCloseTo(sum, 12);
    }
    expect(first!.graph).toBeGreaterThanOrEqual(0);
    expect(first!.graph).toBeLessThanOrEqual(0.5 * 0.5 * L2);
    const F1 = Array.from(F);
    // The session holds: a pass without setup works, and gives the same first-pass result.
    claim[0] = 0;
    const [again] = hstepTask({ token: 901, ...base });
    expect(again).toEqual(first);
    expect(Array.from(F)).toEqual(F1);
    // Another solve's end leaves it; its own end drops it.
    endTask(902);
    claim[0] = 0;
    expect(() => hstepTask({ token: 901, ...base })).not.toThrow();
    endTask(901);
    expect(() => hstepTask({ token: 901, ...base })).toThrow(/no session 901/);
  });
});

describe('helper sessions end with the solve', () => {
  /** A pool whose one helper runs its tasks on this thread when waited for (as a broken one). */
  const inThread = (): ThreadPool => {
    let pending: (() => unknown) | null = null;
    return {
      helpers: 1,
      start(_h, task, input) {
        const run = TASKS[task]! as (x: unknown) => unknown;
        pending = () => run(structuredClone(input));
      },
      finish() {
        const p = pending!;
        pending = null;
        return p();
      },
    };
  };
  const graphs = (): CglGraphs => {
    const ds = synthesize({ n: 150, k: 3, dims: [5, 6, 7], completeFraction: 1, seed: 3 });
    return buildGraphs(
      ds.views.map((v) => meanImputed(v, ds.n)),
      8,
    );
  };
  const options = {
    lambda: 0.05,
    shrinkage: { kind: 'wtnn', rho: 2 } as const,
    neighbors: 8,
    iterations: 12,
    minIterations: 12,
    tolerance: 1e-6,
    path: 'factorised' as const,
  };

  it('finished, abandoned after three passes, or closed before the first: no session is left', () => {
    setThreadPool(inThread());
    try {
      const g = graphs();
      // Finished.
      const done = cglIterate(g, 3, options);
      let r = done.next();
      while (!r.done) r = done.next();
      expect(openSessions()).toBe(0);
      // Abandoned (a cancelled run): the helper's session was set up, then dropped on return().
      const gen = cglIterate(g, 3, options);
      for (let t = 0; t < 3; t++) gen.next();
      expect(openSessions()).toBe(1);
      gen.return(undefined as never);
      expect(openSessions()).toBe(0);
      // Closed before it started: nothing to end, nothing thrown.
      const idle = cglIterate(g, 3, options);
      idle.return(undefined as never);
      expect(openSessions()).toBe(0);
    } finally {
      setThreadPool(null);
    }
  });
});
