/**
 * Eigendecomposition of a small complex Hermitian matrix A = W·diag(μ)·Wᴴ by cyclic Jacobi
 * rotations: the V × V slice Gram matrices of the factorised T-step (README, "factorisation").
 *
 * Layout: A is split complex, row-major, (re, im)[i·m + j], m × m; both triangles are read and
 * kept in sync. Each rotation zeroes a_pq with J = D·G, where D = diag(1, …, e^{−iφ} at q, …)
 * turns a_pq = r·e^{iφ} into the real r and G is the real symmetric Schur rotation of
 * [[a_pp, r], [r, a_qq]] (Golub & Van Loan, "Matrix Computations", 4th ed., Alg. 8.5.1);
 * A ← Jᴴ·A·J and W ← W·J. Sweeps stop when every off-diagonal |a_pq| ≤ ε·√(|a_pp·a_qq|) or is
 * below ε²·‖A‖_F (at most 40 sweeps). Jacobi gives eigenvalues with errors ≈ ε·‖A‖ and
 * orthonormal W to ≈ m·ε. O(m³) per sweep; m is the number of views, so this is cheap.
 */

export interface HermEig {
  /** (m,) eigenvalues, descending. */
  readonly values: Float64Array;
  /** (m, m) eigenvectors in columns (split complex, row-major), column i for values[i]. */
  readonly re: Float64Array;
  readonly im: Float64Array;
}

const EPS = 2.220446049250313e-16;
const MAX_SWEEPS = 40;

/** Scratch for `hermEig` of order m: reused across the slices of one solve. */
export interface HermWork {
  readonly m: number;
  readonly ar: Float64Array;
  readonly ai: Float64Array;
  readonly wr: Float64Array;
  readonly wi: Float64Array;
  readonly mu: Float64Array;
  readonly order: Int32Array;
  /** Output: eigenvalues (descending) and eigenvectors (columns) in that order. */
  readonly values: Float64Array;
  readonly vr: Float64Array;
  readonly vi: Float64Array;
}

export function hermWork(m: number): HermWork {
  return {
    m,
    ar: new Float64Array(m * m),
    ai: new Float64Array(m * m),
    wr: new Float64Array(m * m),
    wi: new Float64Array(m * m),
    mu: new Float64Array(m),
    order: new Int32Array(m),
    values: new Float64Array(m),
    vr: new Float64Array(m * m),
    vi: new Float64Array(m * m),
  };
}

/**
 * Eigendecomposition of the Hermitian m × m matrix (re, im) (not modified) into `w.values`,
 * `w.vr`, `w.vi` (descending). Returns `w` viewed as a HermEig.
 */
export function hermEig(re: Float64Array, im: Float64Array, w: HermWork): HermEig {
  const { m, ar, ai, wr, wi, mu, order } = w;
  ar.set(re.subarray(0, m * m));
  ai.set(im.subarray(0, m * m));
  wr.fill(0);
  wi.fill(0);
  let fro = 0;
  for (let i = 0; i < m; i++) {
    wr[i * m + i] = 1;
    ai[i * m + i] = 0;
    for (let j = 0; j < m; j++) fro += ar[i * m + j]! ** 2 + ai[i * m + j]! ** 2;
  }
  fro = Math.sqrt(fro);
  const floor = EPS * EPS * fro;
  for (let sweep = 0; sweep < MAX_SWEEPS; sweep++) {
    let rotated = false;
    for (let p = 0; p < m - 1; p++) {
      for (let q = p + 1; q < m; q++) {
        const xr = ar[p * m + q]!;
        const xi = ai[p * m + q]!;
        const r = Math.hypot(xr, xi);
        const app = ar[p * m + p]!;
        const aqq = ar[q * m + q]!;
        if (r <= floor || r <= EPS * Math.sqrt(Math.abs(app * aqq))) {
          continue;
        }
        rotated = true;
        // D_qq = conj(a_pq)/r = (dr, di).
        const dr = xr / r;
        const di = -xi / r;
        const tau = (aqq - app) / (2 * r);
        const t = (tau >= 0 ? 1 : -1) / (Math.abs(tau) + Math.sqrt(1 + tau * tau));
        const c = 1 / Math.sqrt(1 + t * t);
        const s = t * c;
        // Columns: A ← A·J with J_pp = c, J_pq = s, J_qp = −s·D_qq, J_qq = c·D_qq.
        for (let k = 0; k < m; k++) {
          rotateCols(ar, ai, k * m + p, k * m + q, c, s, dr, di);
          rotateCols(wr, wi, k * m + p, k * m + q, c, s, dr, di);
        }
        // Rows: A ← Jᴴ·A.
        for (let k = 0; k < m; k++) {
          const pr = ar[p * m + k]!;
          const pi = ai[p * m + k]!;
          // conj(D_qq)·a_qk
          const qr0 = ar[q * m + k]!;
          const qi0 = ai[q * m + k]!;
          const qr = dr * qr0 + di * qi0;
          const qi = dr * qi0 - di * qr0;
          ar[p * m + k] = c * pr - s * qr;
          ai[p * m + k] = c * pi - s * qi;
          ar[q * m + k] = s * pr + c * qr;
          ai[q * m + k] = s * pi + c * qi;
        }
        ar[p * m + q] = 0;
        ai[p * m + q] = 0;
        ar[q * m + p] = 0;
        ai[q * m + p] = 0;
        ai[p * m + p] = 0;
        ai[q * m + q] = 0;
      }
    }
    if (!rotated) break;
  }
  for (let i = 0; i < m; i++) {
    mu[i] = ar[i * m + i]!;
    order[i] = i;
  }
  // Descending, ties by index (insertion sort: m is small).
  for (let i = 1; i < m; i++) {
    const o = order[i]!;
    let j = i - 1;
    while (j >= 0 && mu[order[j]!]! < mu[o]!) {
      order[j + 1] = order[j]!;
      j--;
    }
    order[j + 1] = o;
  }
  for (let i = 0; i < m; i++) {
    const o = order[i]!;
    w.values[i] = mu[o]!;
    for (let k = 0; k < m; k++) {
      w.vr[k * m + i] = wr[k * m + o]!;
      w.vi[k * m + i] = wi[k * m + o]!;
    }
  }
  return { values: w.values, re: w.vr, im: w.vi };
}

/** (x_p, x_q) ← (c·x_p − s·D·x_q, s·x_p + c·D·x_q) with D = dr + i·di, on split complex entries. */
function rotateCols(
  xr: Float64Array,
  xi: Float64Array,
  ip: number,
  iq: number,
  c: number,
  s: number,
  dr: number,
  di: number,
): void {
  const pr = xr[ip]!;
  const pi = xi[ip]!;
  const qr0 = xr[iq]!;
  const qi0 = xi[iq]!;
  const qr = dr * qr0 - di * qi0;
  const qi = dr * qi0 + di * qr0;
  xr[ip] = c * pr - s * qr;
  xi[ip] = c * pi - s * qi;
  xr[iq] = s * pr + c * qr;
  xi[iq] = s * pi + c * qi;
}
