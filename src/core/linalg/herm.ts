/**
 * Eigendecomposition of a small complex Hermitian matrix A = W·diag(μ)·Wᴴ (m × m, m up to a
 * few tens: O(m³) per matrix with reusable scratch, for many small problems in a row, such as
 * the V × V slice Gram matrices of CGL's factorised T-step, one per Fourier slice).
 *
 * Layout: A is split complex, row-major, (re, im)[i·m + j], m × m; both triangles are read
 * (A must be Hermitian; the imaginary parts of its diagonal are ignored).
 *
 * Method (Golub & Van Loan, "Matrix Computations", 4th ed., §8.3): three steps.
 * 1. Householder tridiagonalisation A = Q·T·Qᴴ: for k = 0 … m − 3, with x = A[k+1 …, k] and
 *    θ = arg x_1, H_k = I − τ·v·vᴴ, v = x + e^{iθ}‖x‖·e_1, τ = 1/(‖x‖(‖x‖ + |x_1|)) maps x to
 *    −e^{iθ}‖x‖·e_1; the trailing block becomes H·A₂₂·H = A₂₂ − v·qᴴ − q·vᴴ with p = τ·A₂₂·v,
 *    q = p − (τ/2)(vᴴp)·v. Q = H_0·H_1 ⋯.
 * 2. The complex tridiagonal T (real diagonal d, subdiagonal t_i) is made real by the unitary
 *    diagonal Φ: φ_0 = 1, φ_{i+1} = φ_i·t_i/|t_i|, so T = Φ·T_r·Φᴴ with T_r's subdiagonal
 *    e_i = |t_i|.
 * 3. T_r = Z·diag(μ)·Zᵀ by the implicit symmetric QR iteration with Wilkinson's shift (Alg.
 *    8.3.2, 8.3.3): Givens rotations chase the bulge down the unreduced block [lo, hi] and are
 *    accumulated into the real m × m matrix Z; e_{hi−1} is set to 0 (deflation) once
 *    |e_{hi−1}| ≤ ε·(|d_{hi−1}| + |d_hi|). Then W = Q·Φ·Z, columns sorted by μ, descending.
 * Backward stable: A·W = W·Λ to ≈ ε·‖A‖, WᴴW = I to ≈ m·ε (tested against Jacobi).
 * A is first scaled by a power of two so that its largest entry is near 1 (exact: only the
 * exponents change, and the eigenvalues are scaled back), so no square of an entry overflows.
 *
 * Chosen over a cyclic complex Jacobi: fewer operations per matrix at the same accuracy (a warm
 * start of Jacobi from a previous solve's eigenvectors saves less than its basis products cost).
 */

export interface HermEig {
  /** (m,) eigenvalues, descending. */
  readonly values: Float64Array;
  /** (m, m) eigenvectors in columns (split complex, row-major), column i for values[i]. */
  readonly re: Float64Array;
  readonly im: Float64Array;
}

const EPS = 2.220446049250313e-16;
/**
 * QR steps allowed per eigenvalue (Wilkinson's shift needs ~2 and converges globally, so the
 * cap is only a guard against an endless loop: past it the block is left unconverged).
 */
const MAX_STEPS = 30;

/** Scratch for `hermEig` of order m: reused across the slices of one solve. */
export interface HermWork extends HermEig {
  readonly m: number;
  /** The scaled matrix, reduced in place to tridiagonal form. */
  readonly ar: Float64Array;
  readonly ai: Float64Array;
  /** Householder vector of step k in row k (entries k+1 … m−1), its τ in tau[k]. */
  readonly hr: Float64Array;
  readonly hi: Float64Array;
  readonly tau: Float64Array;
  /** p, then q, of the current Householder step. */
  readonly pr: Float64Array;
  readonly pi: Float64Array;
  /** T_r: diagonal d, subdiagonal e; the phases Φ; the rotations Z (real, m × m). */
  readonly d: Float64Array;
  readonly e: Float64Array;
  readonly fr: Float64Array;
  readonly fi: Float64Array;
  readonly z: Float64Array;
  readonly order: Int32Array;
}

export function hermWork(m: number): HermWork {
  const vec = (): Float64Array => new Float64Array(m);
  const mat = (): Float64Array => new Float64Array(m * m);
  return {
    m,
    ar: mat(),
    ai: mat(),
    hr: mat(),
    hi: mat(),
    tau: vec(),
    pr: vec(),
    pi: vec(),
    d: vec(),
    e: vec(),
    fr: vec(),
    fi: vec(),
    z: mat(),
    order: new Int32Array(m),
    values: vec(),
    re: mat(),
    im: mat(),
  };
}

/**
 * Eigendecomposition of the Hermitian m × m matrix (re, im) (not modified) into `w.values`,
 * `w.re`, `w.im` (descending). Returns `w`.
 */
export function hermEig(re: Float64Array, im: Float64Array, w: HermWork): HermEig {
  const { m } = w;
  const mm = m * m;
  let big = 0;
  for (let i = 0; i < mm; i++) big = Math.max(big, Math.abs(re[i]!), Math.abs(im[i]!));
  // A·2^−s with 2^s ≈ max |a_ij|: only the exponents change.
  const scale = big > 0 ? Math.min(Math.max(Math.round(Math.log2(big)), -1000), 1000) : 0;
  const down = 2 ** -scale;
  const { ar, ai } = w;
  for (let i = 0; i < mm; i++) {
    ar[i] = re[i]! * down;
    ai[i] = im[i]! * down;
  }
  for (let i = 0; i < m; i++) ai[i * m + i] = 0;
  tridiagonalise(w);
  realTridiagonal(w);
  tridiagonalQr(w);
  backTransform(w, 2 ** scale);
  return w;
}

/** Step 1: A = Q·T·Qᴴ in place (A's lower triangle and diagonal become T), reflectors kept. */
function tridiagonalise(w: HermWork): void {
  const { m, ar, ai, hr, hi, tau, pr, pi } = w;
  for (let k = 0; k + 2 < m; k++) {
    const k1 = k + 1;
    // x = A[k+1 …, k]: its first entry and the norm of the rest.
    const x1r = ar[k1 * m + k]!;
    const x1i = ai[k1 * m + k]!;
    let tail = 0;
    for (let i = k + 2; i < m; i++) tail += ar[i * m + k]! ** 2 + ai[i * m + k]! ** 2;
    if (tail === 0) {
      tau[k] = 0; // already tridiagonal in this column
      continue;
    }
    const a1 = Math.sqrt(x1r * x1r + x1i * x1i);
    const nx = Math.sqrt(a1 * a1 + tail);
    // e^{iθ} = x_1/|x_1| (1 when x_1 = 0).
    const cr = a1 > 0 ? x1r / a1 : 1;
    const ci = a1 > 0 ? x1i / a1 : 0;
    const o = k * m;
    hr[o + k1] = x1r + cr * nx;
    hi[o + k1] = x1i + ci * nx;
    for (let i = k + 2; i < m; i++) {
      hr[o + i] = ar[i * m + k]!;
      hi[o + i] = ai[i * m + k]!;
    }
    const t = 1 / (nx * (nx + a1));
    tau[k] = t;
    // p = τ·A₂₂·v and Re(vᴴp) (vᴴA₂₂v is real).
    let vp = 0;
    for (let i = k1; i < m; i++) {
      let sr = 0;
      let si = 0;
      for (let j = k1; j < m; j++) {
        const xr = ar[i * m + j]!;
        const xi = ai[i * m + j]!;
        const yr = hr[o + j]!;
        const yi = hi[o + j]!;
        sr += xr * yr - xi * yi;
        si += xr * yi + xi * yr;
      }
      pr[i] = t * sr;
      pi[i] = t * si;
      vp += hr[o + i]! * pr[i]! + hi[o + i]! * pi[i]!;
    }
    // q = p − (τ/2)(vᴴp)·v, then A₂₂ ← A₂₂ − v·qᴴ − q·vᴴ.
    const half = 0.5 * t * vp;
    for (let i = k1; i < m; i++) {
      pr[i] = pr[i]! - half * hr[o + i]!;
      pi[i] = pi[i]! - half * hi[o + i]!;
    }
    for (let i = k1; i < m; i++) {
      const vr = hr[o + i]!;
      const vi = hi[o + i]!;
      const qr = pr[i]!;
      const qi = pi[i]!;
      for (let j = k1; j < m; j++) {
        // v_i·conj(q_j) + q_i·conj(v_j)
        const qjr = pr[j]!;
        const qji = pi[j]!;
        const vjr = hr[o + j]!;
        const vji = hi[o + j]!;
        ar[i * m + j] = ar[i * m + j]! - (vr * qjr + vi * qji) - (qr * vjr + qi * vji);
        ai[i * m + j] = ai[i * m + j]! - (vi * qjr - vr * qji) - (qi * vjr - qr * vji);
      }
    }
    ar[k1 * m + k] = -cr * nx;
    ai[k1 * m + k] = -ci * nx;
  }
}

/** Step 2: d_i = Re t_ii, e_i = |t_{i+1,i}|, φ_{i+1} = φ_i·t_{i+1,i}/|t_{i+1,i}|; Z = I. */
function realTridiagonal(w: HermWork): void {
  const { m, ar, ai, d, e, fr, fi, z } = w;
  fr[0] = 1;
  fi[0] = 0;
  for (let i = 0; i < m; i++) d[i] = ar[i * m + i]!;
  for (let i = 0; i + 1 < m; i++) {
    const xr = ar[(i + 1) * m + i]!;
    const xi = ai[(i + 1) * m + i]!;
    const r = Math.sqrt(xr * xr + xi * xi);
    e[i] = r;
    if (r > 0) {
      const ur = xr / r;
      const ui = xi / r;
      fr[i + 1] = fr[i]! * ur - fi[i]! * ui;
      fi[i + 1] = fr[i]! * ui + fi[i]! * ur;
    } else {
      fr[i + 1] = fr[i]!;
      fi[i + 1] = fi[i]!;
    }
  }
  e[m - 1] = 0;
  z.fill(0);
  for (let i = 0; i < m; i++) z[i * m + i] = 1;
}

/** Step 3: implicit QR with Wilkinson's shift on (d, e), rotations accumulated into Z. */
function tridiagonalQr(w: HermWork): void {
  const { m, d, e, z } = w;
  let hi = m - 1;
  let steps = 0;
  while (hi > 0) {
    if (Math.abs(e[hi - 1]!) <= EPS * (Math.abs(d[hi - 1]!) + Math.abs(d[hi]!))) {
      e[hi - 1] = 0;
      hi--;
      steps = 0;
      continue;
    }
    if (++steps > MAX_STEPS) break;
    // The unreduced block [lo, hi].
    let lo = hi - 1;
    while (lo > 0 && Math.abs(e[lo - 1]!) > EPS * (Math.abs(d[lo - 1]!) + Math.abs(d[lo]!))) lo--;
    if (lo > 0) e[lo - 1] = 0;
    // Wilkinson's shift: the eigenvalue of the trailing 2 × 2 block nearer d_hi.
    const eh = e[hi - 1]!;
    const h = 0.5 * (d[hi - 1]! - d[hi]!);
    const mu = d[hi]! - (eh * eh) / (h + (h >= 0 ? 1 : -1) * Math.sqrt(h * h + eh * eh));
    // Rotations R_k = [[c, s], [−s, c]] on rows/columns (k, k+1): the first makes
    // (d_lo − μ, e_lo) a multiple of e_1, each next one removes the bulge at (k+1, k−1).
    let x = d[lo]! - mu;
    let y = e[lo]!;
    for (let k = lo; k < hi; k++) {
      const r = Math.sqrt(x * x + y * y);
      const c = r > 0 ? x / r : 1;
      const s = r > 0 ? y / r : 0;
      if (k > lo) e[k - 1] = r;
      const dk = d[k]!;
      const dk1 = d[k + 1]!;
      const ek = e[k]!;
      d[k] = c * c * dk + 2 * c * s * ek + s * s * dk1;
      d[k + 1] = s * s * dk - 2 * c * s * ek + c * c * dk1;
      e[k] = c * s * (dk1 - dk) + (c * c - s * s) * ek;
      if (k + 1 < hi) {
        x = e[k]!;
        y = s * e[k + 1]!;
        e[k + 1] = c * e[k + 1]!;
      }
      // Z ← Z·R_kᵀ.
      for (let i = 0; i < m; i++) {
        const a = z[i * m + k]!;
        const b = z[i * m + k + 1]!;
        z[i * m + k] = c * a + s * b;
        z[i * m + k + 1] = c * b - s * a;
      }
    }
  }
}

/** W = Q·Φ·Z with Z's columns sorted by μ, descending; μ scaled back by `up`. */
function backTransform(w: HermWork, up: number): void {
  const { m, d, z, fr, fi, hr, hi, tau, order, values } = w;
  const xr = w.re;
  const xi = w.im;
  // Descending, ties by index (insertion sort: m is small).
  for (let i = 0; i < m; i++) order[i] = i;
  for (let i = 1; i < m; i++) {
    const o = order[i]!;
    let j = i - 1;
    while (j >= 0 && d[order[j]!]! < d[o]!) {
      order[j + 1] = order[j]!;
      j--;
    }
    order[j + 1] = o;
  }
  for (let i = 0; i < m; i++) {
    const o = order[i]!;
    values[i] = d[o]! * up;
    for (let r = 0; r < m; r++) {
      const zr = z[r * m + o]!;
      xr[r * m + i] = fr[r]! * zr;
      xi[r * m + i] = fi[r]! * zr;
    }
  }
  // X ← H_k·X for k = m − 3 … 0: X[k+1 …, :] −= τ·v·(vᴴ·X[k+1 …, :]).
  for (let k = m - 3; k >= 0; k--) {
    const t = tau[k]!;
    if (t === 0) continue;
    const o = k * m;
    for (let col = 0; col < m; col++) {
      let sr = 0;
      let si = 0;
      for (let i = k + 1; i < m; i++) {
        const vr = hr[o + i]!;
        const vi = hi[o + i]!;
        const yr = xr[i * m + col]!;
        const yi = xi[i * m + col]!;
        sr += vr * yr + vi * yi;
        si += vr * yi - vi * yr;
      }
      sr *= t;
      si *= t;
      for (let i = k + 1; i < m; i++) {
        const vr = hr[o + i]!;
        const vi = hi[o + i]!;
        xr[i * m + col] = xr[i * m + col]! - (vr * sr - vi * si);
        xi[i * m + col] = xi[i * m + col]! - (vr * si + vi * sr);
      }
    }
  }
}
