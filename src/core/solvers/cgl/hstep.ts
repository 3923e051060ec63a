/**
 * The H-step's eigensolver (factorised path): the c largest eigenpairs of
 *   G = λ·L + S,  S = Q(½(T + Tᵀ) − ½F̄F̄ᵀ)Q = Σ U·Wᵀ of rank ≤ 2Vc   (n × n, never formed).
 *
 * After the first pass S dominates: on HW (λ = 1/√n) the c wanted eigenvalues are ≈ 10⁴ and the
 * (c+1)-th ≈ 1, so warm-started subspace iteration converges in three or four products. Fast
 * path: block power iteration on G with the previous H as start and Rayleigh–Ritz on the block
 * after every product; Ritz pairs are accepted when ‖G·x_i − θ_i·x_i‖₂ ≤ tol·max(|θ_1|, μ) (the
 * block eigensolver's test) and θ_c > μ, where μ ≥ −λ_min(G) from
 *   λ_min(G) ≥ −λ + λ_min(S),  λ_min(S) ≥ −‖Q·ΔP‖_F·‖Q·F_cat‖_F
 * (λL has its spectrum in [−λ, λ]; ½QF̄F̄ᵀQ is positive semidefinite): power iteration finds the
 * eigenvalues of largest modulus, and θ_c > μ makes them the largest *algebraic* ones. When the
 * residuals shrink by less than 5× per product (no dominant gap: large λ, the first pass) or the
 * test on θ_c fails, the current block goes to `blockEig` (Chebyshev-filtered subspace iteration
 * with spectrum bounds), the general solver. Either way the returned pairs meet the tolerance.
 *
 * With `predict` (the H-step), a block that fails the test can still be accepted one product
 * early when a bound proves the next block would pass it: with β = μ ≥ max_{j>c} |λ_j| (Weyl:
 * the PSD part has rank c) and the Ritz values θ and residuals R of the current block X,
 *   sin∠(X, U) ≤ ‖R‖_F / (θ_c − β)                      (Davis–Kahan; U the top-c eigenvectors)
 *   tan∠(G·X, U) ≤ (β / θ_c) · tan∠(X, U)               (subspace iteration; λ_c ≥ θ_c)
 *   ‖(I − P)·G·X'‖ ≤ (λ_1 + β) · sin∠(X', U),  λ_1 ≤ θ_1 + ‖R‖_F   (X' = orth(G·X), P = X'X'ᵀ;
 *                                                        Kahan, as θ_c − ‖R‖_F > β)
 * and every Ritz residual of X' is at most the middle norm. When that bound meets tol·max(|θ_1|, μ)
 * the block X' = orth(G·X) (a basis of the accepted subspace, not its Ritz vectors; the H-step
 * uses only the subspace) is returned without the product that would have checked it. On HW
 * (CGL, ρ = 10) this accepts about a third of the views after two products instead of three.
 */
import { blockEig, csrOp, scaledOp, type SymOp } from '../../linalg/blockeig';
import { csrTimesBlock } from '../../linalg/csr-kernel';
import {
  gemmPacked,
  matmul,
  matmulTA,
  packLhs,
  symEig,
  thinFactor,
  thinNN,
  thinTA,
  type PackedLhs,
  type ThinFactor,
} from '../../linalg/kernels';
import { orthonormalise, orthWork, type OrthWork } from '../../linalg/orth';
import type { Csr, Mat } from '../../linalg/types';

/**
 * An n × w factor ready for `HStepOp`'s products: thin (w ≤ 64 on the wasm kernel: copied once
 * into its memory, products on the tall kernels, `thinFactor`) or packed both ways for
 * `gemmPacked` (as the left operand and transposed). Either way the products have `gemm`'s bits.
 */
export interface PackedFactor {
  readonly w: number;
  readonly thin: ThinFactor | null;
  readonly plain: PackedLhs | null;
  readonly trans: PackedLhs | null;
}

/** A ready for `HStepOp`; with `reuse`, over its storage (that factor must not be used again). */
export function packFactor(A: Mat, reuse?: PackedFactor | null): PackedFactor {
  const thin = thinFactor(A);
  if (thin) return { w: A.cols, thin, plain: null, trans: null };
  return {
    w: A.cols,
    thin: null,
    plain: packLhs(A, false, reuse?.plain),
    trans: packLhs(A, true, reuse?.trans),
  };
}

/**
 * G_v = λ·L_v + Q·(½F̄_vF̄_vᵀ + ½(B·Aᵀ + A·Bᵀ))·Q of one view (factorised path), with
 * A = F_cat and B = ΔP_v (n × w, w = Vc), Q = diag(q): that is λL_v + Q(½(T_v + T_vᵀ) − ½F̄_vF̄_vᵀ)Q
 * for T_v = F̄_vF̄_vᵀ + B·Aᵀ. Applied to X (n × b) as
 *   X' = Q·X,  T₁ = Aᵀ·X',  T₂ = Bᵀ·X'  (w × b),
 *   G·X = λ·L·X + Q·(A·(½T₂ + ½E_vE_vᵀT₁) + B·(½T₁)),
 * E_vE_vᵀ keeping the rows of T₁ that belong to view v (F̄_v = A·E_v). Four products with packed
 * n × w factors, 4nwb flops, plus 2·nnz(L)·b: F_cat is prepared (`packFactor`) once per pass for
 * every view, ΔP_v once per pass for its view, and nothing of size n × 2w is formed.
 */
export class HStepOp implements SymOp {
  readonly n: number;
  private readonly graph: SymOp;

  constructor(
    L: Csr,
    private readonly lambda: number,
    private readonly q: Float64Array,
    /** Rows v·c … (v+1)·c − 1 of T₁ belong to this view. */
    private readonly v: number,
    private readonly c: number,
    private readonly A: PackedFactor,
    private readonly B: PackedFactor,
    /** Buffers the products work in (grown as needed): a solver passes the same every pass. */
    private readonly scratch: OpScratch = opScratch(),
  ) {
    this.n = L.rows;
    this.graph = csrOp(L);
  }

  apply(X: Mat, Y: Mat): void {
    const { n, q, lambda, A, B, scratch: sc } = this;
    const b = X.cols;
    const w = A.w;
    const thin = A.thin !== null && B.thin !== null;
    if (sc.xq.length < n * b) {
      sc.xq = new Float64Array(n * b);
      sc.yq = new Float64Array(n * b);
      sc.yq2 = new Float64Array(n * b);
    }
    if (sc.t1.length < w * b) {
      sc.t1 = new Float64Array(w * b);
      sc.t2 = new Float64Array(w * b);
    }
    const x = X.data;
    const xq = sc.xq;
    scaleRows(q, x, xq, n, b);
    const Xq: Mat = { rows: n, cols: b, data: xq.subarray(0, n * b) };
    const T1: Mat = { rows: w, cols: b, data: sc.t1.subarray(0, w * b) };
    const T2: Mat = { rows: w, cols: b, data: sc.t2.subarray(0, w * b) };
    if (thin) {
      thinTA(A.thin!, Xq, T1);
      thinTA(B.thin!, Xq, T2);
    } else {
      gemmPacked(A.trans!, Xq, T1);
      gemmPacked(B.trans!, Xq, T2);
    }
    // T₂ ← K₁ = ½T₂ + ½E_vE_vᵀT₁, T₁ ← K₂ = ½T₁.
    const t1 = T1.data;
    const t2 = T2.data;
    const lo = this.v * this.c * b;
    foldHalves(t1, t2, w * b, lo, lo + this.c * b);
    const Yq: Mat = { rows: n, cols: b, data: sc.yq.subarray(0, n * b) };
    this.graph.apply(X, Y);
    const y = Y.data;
    const yq = Yq.data;
    if (thin) {
      // Yq = A·K₁ + B·K₂, summed below as gemmPacked's β = 1 adds the second product into the
      // first.
      const Y2: Mat = { rows: n, cols: b, data: sc.yq2.subarray(0, n * b) };
      thinNN(A.thin!, T2, Yq);
      thinNN(B.thin!, T1, Y2);
      this.lastTrace = combine(x, y, yq, Y2.data, q, lambda, n, b);
    } else {
      gemmPacked(A.plain!, T2, Yq);
      gemmPacked(B.plain!, T1, Yq, { beta: 1 });
      this.lastTrace = combine(x, y, yq, null, q, lambda, n, b);
    }
  }

  /**
   * tr(XᵀL·X) of the last block applied. When the eigensolver's fast path returns Ritz vectors
   * H = X·Φ of that block (Φ orthogonal), tr(HᵀLH) = tr(XᵀLX): the graph term's trace without
   * another product with L.
   */
  lastTrace = NaN;
}

/*
 * The loops of the H-step's hot functions live in small functions of their own (here and
 * below): V8 then optimises each loop once, instead of compiling the large function around it
 * on the loop's first long run (on-stack replacement) and again whenever a path it had not
 * seen yet runs (measured with --trace-opt on HW: `topEigenpairs` 13 TurboFan compilations per
 * solve, `solve` 11, `apply` 12).
 */

/** out[i·b + j] = q_i·x[i·b + j] (Q·X, n × b). */
function scaleRows(
  q: Float64Array,
  x: Float64Array,
  out: Float64Array,
  n: number,
  b: number,
): void {
  for (let i = 0; i < n; i++) {
    const qi = q[i]!;
    for (let j = i * b; j < (i + 1) * b; j++) out[j] = qi * x[j]!;
  }
}

/** T₂ ← ½T₂ + ½E_vE_vᵀT₁ (entries lo … hi − 1 are the view's rows), T₁ ← ½T₁. */
function foldHalves(t1: Float64Array, t2: Float64Array, len: number, lo: number, hi: number): void {
  for (let p = 0; p < len; p++) {
    const h = 0.5 * t1[p]!;
    t2[p] = 0.5 * t2[p]! + (p >= lo && p < hi ? h : 0);
    t1[p] = h;
  }
}

/**
 * Y ← λ·Y + Q·(Yq + Y2) (Y2 null: Q·Yq), Y holding L·X on entry; returns tr(XᵀL·X), summed
 * before Y is overwritten.
 */
function combine(
  x: Float64Array,
  y: Float64Array,
  yq: Float64Array,
  y2: Float64Array | null,
  q: Float64Array,
  lambda: number,
  n: number,
  b: number,
): number {
  let trace = 0;
  if (y2) {
    for (let i = 0; i < n; i++) {
      const qi = q[i]!;
      for (let j = i * b; j < (i + 1) * b; j++) {
        trace += x[j]! * y[j]!;
        y[j] = lambda * y[j]! + qi * (yq[j]! + y2[j]!);
      }
    }
  } else {
    for (let i = 0; i < n; i++) {
      const qi = q[i]!;
      for (let j = i * b; j < (i + 1) * b; j++) {
        trace += x[j]! * y[j]!;
        y[j] = lambda * y[j]! + qi * yq[j]!;
      }
    }
  }
  return trace;
}

/** `HStepOp`'s buffers: Q·X and its product (n × b), T₁ and T₂ (w × b). */
export interface OpScratch {
  xq: Float64Array;
  yq: Float64Array;
  /** The second product of a thin factor pair. */
  yq2: Float64Array;
  t1: Float64Array;
  t2: Float64Array;
}

export const opScratch = (): OpScratch => ({
  xq: new Float64Array(0),
  yq: new Float64Array(0),
  yq2: new Float64Array(0),
  t1: new Float64Array(0),
  t2: new Float64Array(0),
});

/**
 * The fast path's blocks (n × c each), kept by a caller that solves many eigenproblems of one
 * size (the H-step, every pass) instead of five n × c arrays allocated and dropped per call
 * (on HW, with the operator's buffers: peak RSS 280 → 235 MB; time unchanged within noise).
 */
export interface FastWork {
  readonly X: Mat;
  readonly Y: Mat;
  readonly S2: Mat;
  readonly Xr: Mat;
  readonly Yr: Mat;
  readonly orth: OrthWork;
}

export function fastWork(n: number, c: number): FastWork {
  const block = (): Mat => ({ rows: n, cols: c, data: new Float64Array(n * c) });
  return { X: block(), Y: block(), S2: block(), Xr: block(), Yr: block(), orth: orthWork(c) };
}

export interface TopEig {
  /** (n, c) orthonormal eigenvectors, eigenvalues descending. */
  readonly vectors: Mat;
  readonly values: Float64Array;
  readonly converged: boolean;
  /** Products with G (blocks of c columns count once) and whether blockEig was needed. */
  readonly products: number;
  readonly fallback: boolean;
  /**
   * Accepted by the bound on the next block (`predict`): `vectors` is an orthonormal basis of
   * the accepted subspace, not Ritz vectors, and `values` are the previous block's Ritz values.
   */
  readonly predicted: boolean;
}

const MAX_FAST = 30;

/**
 * The block eigensolver's width: its default c + max(3, ⌈c/4⌉) rounded up to a multiple of 8 (at
 * most n), since the CSR kernel takes columns 8 at a time: on HW's first pass (c = 10) a width of
 * 16 needs fewer products than 13 and each costs less per column (0.57 s against 0.73 s).
 */
function blockSize(c: number, n: number): number {
  return Math.min(n, Math.ceil((c + Math.max(3, Math.ceil(c / 4))) / 8) * 8);
}

/**
 * Top-c eigenpairs of `op` (n × n) from the start block X0 (n × c, orthonormal unless
 * checkFrom > 1: the first product is then a plain power step); `shift` = μ with
 * G + μI ⪰ 0. Falls back to `blockEig` (see the module comment).
 */
export function topEigenpairs(
  op: SymOp,
  c: number,
  X0: Mat | null,
  shift: number,
  tol: number,
  bounds: { lower: number; upper: number } | null,
  /** The first product after which the Ritz pairs are tested (1: test the start block too). */
  checkFrom = 1,
  /**
   * The fast path's blocks (`fastWork(n, c)`), reused from call to call; the vectors returned
   * are then its `Xr`, valid until the next call with it.
   */
  fw?: FastWork,
  /** Accept a block one product early when the bound above proves it (needs `bounds`, μ). */
  predict = false,
): TopEig {
  const n = op.n;
  if (X0 && 2 * c < n) {
    const { X, Y, S2, Xr, Yr, orth: work } = fw ?? fastWork(n, c);
    X.data.set(X0.data);
    const res = new Float64Array(2);
    // Ritz blocks X·Φ (returned on convergence) and Y·Φ, written in place every iteration.
    let prev = Infinity;
    for (let it = 1; it <= MAX_FAST; it++) {
      op.apply(X, Y);
      if (it < checkFrom) {
        // A start known not to be converged: a plain power step, no Rayleigh–Ritz.
        X.data.set(orthonormalise(Y, S2, work).data);
        continue;
      }
      // Rayleigh–Ritz on span(X): Hm = XᵀY, Hm = Φ·Θ·Φᵀ.
      const Hm = matmulTA(X, Y);
      const e = symEig(Hm);
      const Phi: Mat = { rows: c, cols: c, data: new Float64Array(c * c) };
      const theta = new Float64Array(c);
      for (let j = 0; j < c; j++) {
        theta[j] = e.values[c - 1 - j]!;
        for (let i = 0; i < c; i++) Phi.data[i * c + j] = e.vectors.data[i * c + (c - 1 - j)]!;
      }
      matmul(X, Phi, Xr);
      matmul(Y, Phi, Yr);
      const norm = Math.max(Math.abs(theta[0]!), shift);
      ritzResiduals(Yr.data, Xr.data, theta, n, c, res);
      const worst = res[0]!;
      const ss = res[1]!;
      const accept = (predicted: boolean): TopEig => ({
        vectors: Xr,
        values: theta,
        converged: true,
        products: it,
        fallback: false,
        predicted,
      });
      // Converged, and the c-th value lies above every possible negative eigenvalue.
      if (worst <= tol * norm && theta[c - 1]! > shift) return accept(false);
      if (predict && bounds && nextMeetsTol(theta, Math.sqrt(ss), shift, tol * norm)) {
        // The next block, orth(G·X_ritz), provably meets the test: returned unchecked.
        Y.data.set(Yr.data);
        Xr.data.set(orthonormalise(Y, S2, work).data);
        return accept(true);
      }
      if (it >= 3 && worst > prev * 0.2) break;
      if (worst <= tol * norm) break; // converged to eigenvalues that may not be the largest
      prev = worst;
      // Next block: orth(G·X_ritz).
      Y.data.set(Yr.data);
      X.data.set(orthonormalise(Y, S2, work).data);
    }
    const r = blockEig(op, c, {
      which: 'largest',
      tol,
      maxIter: 500,
      denseBelow: 0,
      blockSize: blockSize(c, n),
      X0: X,
      ...(bounds ? { bounds } : {}),
    });
    return {
      vectors: r.vectors,
      values: r.values,
      converged: r.converged,
      products: r.matvecs,
      fallback: true,
      predicted: false,
    };
  }
  const r = blockEig(op, c, {
    which: 'largest',
    tol,
    maxIter: 500,
    denseBelow: 0,
    blockSize: blockSize(c, n),
    ...(X0 ? { X0 } : {}),
    ...(bounds ? { bounds } : {}),
  });
  return {
    vectors: r.vectors,
    values: r.values,
    converged: r.converged,
    products: r.matvecs,
    fallback: X0 !== null,
    predicted: false,
  };
}

/**
 * The Ritz residuals' largest 2-norm and squared Frobenius norm, max_j ‖y_j − θ_j·x_j‖ and
 * Σ_j ‖y_j − θ_j·x_j‖², for the n × c blocks Yr = G·Xr, into out[0] and out[1].
 */
function ritzResiduals(
  yr: Float64Array,
  xr: Float64Array,
  theta: Float64Array,
  n: number,
  c: number,
  out: Float64Array,
): void {
  let worst = 0;
  let ss = 0;
  for (let j = 0; j < c; j++) {
    let r = 0;
    for (let i = 0; i < n; i++) {
      const d = yr[i * c + j]! - theta[j]! * xr[i * c + j]!;
      r += d * d;
    }
    worst = Math.max(worst, Math.sqrt(r));
    ss += r;
  }
  out[0] = worst;
  out[1] = ss;
}

/**
 * Whether the block orth(G·X) after the Ritz pairs (θ descending, residuals of Frobenius norm
 * `fro`) provably has every Ritz residual ≤ `limit`, with β ≥ max_{j>c} |λ_j(G)| (the module
 * comment's bound).
 */
function nextMeetsTol(theta: Float64Array, fro: number, beta: number, limit: number): boolean {
  const thetaC = theta[theta.length - 1]!;
  if (!(thetaC - fro > beta) || !(beta >= 0)) return false;
  const sin1 = fro / (thetaC - beta);
  if (!(sin1 < 1)) return false;
  const tan2 = (beta / thetaC) * (sin1 / Math.sqrt(1 - sin1 * sin1));
  // sin ≤ tan; λ_1 ≤ θ_1 + ‖R‖_F.
  return (theta[0]! + fro + beta) * tan2 <= limit;
}

/** One view's H-step outcome (factorised path). */
export interface HViewResult {
  /** (n, c) H_v, eigenvalues descending: the solver's storage, valid until its next solve. */
  readonly vectors: Mat;
  readonly products: number;
  readonly converged: boolean;
  /** tr(H_vᵀL_vH_v) when the eigensolver's fast path had it (`HStepOp.lastTrace`), else NaN. */
  readonly trace: number;
}

/**
 * The buffers of a thread's view solves, shared by its `HViewSolver`s (a thread solves its views
 * one after another, and a solve's vectors are used before the next one starts): the start
 * block, the fast path's blocks, the operator's buffers and ΔP_v's packed storage.
 */
export interface ViewWork {
  readonly X0: Mat;
  readonly fw: FastWork;
  readonly scratch: OpScratch;
  packedDP: PackedFactor | null;
}

export function viewWork(n: number, c: number): ViewWork {
  return {
    X0: { rows: n, cols: c, data: new Float64Array(n * c) },
    fw: fastWork(n, c),
    scratch: opScratch(),
    packedDP: null,
  };
}

/**
 * The factorised H-step of one view (its graph and constants; the buffers it reuses from pass to
 * pass are a `ViewWork`). The same code runs in the solver's thread and in a helper thread
 * (`core/tasks.ts`), whichever takes the view: the result does not depend on where.
 */
export class HViewSolver {
  constructor(
    readonly L: Csr,
    readonly v: number,
    private readonly c: number,
    readonly lambda: number,
    private readonly eigTol: number,
    /** Shared with the thread's other views (`viewWork`); its own by default. */
    private readonly work: ViewWork = viewWork(L.rows, c),
  ) {}

  /**
   * First pass (`Fcat` null): the top-c eigenvectors of λL_v. Later passes: of
   * G_v = λL_v + Q(½(T_v + T_vᵀ) − ½F̄_vF̄_vᵀ)Q with q = q_v, F_cat (n × Vc) the previous iterate
   * (packed as `packedFcat`), ΔP_v (n × Vc) from the T-step.
   */
  solve(
    q: Float64Array,
    Fcat: Mat | null,
    packedFcat: PackedFactor | null,
    dP: Mat | null,
    /** F_cat's squared row norms (`fcatNorms`), when the caller made them for all views. */
    norms: FcatNorms | null = null,
  ): HViewResult {
    const { L, v, c, lambda } = this;
    const n = L.rows;
    let op: SymOp = scaledOp(lambda, csrOp(L));
    let shift = lambda;
    let upper = lambda;
    const first = Fcat === null;
    if (!first) {
      const w = Fcat.cols;
      const wk = this.work;
      wk.packedDP = packFactor(dP!, wk.packedDP);
      op = new HStepOp(L, lambda, q, v, c, packedFcat!, wk.packedDP, wk.scratch);
      // Spectrum bounds: ‖Q·ΔP_v‖_F·‖Q·F_cat‖_F bounds ½(B·Aᵀ + A·Bᵀ) (with Q on both sides) in
      // norm, ½‖Q·F̄_v‖²_F the positive semidefinite ½QF̄_vF̄_vᵀQ.
      const dp = dP!.data;
      const f = Fcat.data;
      const sums = boundSums(dp, q, norms ?? fcatNorms(Fcat, c), n, w, w / c, v);
      const nP = sums[0]!;
      const nF = sums[1]!;
      const nV = sums[2]!;
      const cross = Math.sqrt(nP * nF);
      shift = lambda + cross;
      upper = lambda + 0.5 * nV + cross;
      // Start block Q·F̄_v (F̄_v = F_cat's columns v·c …): S's leading part is ½·QF̄_vF̄_vᵀQ,
      // whose range is that of QF̄_v, and the c wanted eigenvectors lie close to it (on HW a
      // residual of ≈ 1e-4 before the first product, against ≈ 0.5 from the previous H_v): one
      // product fewer per view. Not orthonormalised: the first product is a plain power step,
      // orth(G·X), whose span does not depend on the basis X is given in.
      scaledViewBlock(q, f, this.work.X0.data, n, c, w, v);
    }
    // The start is not expected to meet the tolerance (ΔP_v and λL_v move the eigenvectors off
    // it): the first product is a plain power step.
    const r = topEigenpairs(
      op,
      c,
      first ? null : this.work.X0,
      shift,
      this.eigTol,
      { lower: -shift, upper },
      2,
      this.work.fw,
      !first,
    );
    // The fast path's Ritz vectors rotate the block of the last product: its tr(XᵀLX) holds
    // (not for a block accepted by the bound, which no product has seen: graphTerm makes it).
    const trace = !r.fallback && !r.predicted && op instanceof HStepOp ? op.lastTrace : NaN;
    return { vectors: r.vectors, products: r.products, converged: r.converged, trace };
  }
}

/**
 * The spectrum bounds' sums ‖Q·ΔP_v‖²_F, ‖Q·F_cat‖²_F and ‖Q·F̄_v‖²_F (in that order) from
 * ΔP_v (n × w) and F_cat's row norms.
 */
function boundSums(
  dp: Float64Array,
  q: Float64Array,
  norms: FcatNorms,
  n: number,
  w: number,
  V: number,
  v: number,
): [number, number, number] {
  const { all, view } = norms;
  let nP = 0;
  let nF = 0;
  let nV = 0;
  for (let i = 0; i < n; i++) {
    let sp = 0;
    for (let j = i * w; j < (i + 1) * w; j++) sp += dp[j]! * dp[j]!;
    const q2 = q[i]! * q[i]!;
    nP += q2 * sp;
    nF += q2 * all[i]!;
    nV += q2 * view[i * V + v]!;
  }
  return [nP, nF, nV];
}

/** x (n × c) = Q·F̄_v, F̄_v being F_cat's (n × w) columns v·c … (v+1)·c − 1. */
function scaledViewBlock(
  q: Float64Array,
  f: Float64Array,
  x: Float64Array,
  n: number,
  c: number,
  w: number,
  v: number,
): void {
  for (let i = 0; i < n; i++) {
    const qi = q[i]!;
    for (let j = 0; j < c; j++) x[i * c + j] = qi * f[i * w + v * c + j]!;
  }
}

/** F_cat's squared row norms: whole rows, and per view (n × V) the row of F̄_v. */
export interface FcatNorms {
  readonly all: Float64Array;
  readonly view: Float64Array;
}

/**
 * `FcatNorms` of F_cat (n × Vc), into `out` when it has room: made once per pass for every
 * view's spectrum bounds instead of once per view (the same sums, in the same order).
 */
export function fcatNorms(Fcat: Mat, c: number, out: FcatNorms | null = null): FcatNorms {
  const { rows: n, cols: w, data: f } = Fcat;
  const V = w / c;
  const r =
    out && out.all.length === n && out.view.length === n * V
      ? out
      : { all: new Float64Array(n), view: new Float64Array(n * V) };
  for (let i = 0; i < n; i++) {
    let sf = 0;
    for (let j = i * w; j < (i + 1) * w; j++) sf += f[j]! * f[j]!;
    r.all[i] = sf;
    for (let v = 0; v < V; v++) {
      let sv = 0;
      for (let j = i * w + v * c; j < i * w + (v + 1) * c; j++) sv += f[j]! * f[j]!;
      r.view[i * V + v] = sv;
    }
  }
  return r;
}

/** q_i = 1/‖h_i‖ (0 for a zero row), F̄ = diag(q)·H; returns the number of zero rows. */
export function normaliseInto(H: Mat, q: Float64Array, F: Mat): number {
  const { rows, cols } = H;
  let zeros = 0;
  for (let i = 0; i < rows; i++) {
    let s = 0;
    for (let j = 0; j < cols; j++) s += H.data[i * cols + j]! ** 2;
    const qi = s > 0 ? 1 / Math.sqrt(s) : 0;
    if (s === 0) zeros++;
    q[i] = qi;
    for (let j = 0; j < cols; j++) F.data[i * cols + j] = H.data[i * cols + j]! * qi;
  }
  return zeros;
}

/**
 * ½λ‖L − HHᵀ‖² = ½λ(‖L‖² − 2·tr(HᵀLH) + ‖HᵀH‖²), from n × c products; `trace` = tr(HᵀLH) when
 * the eigensolver already has it (`HStepOp.lastTrace`), else it is computed here.
 */
/** L·H's storage for `graphTerm`, grown as needed (one per thread: each has its own module). */
let traceWork = new Float64Array(0);

export function graphTerm(lambda: number, L: Csr, L2: number, H: Mat, trace = NaN): number {
  let tr = trace;
  if (Number.isNaN(tr)) {
    // L·H on the operators' CSR kernel (WebAssembly where available: ≈ 0.12 ms per view on HW,
    // where the plain `spmm` took ≈ 1.4 ms for each block the bound accepts).
    if (traceWork.length < H.rows * H.cols) traceWork = new Float64Array(H.rows * H.cols);
    const LH = traceWork.subarray(0, H.rows * H.cols);
    csrTimesBlock(L, H.data, LH, H.cols);
    tr = dotAll(LH, H.data);
  }
  const HtH = matmulTA(H, H).data;
  return 0.5 * lambda * (L2 - 2 * tr + dotAll(HtH, HtH));
}

/** Σ_p a_p·b_p over a's length, in order. */
function dotAll(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let p = 0; p < a.length; p++) s += a[p]! * b[p]!;
  return s;
}
