/**
 * The H-step's eigenproblem (factorised path): the c largest eigenpairs of
 *   G = λ·L + S,  S = Q(½(T + Tᵀ) − ½F̄F̄ᵀ)Q = Σ U·Wᵀ of rank ≤ 2Vc   (n × n, never formed),
 * solved by the warm-started `topEigenpairs` (`core/linalg/topeig.ts`) on `HStepOp`, G's
 * products from the factors. After the first pass S dominates (the c wanted eigenvalues lie far
 * above the rest), so the warm start converges in a few products. Its shift is
 *   μ = λ + ‖Q·ΔP‖_F·‖Q·F_cat‖_F ≥ −λ_min(G),  as λ_min(G) ≥ −λ + λ_min(S) and
 *   λ_min(S) ≥ −‖Q·ΔP‖_F·‖Q·F_cat‖_F
 * (λL has its spectrum in [−λ, λ]; ½QF̄F̄ᵀQ is positive semidefinite), and the same μ bounds
 * max_{j>c} |λ_j| (Weyl: the positive semidefinite part has rank c), which lets the eigensolver
 * accept a block one product early (`predict`): the H-step uses only the subspace.
 */
import { csrOp, scaledOp, type SymOp } from '../../linalg/blockeig';
import { csrTimesBlock } from '../../linalg/csr-kernel';
import {
  gemmPacked,
  matmulTA,
  packLhs,
  thinFactor,
  thinNN,
  thinTA,
  type PackedLhs,
  type ThinFactor,
} from '../../linalg/kernels';
import { fastWork, topEigenpairs, type FastWork } from '../../linalg/topeig';
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
 * seen yet runs.
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
      // whose range is that of QF̄_v, and the c wanted eigenvectors lie closer to it than to the
      // previous H_v: one product fewer per view. Not orthonormalised: the first product is a
      // plain power step,
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

/** L·H's storage for `graphTerm`, grown as needed (one per thread: each has its own module). */
let traceWork = new Float64Array(0);

/**
 * ½λ‖L − HHᵀ‖² = ½λ(‖L‖² − 2·tr(HᵀLH) + ‖HᵀH‖²), from n × c products; `trace` = tr(HᵀLH) when
 * the eigensolver already has it (`HStepOp.lastTrace`), else it is computed here.
 */
export function graphTerm(lambda: number, L: Csr, L2: number, H: Mat, trace = NaN): number {
  let tr = trace;
  if (Number.isNaN(tr)) {
    // L·H on the operators' CSR kernel (WebAssembly where available), several times faster
    // than the plain `spmm` for each block the bound accepts.
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
