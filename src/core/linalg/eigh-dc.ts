/**
 * Divide and conquer for the symmetric tridiagonal eigenproblem T = Z·diag(λ)·Zᵀ (Cuppen 1981;
 * the LAPACK dstedc / dlaed0–dlaed4 scheme, Gu & Eisenstat 1995), the middle stage of the
 * large-n route of `symEig`.
 *
 * Split: T = diag(T₁, T₂) + |β|·u·uᵀ with β = e[mid−1], u = e_{mid−1} + sign(β)·e_mid, so T₁ and
 * T₂ lose |β| from their touching diagonal entries. Solve both halves (recursively; at most LEAF
 * rows by the implicit QL of eig.ts), then merge: with Qᵢ their eigenvectors,
 * T = diag(Q₁, Q₂)·(D + ρ·z·zᵀ)·diag(Q₁, Q₂)ᵀ, z = (last row of Q₁, sign(β)·first row of Q₂)/√2,
 * ρ = 2|β|. The rank-one update is solved by
 * - deflation (dlaed2): a component ρ|z_i| ≤ tol keeps (d_i, old column i); two poles closer than
 *   tol (after a plane rotation zeroing one z) keep one of them; tol = 8ε·max(|D|, |z|);
 * - the secular equation f(λ) = 1 + ρ·Σᵢ z_i²/(d_i − λ) = 0 for the k remaining poles, one root
 *   per interval (d_j, d_{j+1}) and one right of d_k (`secularRoot`), with the differences
 *   d_i − λ_j formed from the nearer pole so they keep full relative accuracy;
 * - eigenvectors by Löwner's formula (Gu & Eisenstat): ẑ_i² = Πⱼ(λ_j − d_i)/Π_{j≠i}(d_j − d_i)
 *   (up to ρ), u_j ∝ (ẑ_i/(d_i − λ_j))ᵢ, which are numerically orthogonal because ẑ, not z, is
 *   the vector whose secular equation the λ_j solve exactly;
 * - the new vectors diag(Q₁, Q₂)·U by two GEMMs, the rows of Q₁ and of Q₂ apart (their columns'
 *   zero blocks skipped): (n₁² + n₂²)·k·2 flops.
 * Without deflation the merges cost (4/3)n³ flops over all levels, nearly all in GEMM.
 */
import { tridiagonalQl } from './eig';
import { gemmStrided } from './gemm';

/** Largest block solved by QL directly (LAPACK's smlsiz is 25). */
export const DC_LEAF = 32;

/**
 * Eigen-decomposition of the symmetric tridiagonal (d, e) of order n (e[i] couples i and i+1,
 * i < n−1): on exit d holds the eigenvalues ascending and the returned z (n×n, row-major) the
 * eigenvectors in its columns. `e` is overwritten. `leaf` (≥ 2) is the QL block size.
 */
export function tridiagonalDC(
  d: Float64Array,
  e: Float64Array,
  n: number,
  leaf = DC_LEAF,
): Float64Array {
  const z = new Float64Array(n * n);
  if (n > 0) solve(d, e, z, n, 0, n, Math.max(2, leaf));
  return z;
}

/** Solves the block lo..hi−1 of T into z[lo..hi, lo..hi] (zero outside it on entry). */
function solve(
  d: Float64Array,
  e: Float64Array,
  z: Float64Array,
  n: number,
  lo: number,
  hi: number,
  leaf: number,
): void {
  const m = hi - lo;
  if (m <= leaf) {
    solveLeaf(d, e, z, n, lo, hi);
    return;
  }
  const mid = lo + (m >> 1);
  const beta = e[mid - 1]!;
  d[mid - 1]! -= Math.abs(beta);
  d[mid]! -= Math.abs(beta);
  solve(d, e, z, n, lo, mid, leaf);
  solve(d, e, z, n, mid, hi, leaf);
  merge(d, z, n, lo, mid, hi, beta);
}

/** The block lo..hi−1 by implicit QL from Z = I, values sorted ascending with their columns. */
function solveLeaf(
  d: Float64Array,
  e: Float64Array,
  z: Float64Array,
  n: number,
  lo: number,
  hi: number,
): void {
  const m = hi - lo;
  const dd = d.slice(lo, hi);
  const ee = new Float64Array(m);
  ee.set(e.subarray(lo, hi - 1));
  const q = new Float64Array(m * m);
  for (let i = 0; i < m; i++) q[i * m + i] = 1;
  tridiagonalQl(dd, ee, q, m);
  const order = Array.from({ length: m }, (_, i) => i).sort((x, y) => dd[x]! - dd[y]! || x - y);
  for (let c = 0; c < m; c++) d[lo + c] = dd[order[c]!]!;
  for (let r = 0; r < m; r++) {
    const dst = (lo + r) * n + lo;
    for (let c = 0; c < m; c++) z[dst + c] = q[r * m + order[c]!]!;
  }
}

/** Column support in the merge: rows of Q₁ only, both (after a deflating rotation), Q₂ only. */
const TOP = 1;
const BOTH = 2;
const BOTTOM = 3;

/**
 * Merges the solved halves lo..mid−1 and mid..hi−1 (coupled by β) into the eigen-decomposition
 * of the block lo..hi−1, in place in d and z (see the module comment).
 */
function merge(
  d: Float64Array,
  z: Float64Array,
  n: number,
  lo: number,
  mid: number,
  hi: number,
  beta: number,
): void {
  const m = hi - lo;
  const n1 = mid - lo;
  const n2 = hi - mid;
  // q: the block's current columns (m×m, row-major; diag(Q₁, Q₂)).
  const q = new Float64Array(m * m);
  for (let r = 0; r < m; r++) q.set(z.subarray((lo + r) * n + lo, (lo + r) * n + hi), r * m);
  const sgn = beta < 0 ? -1 : 1;
  const zv = new Float64Array(m);
  const r1 = Math.SQRT1_2;
  for (let c = 0; c < n1; c++) zv[c] = r1 * q[(n1 - 1) * m + c]!;
  for (let c = n1; c < m; c++) zv[c] = sgn * r1 * q[n1 * m + c]!;
  const rho = 2 * Math.abs(beta);
  const dv = d.slice(lo, hi);
  const type = new Uint8Array(m);
  type.fill(TOP, 0, n1);
  type.fill(BOTTOM, n1, m);
  // Merge the two ascending halves of dv into one order.
  const perm = new Int32Array(m);
  for (let i = 0, a = 0, b = n1; i < m; i++) {
    perm[i] = b >= m || (a < n1 && dv[a]! <= dv[b]!) ? a++ : b++;
  }
  let dmax = 0;
  let zmax = 0;
  for (let c = 0; c < m; c++) {
    dmax = Math.max(dmax, Math.abs(dv[c]!));
    zmax = Math.max(zmax, Math.abs(zv[c]!));
  }
  const tol = 8 * Number.EPSILON * Math.max(dmax, zmax);
  const kept: number[] = [];
  const deflated: number[] = [];
  if (rho * zmax <= tol) {
    for (let i = 0; i < m; i++) deflated.push(perm[i]!);
  } else {
    let pj = -1;
    for (let i = 0; i < m; i++) {
      const nj = perm[i]!;
      if (rho * Math.abs(zv[nj]!) <= tol) {
        deflated.push(nj);
        continue;
      }
      if (pj < 0) {
        pj = nj;
        continue;
      }
      // Close poles: the rotation in the (pj, nj) plane that zeroes z_pj leaves an off-diagonal
      // t·c·s; when that is below tol, pj deflates (dlaed2).
      const tau = Math.hypot(zv[nj]!, zv[pj]!);
      const c = zv[nj]! / tau;
      const s = -zv[pj]! / tau;
      const t = dv[nj]! - dv[pj]!;
      if (Math.abs(t * c * s) <= tol) {
        zv[nj] = tau;
        zv[pj] = 0;
        if (type[nj] !== type[pj]) type[nj] = BOTH;
        for (let r = 0; r < m; r++) {
          const x = q[r * m + pj]!;
          const y = q[r * m + nj]!;
          q[r * m + pj] = c * x + s * y;
          q[r * m + nj] = c * y - s * x;
        }
        const dp = dv[pj]!;
        const dn = dv[nj]!;
        dv[pj] = dp * c * c + dn * s * s;
        dv[nj] = dp * s * s + dn * c * c;
        deflated.push(pj);
      } else {
        kept.push(pj);
      }
      pj = nj;
    }
    if (pj >= 0) kept.push(pj);
  }
  const k = kept.length;
  const lambda = new Float64Array(k);
  let out: Float64Array | null = null;
  if (k > 0) {
    const dl = Float64Array.from(kept, (c) => dv[c]!);
    const zl = Float64Array.from(kept, (c) => zv[c]!);
    const delta = new Float64Array(k * k);
    secularSolve(k, dl, zl, rho, lambda, delta);
    const u = lownerVectors(k, dl, zl, delta);
    out = new Float64Array(m * k);
    rotateBlock(q, m, n1, n2, kept, type, u, k, out);
  }
  // Final order: kept roots (ascending) and deflated poles, merged by value.
  deflated.sort((x, y) => dv[x]! - dv[y]! || x - y);
  const src = new Int32Array(m); // ≥ 0: kept root j; < 0: deflated column −1−c
  for (let i = 0, a = 0, b = 0; i < m; i++) {
    if (b >= deflated.length || (a < k && lambda[a]! <= dv[deflated[b]!]!)) {
      d[lo + i] = lambda[a]!;
      src[i] = a++;
    } else {
      d[lo + i] = dv[deflated[b]!]!;
      src[i] = -1 - deflated[b++]!;
    }
  }
  for (let r = 0; r < m; r++) {
    const dst = (lo + r) * n + lo;
    const qr = r * m;
    const or = r * k;
    for (let i = 0; i < m; i++) {
      const s = src[i]!;
      z[dst + i] = s >= 0 ? out![or + s]! : q[qr - 1 - s]!;
    }
  }
}

/**
 * out (m×k, row-major) = Q[:, kept]·U (U k×k), the top n1 rows from the columns that have a
 * Q₁ part, the bottom n2 from those with a Q₂ part: two GEMMs on gathered copies.
 */
function rotateBlock(
  q: Float64Array,
  m: number,
  n1: number,
  n2: number,
  kept: number[],
  type: Uint8Array,
  u: Float64Array,
  k: number,
  out: Float64Array,
): void {
  for (const [rows, off, skip] of [
    [n1, 0, BOTTOM],
    [n2, n1, TOP],
  ] as const) {
    const sel: number[] = [];
    for (let j = 0; j < k; j++) if (type[kept[j]!] !== skip) sel.push(j);
    const ks = sel.length;
    if (ks === 0 || rows === 0) {
      out.fill(0, off * k, (off + rows) * k);
      continue;
    }
    const a = new Float64Array(rows * ks);
    for (let r = 0; r < rows; r++) {
      const qr = (off + r) * m;
      for (let t = 0; t < ks; t++) a[r * ks + t] = q[qr + kept[sel[t]!]!]!;
    }
    const b = new Float64Array(ks * k);
    for (let t = 0; t < ks; t++) b.set(u.subarray(sel[t]! * k, (sel[t]! + 1) * k), t * k);
    gemmStrided(
      rows,
      k,
      ks,
      1,
      { data: a, offset: 0, ld: ks },
      false,
      { data: b, offset: 0, ld: k },
      false,
      0,
      { data: out, offset: off * k, ld: k },
    );
  }
}

/**
 * Eigenvectors of D + ρ·z·zᵀ from the roots (dlaed3): with δ_ij = d_i − λ_j (row-major k×k in
 * delta), ẑ_i = sign(z_i)·√(−δ_ii·Π_{j≠i} δ_ij/(d_i − d_j)) and column j of U (k×k, row-major)
 * is (ẑ_i/δ_ij)ᵢ normalised, written over delta and returned.
 */
function lownerVectors(
  k: number,
  dl: Float64Array,
  zl: Float64Array,
  delta: Float64Array,
): Float64Array {
  const zh = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    const r = i * k;
    const di = dl[i]!;
    let w = delta[r + i]!;
    for (let j = 0; j < k; j++) if (j !== i) w *= delta[r + j]! / (di - dl[j]!);
    const x = Math.sqrt(Math.max(0, -w));
    zh[i] = zl[i]! < 0 ? -x : x;
  }
  // U overwrites delta (each δ_ij is read once more, for its own entry).
  const u = delta;
  const norm = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    const r = i * k;
    const zi = zh[i]!;
    for (let j = 0; j < k; j++) {
      const x = zi / delta[r + j]!;
      u[r + j] = x;
      norm[j]! += x * x;
    }
  }
  for (let j = 0; j < k; j++) norm[j] = 1 / Math.sqrt(norm[j]!);
  for (let i = 0; i < k; i++) {
    const r = i * k;
    for (let j = 0; j < k; j++) u[r + j]! *= norm[j]!;
  }
  return u;
}

/** Iterations of the secular solver before it settles for the current bracket. */
const MAX_SECULAR = 80;

/**
 * All k roots λ_j of f(λ) = 1 + ρ·Σᵢ z_i²/(d_i − λ) for ascending d (distinct after deflation),
 * ρ > 0, into lambda, and δ_ij = d_i − λ_j into delta (row-major k×k).
 */
function secularSolve(
  k: number,
  dl: Float64Array,
  zl: Float64Array,
  rho: number,
  lambda: Float64Array,
  delta: Float64Array,
): void {
  const w = Float64Array.from(zl, (x) => rho * x * x);
  const sh = new Float64Array(k);
  if (k === 1) {
    lambda[0] = dl[0]! + w[0]!;
    delta[0] = -w[0]!;
    return;
  }
  let wsum = 0;
  for (let i = 0; i < k; i++) wsum += w[i]!;
  for (let j = 0; j < k; j++) {
    const { origin, tau } = secularRoot(k, dl, w, wsum, j, sh);
    lambda[j] = dl[origin]! + tau;
    for (let i = 0; i < k; i++) delta[i * k + j] = sh[i]! - tau;
  }
}

/**
 * Root j of the secular equation (the dlaed4 idea, Li's middle way): the root of the interval
 * (d_j, d_{j+1}) (or (d_k, d_k + Σw) for the last) is sought as λ = d_o + τ with the origin d_o the
 * pole nearer the root (chosen by the sign of f at the midpoint), so that d_i − λ = (d_i − d_o) − τ
 * keeps full relative accuracy. Each step fits f by c + s₁/(δ_j − x) + s₂/(δ_{j+1} − x), s₁ and
 * s₂ matching the derivatives of the sums over the poles left (ψ) and right (φ) of the root, and
 * takes the model's root in the interval; a step leaving the bracket bisects it instead. Stops
 * when |f| is within its rounding error. Writes d_i − d_o to sh.
 */
function secularRoot(
  k: number,
  dl: Float64Array,
  w: Float64Array,
  wsum: number,
  j: number,
  sh: Float64Array,
): { origin: number; tau: number } {
  const eps = Number.EPSILON;
  const last = j === k - 1;
  let origin = j;
  let lo = 0;
  let hi: number;
  let tau: number;
  // The sums ψ (poles 0..j), φ (poles j+1..) and their derivatives at the current τ; the first
  // iterate's come from the midpoint evaluation that chose the origin.
  let psi = 0;
  let dpsi = 0;
  let phi = 0;
  let dphi = 0;
  if (!last) {
    const half = 0.5 * (dl[j + 1]! - dl[j]!);
    const dj = dl[j]!;
    for (let i = 0; i <= j; i++) {
      const t = 1 / (dl[i]! - dj - half);
      const x = w[i]! * t;
      psi += x;
      dpsi += x * t;
    }
    for (let i = j + 1; i < k; i++) {
      const t = 1 / (dl[i]! - dj - half);
      const x = w[i]! * t;
      phi += x;
      dphi += x * t;
    }
    if (1 + psi + phi >= 0) {
      hi = half;
      tau = half;
    } else {
      origin = j + 1;
      lo = -half;
      hi = 0;
      tau = -half;
    }
  } else {
    hi = wsum;
    tau = 0.5 * wsum;
  }
  const d0 = dl[origin]!;
  for (let i = 0; i < k; i++) sh[i] = dl[i]! - d0;
  const pj = sh[j]!;
  const pj1 = last ? 0 : sh[j + 1]!;
  for (let it = 0; it < MAX_SECULAR; it++) {
    if (it > 0 || last) {
      psi = 0;
      dpsi = 0;
      phi = 0;
      dphi = 0;
      for (let i = 0; i <= j; i++) {
        const t = 1 / (sh[i]! - tau);
        const x = w[i]! * t;
        psi += x;
        dpsi += x * t;
      }
      for (let i = j + 1; i < k; i++) {
        const t = 1 / (sh[i]! - tau);
        const x = w[i]! * t;
        phi += x;
        dphi += x * t;
      }
    }
    const f = 1 + psi + phi;
    if (f < 0) lo = tau;
    else hi = tau;
    const err = eps * (8 * (phi - psi) + 10 + Math.abs(tau) * (dpsi + dphi));
    if (it > 0 && Math.abs(f) <= err) break;
    const dj = pj - tau;
    let eta: number;
    if (last) {
      // One pole and a constant: c + s₁/(δ_j − x), c = f − δ_j·ψ′.
      const c = f - dj * dpsi;
      eta = dj + (dj * dj * dpsi) / c;
    } else {
      const dj1 = pj1 - tau;
      const s1 = dj * dj * dpsi;
      const s2 = dj1 * dj1 * dphi;
      const c = f - dj * dpsi - dj1 * dphi;
      const a = c * (dj + dj1) + s1 + s2;
      const b = dj * dj1 * f;
      if (c === 0) eta = b / a;
      else {
        const sq = Math.sqrt(Math.abs(a * a - 4 * b * c));
        eta = a <= 0 ? (a - sq) / (2 * c) : (2 * b) / (a + sq);
      }
    }
    let next = tau + eta;
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    if (next === tau || hi - lo <= 2 * eps * Math.max(Math.abs(lo), Math.abs(hi))) break;
    tau = next;
  }
  return { origin, tau };
}
