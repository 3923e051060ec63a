/**
 * Dense symmetric eigendecomposition A = V·diag(λ)·Vᵀ. Two routes, chosen by the order n:
 *
 * Below LARGE_N (the c×c Rayleigh–Ritz problems of the solvers), three stages (Golub & Van Loan,
 * "Matrix Computations", 4th ed., §8.3):
 * 1. Householder tridiagonalisation Qᵀ·A·Q = T (`tridiagonalize`, §8.3.1), (4/3)n³ flops. One
 *    pass over the upper triangle per step, two rows at a time, applies the previous step's
 *    rank-2 update A ← A − v·wᵀ − w·vᵀ and, in the same sweep, forms the next step's A·v.
 * 2. Q formed from the reflectors by blocked backward accumulation (`formQ`), (4/3)n³ flops
 *    in GEMM.
 * 3. Implicit QL with Wilkinson shifts on T (`tridiagonalQl`, §8.3.5; the EISPACK tql2 /
 *    Numerical Recipes tqli recurrence), the plane rotations of each sweep recorded and then
 *    applied to Q's rows in batches (`applyRotations`): about 6n³ flops over all sweeps
 *    (≈ n² rotations), the dominant cost.
 *
 * From LARGE_N on (the LAPACK dsyevd scheme): blocked tridiagonalisation with its rank-2nb
 * updates in GEMM (eigh-tridiag.ts), divide and conquer on T with merges in GEMM (eigh-dc.ts;
 * QL on its leaves), and the back-transformation V = Q·Z in GEMM: ≈ (4/3)n³ + (4/3)n³ + 2n³ flops,
 * all but the tridiagonalisation's matrix-vector half in GEMM. `symEigSelect` for k ≪ n replaces
 * divide and conquer by bisection and inverse iteration (eigh-select.ts) and back-transforms only
 * the k wanted columns.
 *
 * Eigenvector signs follow no convention on either route: each column is whatever the rotations
 * (QL) or the merges (divide and conquer) deliver, deterministic for a given input and route.
 * Callers that need a sign must fix it themselves.
 *
 * Everything is row-major, and every inner loop runs along a row.
 */
import { safeScale } from './dense';
import { tridiagonalDC } from './eigh-dc';
import { tridiagonalSelect } from './eigh-select';
import { backTransform, tridiagonalizeBlocked } from './eigh-tridiag';
import { applyBlockLeft, blockReflectorT, blockWork, householder } from './householder';
import type { Mat } from './types';
import { NumericalError } from './errors';

/** Result of `symEig`: values ascending, eigenvector j in column j of `vectors` (n×n). */
export interface SymEig {
  readonly values: Float64Array;
  readonly vectors: Mat;
}

/** QL sweeps allowed per eigenvalue before giving up (LAPACK's dsteqr allows 30). */
const MAX_SWEEPS = 30;

/**
 * Order from which `symEig`, `symEigValues` and `symEigSelect` take the large-n route: blocked
 * tridiagonalisation (eigh-tridiag.ts), divide and conquer (eigh-dc.ts) and the back-transformation
 * in GEMM. Below it the unblocked route above runs unchanged (the c×c Rayleigh–Ritz problems of
 * the solvers keep their bits).
 */
export const LARGE_N = 128;

/**
 * `symEigSelect` with k·SELECT_FRACTION ≤ n pairs takes bisection and inverse iteration on T
 * (eigh-select.ts, O(n·k)); more pairs take divide and conquer (O(n³) but in GEMM).
 */
const SELECT_FRACTION = 8;

/**
 * Order from which `symEigSelect` takes the large-n route below LARGE_N when few pairs are
 * wanted (k·SELECT_FRACTION ≤ n): the reduction, then bisection and inverse iteration for the
 * k pairs cost less than QL with vectors from here on.
 */
const SELECT_FROM_N = 64;

/**
 * Symmetric eigendecomposition of A (n×n): A = V·diag(values)·Vᵀ, values ascending (ties keep
 * the order in which QL or the merges deliver them), eigenvectors in the columns of V (VᵀV = I;
 * signs: see the module comment). Works on the symmetric part ½(A + Aᵀ), so rounding-level
 * asymmetry in A is harmless. Backward stable: ‖A·V − V·Λ‖ ≈ n·ε·‖A‖. O(n³): ≈ 9n³ flops below
 * LARGE_N, ≈ 4.7n³ (nearly all in GEMM) from it.
 */
export function symEig(A: Mat): SymEig {
  const n = A.rows;
  if (A.cols !== n) throw new Error(`symEig: A is ${A.rows}x${A.cols}, not square`);
  if (n >= LARGE_N) return symEigLarge(A, 'symEig', 0, n);
  const a = symmetricPart(A, 'symEig');
  const scale = safeScale(a, n * n, 'symEig');
  const d = new Float64Array(n);
  const e = new Float64Array(n);
  const tau = new Float64Array(n);
  tridiagonalize(a, n, d, e, tau);
  const z = new Float64Array(n * n);
  formQ(a, n, tau, z);
  tridiagonalQl(d, e, z, n);
  for (let i = 0; i < n; i++) d[i]! *= scale;
  return sortAscending(d, z, n);
}

/**
 * Eigenvalues only of symmetric A (n×n), ascending: tridiagonalisation and QL without vectors,
 * (4/3)n³ + O(n²) flops.
 */
export function symEigValues(A: Mat): Float64Array {
  const n = A.rows;
  if (A.cols !== n) throw new Error(`symEigValues: A is ${A.rows}x${A.cols}, not square`);
  const a = symmetricPart(A, 'symEigValues');
  const scale = safeScale(a, n * n, 'symEigValues');
  const d = new Float64Array(n);
  const e = new Float64Array(n);
  if (n >= LARGE_N) tridiagonalizeBlocked(a, n, d, e, new Float64Array(n));
  else tridiagonalize(a, n, d, e, new Float64Array(n));
  tridiagonalQl(d, e, null, n);
  for (let i = 0; i < n; i++) d[i]! *= scale;
  return d.sort();
}

/**
 * k eigenpairs of symmetric A (n×n): the k lowest or the k highest, values ascending, vectors
 * in the columns of an n×k matrix (orthonormal). Same route as `symEig`, but only the k wanted
 * columns are back-transformed (2n²k flops instead of 2n³).
 */
export function symEigSelect(A: Mat, k: number, which: 'lowest' | 'highest'): SymEig {
  const n = A.rows;
  if (A.cols !== n) throw new Error(`symEigSelect: A is ${A.rows}x${A.cols}, not square`);
  if (!Number.isInteger(k) || k < 0 || k > n)
    throw new Error(`symEigSelect: k = ${k} is not an integer in 0..${n}`);
  const first = which === 'lowest' ? 0 : n - k;
  if (n >= LARGE_N || (n >= SELECT_FROM_N && k * SELECT_FRACTION <= n)) {
    return symEigLarge(A, 'symEigSelect', first, k);
  }
  const { values, vectors } = symEig(A);
  const v = new Float64Array(n * k);
  for (let r = 0; r < n; r++) v.set(vectors.data.subarray(r * n + first, r * n + first + k), r * k);
  return { values: values.slice(first, first + k), vectors: { rows: n, cols: k, data: v } };
}

/**
 * `symEig` by the large-n route at any order n (for tests at small n, where `symEig` itself takes
 * the unblocked route).
 */
export function symEigLargeRoute(A: Mat): SymEig {
  const n = A.rows;
  if (A.cols !== n) throw new Error(`symEig: A is ${A.rows}x${A.cols}, not square`);
  return symEigLarge(A, 'symEig', 0, n);
}

/**
 * The large-n route for the eigenpairs first..first+count−1 (ascending order): blocked
 * tridiagonalisation, divide and conquer on T, then the wanted columns of T's eigenvectors
 * back-transformed by Q. ≈ (4/3)n³ (tridiagonal, half in GEMM) + ≤ (4/3)n³ (merges, GEMM) +
 * 2n²·count (GEMM) flops.
 */
function symEigLarge(A: Mat, what: string, first: number, count: number): SymEig {
  const n = A.rows;
  const a = symmetricPart(A, what);
  const scale = safeScale(a, n * n, what);
  const d = new Float64Array(n);
  const e = new Float64Array(n);
  const tau = new Float64Array(n);
  tridiagonalizeBlocked(a, n, d, e, tau);
  let values: Float64Array;
  let z: Float64Array;
  if (count * SELECT_FRACTION <= n) {
    values = new Float64Array(count);
    z = tridiagonalSelect(d, e, n, first, count, values);
  } else {
    z = tridiagonalDC(d, e, n);
    if (count < n) {
      const zt = z;
      z = new Float64Array(n * count);
      for (let r = 0; r < n; r++)
        z.set(zt.subarray(r * n + first, r * n + first + count), r * count);
    }
    values = d.slice(first, first + count);
  }
  backTransform(a, n, tau, z, count);
  for (let i = 0; i < count; i++) values[i]! *= scale;
  return { values, vectors: { rows: n, cols: count, data: z } };
}

/** Side of the tiles `symmetricPart` walks A in. */
const SYM_TILE = 64;

/** ½(A + Aᵀ) as a fresh row-major array; throws on a non-finite entry. */
function symmetricPart(A: Mat, what: string): Float64Array {
  const n = A.rows;
  const src = A.data;
  const a = new Float64Array(n * n);
  // Tiles of SYM_TILE² on and above the diagonal, so that the column reads stay in cache.
  for (let i0 = 0; i0 < n; i0 += SYM_TILE) {
    const i1 = Math.min(n, i0 + SYM_TILE);
    for (let j0 = i0; j0 < n; j0 += SYM_TILE) {
      const j1 = Math.min(n, j0 + SYM_TILE);
      for (let i = i0; i < i1; i++) {
        for (let j = Math.max(i, j0); j < j1; j++) {
          const x = 0.5 * src[i * n + j]! + 0.5 * src[j * n + i]!;
          if (!Number.isFinite(x)) throw new NumericalError(`${what}: A[${i}, ${j}] is not finite`);
          a[i * n + j] = x;
          a[j * n + i] = x;
        }
      }
    }
  }
  return a;
}

/**
 * Reduces symmetric a (n×n, row-major, both triangles valid on entry) to tridiagonal T = Qᵀ·A·Q
 * with Q = H₀·H₁···H_{n−3}, H_k = I − τ_k·v_k·v_kᵀ acting on indices k+1..n−1. On exit d (n)
 * is T's diagonal, e[k] (k < n−1) couples k and k+1, and row k of `a` holds v_k[k+2..n−1]
 * (v_k[k+1] = 1 implicit) at a[k·n + k+2 ..]. Only the upper triangle is read or updated.
 *
 * Step k with p = A₂₂·v (A₂₂ the trailing block, rows/cols k+1..): w = τp − ½τ²(pᵀv)v, then
 * A₂₂ ← A₂₂ − v·wᵀ − w·vᵀ (Golub & Van Loan Alg. 8.3.1). Row k+1 is updated first and its
 * reflector v′ computed; then one sweep over the rows below both updates them and forms
 * p′ = A₂₂′·v′ for step k+1 (`rank2UpdateSymv`).
 */
function tridiagonalize(
  a: Float64Array,
  n: number,
  d: Float64Array,
  e: Float64Array,
  tau: Float64Array,
): void {
  if (n === 0) return;
  let v = new Float64Array(n);
  let vNext = new Float64Array(n);
  let p = new Float64Array(n);
  let pNext = new Float64Array(n);
  const w = new Float64Array(n);
  d[0] = a[0]!;
  if (n === 1) return;
  e[0] = reflectorOfRow(a, n, 0, tau, v);
  rank2UpdateSymv(a, n, 1, v, w, v, p); // w = 0: p = A₂₂·v only
  for (let k = 0; k < n - 1; k++) {
    // w = τp − ½τ²(pᵀv)·v over indices k+1..n−1 (zero when τ = 0).
    const t = tau[k]!;
    let pv = 0;
    for (let j = k + 1; j < n; j++) pv += p[j]! * v[j]!;
    const alpha = -0.5 * t * t * pv;
    for (let j = k + 1; j < n; j++) w[j] = t * p[j]! + alpha * v[j]!;
    // Row k+1 first: it is the next step's x.
    const r1 = (k + 1) * n;
    const v1 = v[k + 1]!;
    const w1 = w[k + 1]!;
    for (let j = k + 1; j < n; j++) a[r1 + j]! -= v1 * w[j]! + w1 * v[j]!;
    d[k + 1] = a[r1 + k + 1]!;
    if (k + 1 === n - 1) break;
    e[k + 1] = reflectorOfRow(a, n, k + 1, tau, vNext);
    rank2UpdateSymv(a, n, k + 2, v, w, vNext, pNext);
    [v, vNext] = [vNext, v];
    [p, pNext] = [pNext, p];
  }
}

/**
 * One sweep over the upper triangle of the trailing block a[from.., from..]: the symmetric
 * rank-2 update A ← A − v·wᵀ − w·vᵀ and, on the updated entries, p[from..] = A·u. Entry a_ij
 * (j ≥ i) contributes a_ij·u_j to p_i and, off the diagonal, a_ij·u_i to p_j. Two rows go
 * together so that each load of v_j, w_j, u_j and p_j serves both. 8 flops per entry.
 */
function rank2UpdateSymv(
  a: Float64Array,
  n: number,
  from: number,
  v: Float64Array,
  w: Float64Array,
  u: Float64Array,
  p: Float64Array,
): void {
  p.fill(0, from, n);
  let i = from;
  for (; i + 1 < n; i += 2) {
    const r0 = i * n;
    const r1 = r0 + n;
    const v0 = v[i]!;
    const w0 = w[i]!;
    const u0 = u[i]!;
    const v1 = v[i + 1]!;
    const w1 = w[i + 1]!;
    const u1 = u[i + 1]!;
    // The 2×2 diagonal block: a_ii, a_i,i+1, a_i+1,i+1.
    const d0 = a[r0 + i]! - 2 * v0 * w0;
    const e01 = a[r0 + i + 1]! - v0 * w1 - w0 * v1;
    const d1 = a[r1 + i + 1]! - 2 * v1 * w1;
    a[r0 + i] = d0;
    a[r0 + i + 1] = e01;
    a[r1 + i + 1] = d1;
    let acc0 = d0 * u0 + e01 * u1;
    let acc1 = e01 * u0 + d1 * u1;
    for (let j = i + 2; j < n; j = (j + 1) | 0) {
      const vj = v[j]!;
      const wj = w[j]!;
      const uj = u[j]!;
      const q0 = (r0 + j) | 0;
      const q1 = (r1 + j) | 0;
      const x0 = a[q0]! - v0 * wj - w0 * vj;
      const x1 = a[q1]! - v1 * wj - w1 * vj;
      a[q0] = x0;
      a[q1] = x1;
      acc0 += x0 * uj;
      acc1 += x1 * uj;
      p[j]! += x0 * u0 + x1 * u1;
    }
    p[i]! += acc0;
    p[i + 1]! += acc1;
  }
  if (i < n) {
    // A last unpaired row holds only its diagonal entry.
    const aii = a[i * n + i]! - 2 * v[i]! * w[i]!;
    a[i * n + i] = aii;
    p[i]! += aii * u[i]!;
  }
}

/**
 * Reflector of row k's part right of the diagonal, x = a[k, k+1..n−1]: returns β (the new
 * e[k]), writes τ_k, leaves v_k[k+2..] in place in `a` and copies v_k (with v_k[k+1] = 1) to
 * `v` at indices k+1..n−1.
 */
function reflectorOfRow(
  a: Float64Array,
  n: number,
  k: number,
  tau: Float64Array,
  v: Float64Array,
): number {
  const off = k * n + k + 1;
  const beta = householder(a, off, n - k - 1, tau, k);
  v[k + 1] = 1;
  for (let j = k + 2; j < n; j++) v[j] = a[k * n + j]!;
  return beta;
}

/** Reflectors per block in `formQ` (the inner dimension of its GEMMs). */
const NB = 32;

/**
 * z (n×n) = Q = H₀·H₁···H_{n−3} from the reflectors left in `a` by `tridiagonalize`, by
 * backward accumulation in blocks of NB reflectors (LAPACK dorgtr): a block
 * H_{k0}···H_{k1−1} = I − Y·T·Yᵀ, with Y (s×nb) its reflectors over indices k0+1..n−1, updates
 * the trailing block Z₂₂ = z[k0+1.., k0+1..] by three GEMMs. (4/3)n³ flops, nearly all in GEMM.
 */
function formQ(a: Float64Array, n: number, tau: Float64Array, z: Float64Array): void {
  z.fill(0, 0, n * n);
  for (let i = 0; i < n; i++) z[i * n + i] = 1;
  const yt = new Float64Array(NB * n);
  const t = new Float64Array(NB * NB);
  const work = blockWork(NB, n);
  for (let k1 = n - 2; k1 > 0;) {
    const k0 = Math.max(0, k1 - NB);
    const nb = k1 - k0;
    const s = n - k0 - 1;
    // Yᵀ (nb×s): row j is v_{k0+j} over indices k0+1..n−1 (zero before its leading 1).
    yt.fill(0, 0, nb * s);
    for (let j = 0; j < nb; j++) {
      const k = k0 + j;
      yt[j * s + j] = 1;
      for (let g = k + 2; g < n; g++) yt[j * s + g - k0 - 1] = a[k * n + g]!;
    }
    blockReflectorT(yt, s, nb, tau, k0, t);
    applyBlockLeft({ data: z, offset: (k0 + 1) * (n + 1), ld: n }, s, s, yt, nb, t, work);
    k1 = k0;
  }
}

/**
 * Plane rotations recorded by QL sweeps and not yet applied to Z: sweep t rotates the index
 * pairs (i, i+1) for i = hi_t − 1 down to lo_t, with (c, s) pairs stored in that order in `cs`
 * (sweep after sweep); `spans` holds lo_t, hi_t.
 */
interface RotationBuffer {
  readonly cs: Float64Array;
  readonly spans: Int32Array;
  sweeps: number;
  rotations: number;
}

/** Rotations buffered before they are applied to Z (their c, s then stay in L1/L2). */
const BATCH_ROTATIONS = 2048;

/**
 * Implicit QL with Wilkinson shifts on the tridiagonal (d, e), e[i] coupling i and i+1
 * (e[n−1] is workspace). On exit d holds the eigenvalues (unsorted); when z is given, its
 * columns are multiplied by the sweeps' rotations (z ← z·G), so z = Q on entry gives the
 * eigenvectors of A = Q·T·Qᵀ. A block l..m splits off at the first negligible e[m].
 */
export function tridiagonalQl(
  d: Float64Array,
  e: Float64Array,
  z: Float64Array | null,
  n: number,
): void {
  if (n === 0) return;
  e[n - 1] = 0;
  const buf: RotationBuffer = {
    cs: new Float64Array(2 * (BATCH_ROTATIONS + n)),
    spans: new Int32Array(2 * (BATCH_ROTATIONS + 1)),
    sweeps: 0,
    rotations: 0,
  };
  // ‖T‖ (max row sum of |T|): a coupling at the rounding level of the whole matrix splits
  // the block too (EISPACK tql2's test), or a block of rounding noise (the null space of a
  // low-rank matrix) is chased forever.
  let norm = 0;
  for (let i = 0; i < n; i++) {
    norm = Math.max(norm, Math.abs(d[i]!) + Math.abs(e[i]!) + (i > 0 ? Math.abs(e[i - 1]!) : 0));
  }
  const floor = Number.EPSILON * norm;
  for (let l = 0; l < n; l++) {
    for (let sweep = 0; ; sweep++) {
      let m = l;
      while (m < n - 1 && !negligible(e[m]!, d[m]!, d[m + 1]!, floor)) m++;
      if (m === l) break;
      if (sweep === MAX_SWEEPS)
        throw new NumericalError(`symEig: QL did not converge for eigenvalue ${l}`);
      const lo = qlSweep(d, e, l, m, buf.cs, 2 * buf.rotations);
      if (!z) continue;
      buf.spans[2 * buf.sweeps] = lo;
      buf.spans[2 * buf.sweeps + 1] = m;
      buf.sweeps++;
      buf.rotations += m - lo;
      if (buf.rotations >= BATCH_ROTATIONS) applyRotations(z, n, buf);
    }
  }
  if (z) applyRotations(z, n, buf);
}

/** Smallest positive normal double. */
const TINY = 2 ** -1022;

/**
 * Whether the coupling e between diagonal entries d0, d1 is negligible (the block splits):
 * relative to its neighbours, below `floor` (ε·‖T‖), or below the smallest normal number.
 */
function negligible(e: number, d0: number, d1: number, floor: number): boolean {
  const t = Math.abs(e);
  return t <= Number.EPSILON * (Math.abs(d0) + Math.abs(d1)) || t <= floor || t < TINY;
}

/**
 * One implicit QL sweep with Wilkinson shift on the unreduced block l..m (Numerical Recipes
 * tqli): chases the bulge from the bottom up with rotations in planes (i, i+1), i = m−1..l,
 * writing their (c, s) pairs in that order to cs[at..]. Returns the lowest index rotated (l, or
 * above it when a rotation found an exact zero and split the block early).
 */
function qlSweep(
  d: Float64Array,
  e: Float64Array,
  l: number,
  m: number,
  cs: Float64Array,
  at: number,
): number {
  // Shift: the eigenvalue of the leading 2×2 block closer to d[l].
  let g = (d[l + 1]! - d[l]!) / (2 * e[l]!);
  let r = Math.hypot(g, 1);
  g = d[m]! - d[l]! + e[l]! / (g + (g >= 0 ? r : -r));
  let s = 1;
  let c = 1;
  let p = 0;
  for (let i = m - 1; i >= l; i--) {
    const f = s * e[i]!;
    const b = c * e[i]!;
    r = Math.hypot(f, g);
    e[i + 1] = r;
    if (r === 0) {
      // Underflow split: the block decouples at i+1; retry from l.
      d[i + 1]! -= p;
      e[m] = 0;
      return i + 1;
    }
    s = f / r;
    c = g / r;
    g = d[i + 1]! - p;
    r = (d[i]! - g) * s + 2 * c * b;
    p = s * r;
    d[i + 1] = g + p;
    g = c * r - b;
    cs[at++] = c;
    cs[at++] = s;
  }
  d[l]! -= p;
  e[l] = g;
  e[m] = 0;
  return l;
}

/**
 * z ← z·G for the buffered sweeps, in order, then empties the buffer. Rotation (c, s) at i
 * mixes columns i and i+1: z[k, i+1] ← s·z[k, i] + c·z[k, i+1], z[k, i] ← c·z[k, i] −
 * s·z[k, i+1]. A sweep runs down its indices with the updated z[k, i] carried in a register
 * (LAPACK dlasr), so each row is read and written once per sweep; all buffered sweeps are
 * applied to a row while it sits in L1, and four rows go together to overlap their dependency
 * chains (`| 0` keeps the index arithmetic in int32 without overflow checks).
 */
function applyRotations(z: Float64Array, n: number, buf: RotationBuffer): void {
  const { cs, spans, sweeps } = buf;
  let k = 0;
  for (; k + 3 < n; k += 4) {
    const r0 = k * n;
    const r1 = r0 + n;
    const r2 = r1 + n;
    const r3 = r2 + n;
    let q = 0;
    for (let t = 0; t < sweeps; t++) {
      const lo = spans[2 * t]!;
      const hi = spans[2 * t + 1]!;
      let h0 = z[r0 + hi]!;
      let h1 = z[r1 + hi]!;
      let h2 = z[r2 + hi]!;
      let h3 = z[r3 + hi]!;
      for (let i = hi - 1; i >= lo; i = (i - 1) | 0, q = (q + 2) | 0) {
        const c = cs[q]!;
        const s = cs[(q + 1) | 0]!;
        const a0 = (r0 + i) | 0;
        const a1 = (r1 + i) | 0;
        const a2 = (r2 + i) | 0;
        const a3 = (r3 + i) | 0;
        const x0 = z[a0]!;
        const x1 = z[a1]!;
        const x2 = z[a2]!;
        const x3 = z[a3]!;
        z[(a0 + 1) | 0] = s * x0 + c * h0;
        z[(a1 + 1) | 0] = s * x1 + c * h1;
        z[(a2 + 1) | 0] = s * x2 + c * h2;
        z[(a3 + 1) | 0] = s * x3 + c * h3;
        h0 = c * x0 - s * h0;
        h1 = c * x1 - s * h1;
        h2 = c * x2 - s * h2;
        h3 = c * x3 - s * h3;
      }
      z[r0 + lo] = h0;
      z[r1 + lo] = h1;
      z[r2 + lo] = h2;
      z[r3 + lo] = h3;
    }
  }
  for (; k < n; k++) {
    const r = k * n;
    let q = 0;
    for (let t = 0; t < sweeps; t++) {
      const lo = spans[2 * t]!;
      const hi = spans[2 * t + 1]!;
      let h = z[r + hi]!;
      for (let i = hi - 1; i >= lo; i--, q += 2) {
        const x = z[r + i]!;
        z[r + i + 1] = cs[q + 1]! * x + cs[q]! * h;
        h = cs[q]! * x - cs[q + 1]! * h;
      }
      z[r + lo] = h;
    }
  }
  buf.sweeps = 0;
  buf.rotations = 0;
}

/** Sorts eigenvalues ascending (stable) and permutes the columns of z (n×n) alike. */
function sortAscending(d: Float64Array, z: Float64Array, n: number): SymEig {
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => d[x]! - d[y]! || x - y);
  const values = Float64Array.from(order, (i) => d[i]!);
  const row = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const r = k * n;
    for (let j = 0; j < n; j++) row[j] = z[r + order[j]!]!;
    z.set(row, r);
  }
  return { values, vectors: { rows: n, cols: n, data: z } };
}
