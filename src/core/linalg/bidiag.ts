/**
 * Householder bidiagonalisation A = Q·B·Pᵀ of a row-major A (m×n, m ≥ n), B upper bidiagonal
 * (LAPACK dgebrd with dlabrd's panels; Golub & Kahan 1965). Column j of A is reduced by a left
 * reflector H_j = I − τq_j·u_j·u_jᵀ (u_j stored below the diagonal of column j), row j right of
 * the superdiagonal by a right reflector G_j = I − τp_j·v_j·v_jᵀ (v_j stored in row j from
 * column j+2); Q = H₀···H_{n−1}, P = G₀···G_{n−2}.
 *
 * Blocking (dlabrd): a panel of PNB columns and rows is reduced while the trailing matrix is left
 * as it was; the panel keeps X (m×PNB) and Y (n×PNB) with the trailing matrix's true value
 * A − U·Yᵀ − X·Vᵀ (U, V the panel's vectors), so each reduction step costs two matrix–vector
 * products with the trailing matrix (row-wise: contiguous) plus O((m+n)·PNB) work, and the
 * trailing matrix is updated once per panel by two GEMMs. ≈ 4mn² − 4n³/3 flops, half of them in
 * GEMM. `applyQ` / `applyP` form Q·X and P·X by compact WY blocks (householder.ts), all GEMM.
 */
import { gemmStrided } from './gemm';
import { applyBlockLeft, blockReflectorT, blockWork, householder } from './householder';
import { type GemvWorkspace, gemvWorkspace, trimSymvMemory } from './symv-kernel';

/** Reflectors per block of `applyQ` / `applyP` (the inner dimension of their GEMMs). */
const NB = 32;
/**
 * Panel width of the reduction. Each step of a panel costs O((m + n)·width) in the loops that
 * bring its column and row up to date, against a trailing update whose GEMMs gain little from a
 * wider panel at the orders the solvers use (a few hundred): a narrow panel is faster there.
 */
const PNB = 12;

/** The reduced form: a holds the reflectors (see the module comment); d, e are B. */
export interface Bidiag {
  readonly m: number;
  readonly n: number;
  readonly a: Float64Array;
  readonly d: Float64Array;
  readonly e: Float64Array;
  readonly tauq: Float64Array;
  readonly taup: Float64Array;
}

/**
 * Bidiagonalises a (m×n row-major, m ≥ n; overwritten by the reflectors). O(mn²). Where the wasm
 * matrix-vector kernels are available (symv-kernel.ts) the matrix is reduced in place in their
 * module's memory, the trailing GEMMs included, and copied back at the end; the results are the
 * same bits as with the TypeScript loops.
 */
export function bidiagonalise(a: Float64Array, m: number, n: number): Bidiag {
  const ws = gemvWorkspace(m, n);
  if (!ws) return reduce(a, m, n, null);
  ws.a.set(a.subarray(0, m * n));
  const F = reduce(ws.a, m, n, ws);
  a.set(ws.a);
  trimSymvMemory();
  return { ...F, a };
}

/** `bidiagonalise` on `a`, which is `ws.a` when the wasm kernels are used. */
function reduce(a: Float64Array, m: number, n: number, ws: GemvWorkspace | null): Bidiag {
  const d = new Float64Array(n);
  const e = new Float64Array(Math.max(n - 1, 0));
  const tauq = new Float64Array(n);
  const taup = new Float64Array(n);
  const x = new Float64Array(m * PNB);
  const y = new Float64Array(n * PNB);
  const col = new Float64Array(m);
  const tmp = new Float64Array(PNB);
  const vi = new Float64Array(PNB);
  const yc = ws ? ws.y : new Float64Array(n);
  for (let j0 = 0; j0 < n; j0 += PNB) {
    const nb = Math.min(PNB, n - j0);
    panel(a, m, n, j0, nb, d, e, tauq, taup, x, y, col, tmp, vi, yc, ws);
    const r0 = j0 + nb;
    if (r0 < n) {
      // A[r0:, r0:] −= U·Yᵀ + X·V, U = A[r0:, j0:r0], V = A[j0:r0, r0:] (units in place).
      const C = { data: a, offset: r0 * n + r0, ld: n };
      gemmStrided(
        m - r0,
        n - r0,
        nb,
        -1,
        { data: a, offset: r0 * n + j0, ld: n },
        false,
        { data: y, offset: r0 * PNB, ld: PNB },
        true,
        1,
        C,
      );
      gemmStrided(
        m - r0,
        n - r0,
        nb,
        -1,
        { data: x, offset: r0 * PNB, ld: PNB },
        false,
        { data: a, offset: j0 * n + r0, ld: n },
        false,
        1,
        C,
      );
    }
    for (let j = j0; j < r0; j++) {
      a[j * n + j] = d[j]!;
      if (j + 1 < n) a[j * n + j + 1] = e[j]!;
    }
  }
  return { m, n, a, d, e, tauq, taup };
}

/**
 * dlabrd for columns/rows j0 … j0+nb−1. On return the panel's reflectors are in a with unit
 * entries at a[j, j] and a[j, j+1] (restored to d, e by the caller after the trailing update),
 * and x, y (ld PNB, rows indexed globally) hold X and Y.
 */
function panel(
  a: Float64Array,
  m: number,
  n: number,
  j0: number,
  nb: number,
  d: Float64Array,
  e: Float64Array,
  tauq: Float64Array,
  taup: Float64Array,
  x: Float64Array,
  y: Float64Array,
  col: Float64Array,
  tmp: Float64Array,
  vi: Float64Array,
  yc: Float64Array,
  ws: GemvWorkspace | null,
): void {
  const L = PNB;
  for (let l = 0; l < nb; l++) {
    const i = j0 + l;
    // Column i (rows i…m−1) brought up to date: −= U[:, 0:l]·Y[i, 0:l]ᵀ + X[:, 0:l]·V[0:l, i].
    for (let q = 0; q < l; q++) vi[q] = a[(j0 + q) * n + i]!;
    for (let r = i; r < m; r++) {
      let s = a[r * n + i]!;
      const ar = r * n + j0;
      const xr = r * L;
      for (let q = 0; q < l; q++) s -= a[ar + q]! * y[i * L + q]! + x[xr + q]! * vi[q]!;
      col[r - i] = s;
    }
    const beta = householder(col, 0, m - i, tauq, i);
    d[i] = beta;
    a[i * n + i] = 1;
    for (let r = i + 1; r < m; r++) a[r * n + i] = col[r - i]!;
    if (i === n - 1) continue;
    const tq = tauq[i]!;
    // u = A[i:, i] (unit first). Y[i+1:, l] = τq·(Aᵀu − Y·(Uᵀu) − Vᵀ·(Xᵀu)) over the trailing
    // columns, A being the not yet updated trailing matrix.
    // yc (contiguous) accumulates Y[:, l]; it is scattered into y at the end.
    yc.fill(0, i + 1, n);
    if (ws) {
      // The same two-row sums in wasm, yc being ws.y: yc = Aᵀu over columns i+1…, tmp over
      // the panel's columns j0…i−1.
      for (let r = i; r < m; r++) ws.u[r] = a[r * n + i]!;
      ws.t.fill(0, j0, i);
      ws.gemvT(i, m, i + 1, n, 'y');
      ws.gemvT(i, m, j0, i, 't');
      for (let q = 0; q < l; q++) tmp[q] = ws.t[j0 + q]!;
    } else panelAtu(a, m, n, i, j0, l, tmp, yc);
    // Y[i+1:, l] −= Y[i+1:, 0:l]·tmp.
    for (let c = i + 1; c < n; c++) {
      let s = 0;
      for (let q = 0; q < l; q++) s += y[c * L + q]! * tmp[q]!;
      yc[c]! -= s;
    }
    // tmp = Xᵀu, then Y[i+1:, l] −= V[0:l, i+1:]ᵀ·tmp.
    for (let q = 0; q < l; q++) tmp[q] = 0;
    for (let r = i; r < m; r++) {
      const ur = a[r * n + i]!;
      for (let q = 0; q < l; q++) tmp[q]! += x[r * L + q]! * ur;
    }
    for (let q = 0; q < l; q++) {
      const t = tmp[q]!;
      const vr = (j0 + q) * n;
      for (let c = i + 1; c < n; c++) yc[c]! -= a[vr + c]! * t;
    }
    for (let c = i + 1; c < n; c++) y[c * L + l] = yc[c]! * tq;

    // Row i (columns i+1…) brought up to date: −= Y[i+1:, 0:l+1]·U[i, 0:l+1]ᵀ + V[0:l, :]ᵀ·X[i, 0:l].
    const ri = i * n;
    for (let c = i + 1; c < n; c++) {
      let s = a[ri + c]!;
      for (let q = 0; q <= l; q++) s -= y[c * L + q]! * a[ri + j0 + q]!;
      a[ri + c] = s;
    }
    for (let q = 0; q < l; q++) {
      const t = x[i * L + q]!;
      const vr = (j0 + q) * n;
      for (let c = i + 1; c < n; c++) a[ri + c]! -= a[vr + c]! * t;
    }
    const eb = householder(a, ri + i + 1, n - i - 1, taup, i);
    e[i] = eb;
    a[ri + i + 1] = 1;
    const tp = taup[i]!;
    // v = A[i, i+1:]. X[i+1:, l] = τp·(A·v − U·(Yᵀv) − X·(V·v)) over the trailing rows.
    if (ws) {
      ws.gemv(i + 1, m, i + 1, n, i);
      for (let r = i + 1; r < m; r++) x[r * L + l] = ws.x[r]!;
    } else panelAv(a, m, n, i, l, x);
    // tmp = Y[i+1:, 0:l+1]ᵀ·v, X[i+1:, l] −= U[i+1:, 0:l+1]·tmp.
    for (let q = 0; q <= l; q++) tmp[q] = 0;
    for (let c = i + 1; c < n; c++) {
      const vc = a[ri + c]!;
      for (let q = 0; q <= l; q++) tmp[q]! += y[c * L + q]! * vc;
    }
    for (let r = i + 1; r < m; r++) {
      let s = 0;
      for (let q = 0; q <= l; q++) s += a[r * n + j0 + q]! * tmp[q]!;
      x[r * L + l]! -= s;
    }
    // tmp = V[0:l, i+1:]·v, X[i+1:, l] −= X[i+1:, 0:l]·tmp.
    for (let q = 0; q < l; q++) {
      let s = 0;
      const vr = (j0 + q) * n;
      for (let c = i + 1; c < n; c++) s += a[vr + c]! * a[ri + c]!;
      tmp[q] = s;
    }
    for (let r = i + 1; r < m; r++) {
      let s = 0;
      for (let q = 0; q < l; q++) s += x[r * L + q]! * tmp[q]!;
      x[r * L + l] = tp * (x[r * L + l]! - s);
    }
  }
}

/**
 * The panel's Aᵀu in TypeScript (u = column i of a, rows i…m−1): yc[c] += Σ_r u_r·a[r, c] for
 * c > i and tmp[q] = Σ_r a[r, j0+q]·u_r for q < l. Two rows per pass, so yc is loaded and stored
 * once for both; the wasm kernel (`GemvWorkspace.gemvT`) does the same operations.
 */
function panelAtu(
  a: Float64Array,
  m: number,
  n: number,
  i: number,
  j0: number,
  l: number,
  tmp: Float64Array,
  yc: Float64Array,
): void {
  for (let q = 0; q < l; q++) tmp[q] = 0;
  let r = i;
  for (; r + 1 < m; r += 2) {
    const ar = r * n;
    const br = ar + n;
    const u0 = a[ar + i]!;
    const u1 = a[br + i]!;
    for (let c = i + 1; c < n; c++) yc[c]! += u0 * a[ar + c]! + u1 * a[br + c]!;
    for (let q = 0; q < l; q++) tmp[q]! += a[ar + j0 + q]! * u0 + a[br + j0 + q]! * u1;
  }
  if (r < m) {
    const ar = r * n;
    const u0 = a[ar + i]!;
    for (let c = i + 1; c < n; c++) yc[c]! += u0 * a[ar + c]!;
    for (let q = 0; q < l; q++) tmp[q]! += a[ar + j0 + q]! * u0;
  }
}

/**
 * The panel's A·v in TypeScript (v = row i of a, columns i+1…n−1): X[r, l] = Σ_c a[r, c]·v_c for
 * rows r > i, each sum in order of c; two rows per pass, so v is loaded once for both. The wasm
 * kernel (`GemvWorkspace.gemv`) gives the same bits.
 */
function panelAv(
  a: Float64Array,
  m: number,
  n: number,
  i: number,
  l: number,
  x: Float64Array,
): void {
  const L = PNB;
  const ri = i * n;
  let rr = i + 1;
  for (; rr + 1 < m; rr += 2) {
    const ar = rr * n;
    const br = ar + n;
    let s0 = 0;
    let s1 = 0;
    for (let c = i + 1; c < n; c++) {
      const vc = a[ri + c]!;
      s0 += a[ar + c]! * vc;
      s1 += a[br + c]! * vc;
    }
    x[rr * L + l] = s0;
    x[(rr + 1) * L + l] = s1;
  }
  if (rr < m) {
    const ar = rr * n;
    let s0 = 0;
    for (let c = i + 1; c < n; c++) s0 += a[ar + c]! * a[ri + c]!;
    x[rr * L + l] = s0;
  }
}

/**
 * X (m×c, row-major, ld c) ← Q·X with Q = H₀···H_{n−1} from `bidiagonalise`, applied by blocks
 * of NB reflectors from the last block to the first. 4·m·n·c flops, GEMM.
 */
export function applyQ(F: Bidiag, X: Float64Array, c: number): void {
  const { m, n, a, tauq } = F;
  const work = blockWork(NB, Math.max(m, c));
  const yt = new Float64Array(NB * m);
  const t = new Float64Array(NB * NB);
  for (let j0 = Math.floor((n - 1) / NB) * NB; j0 >= 0; j0 -= NB) {
    const nb = Math.min(NB, n - j0);
    const s = m - j0;
    yt.fill(0, 0, nb * s);
    for (let l = 0; l < nb; l++) {
      const j = j0 + l;
      yt[l * s + l] = 1;
      for (let r = j + 1; r < m; r++) yt[l * s + (r - j0)] = a[r * n + j]!;
    }
    blockReflectorT(yt, s, nb, tauq, j0, t);
    applyBlockLeft({ data: X, offset: j0 * c, ld: c }, s, c, yt, nb, t, work);
  }
}

/**
 * X (n×c, row-major, ld c) ← P·X with P = G₀···G_{n−2} from `bidiagonalise` (G_j acts on
 * coordinates j+1…n−1). 4·n²·c flops, GEMM.
 */
export function applyP(F: Bidiag, X: Float64Array, c: number): void {
  const { n, a, taup } = F;
  const k = n - 1;
  if (k <= 0) return;
  const work = blockWork(NB, Math.max(n, c));
  const yt = new Float64Array(NB * n);
  const t = new Float64Array(NB * NB);
  for (let j0 = Math.floor((k - 1) / NB) * NB; j0 >= 0; j0 -= NB) {
    const nb = Math.min(NB, k - j0);
    const s = n - 1 - j0;
    yt.fill(0, 0, nb * s);
    for (let l = 0; l < nb; l++) {
      const j = j0 + l;
      yt[l * s + l] = 1;
      for (let cc = j + 2; cc < n; cc++) yt[l * s + (cc - 1 - j0)] = a[j * n + cc]!;
    }
    blockReflectorT(yt, s, nb, taup, j0, t);
    applyBlockLeft({ data: X, offset: (j0 + 1) * c, ld: c }, s, c, yt, nb, t, work);
  }
}
