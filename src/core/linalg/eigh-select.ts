/**
 * A few eigenpairs of a symmetric tridiagonal T (d, e): eigenvalues by bisection on Sturm counts
 * (LAPACK dstebz) and eigenvectors by inverse iteration (dstein), for `symEigSelect`'s large-n
 * route, where only k ≪ n pairs are wanted: O(n·k) work per step instead of divide and
 * conquer's O(n³).
 *
 * - Sturm count: the number of eigenvalues below x is the number of negative pivots of the
 *   LDLᵀ factorisation of T − x·I, q₀ = d₀ − x, q_i = d_i − x − e_{i−1}²/q_{i−1} (a pivot smaller
 *   than `pivmin` is replaced by −pivmin, as dstebz does). Bisection from the Gershgorin interval
 *   down to the rounding level of ‖T‖ gives each eigenvalue to an absolute ≈ ε·‖T‖.
 * - Inverse iteration: x ← (T − λ̂I)⁻¹x by tridiagonal Gaussian elimination with partial pivoting
 *   (dgttrf; a zero pivot becomes ε·‖T‖), three solves from a fixed pseudo-random start. Pairs
 *   closer than 10⁻³·‖T‖ form a cluster whose vectors are Gram–Schmidt orthogonalised against
 *   each other after every solve (dstein's criterion), and eigenvalues closer than 10·ε·|λ| are
 *   pulled apart by that much so that their solves start from different shifts.
 */

/** Smallest positive normal double. */
const SAFMIN = 2 ** -1022;
/** Inverse-iteration solves per eigenvector. */
const SOLVES = 3;

/**
 * Eigenvalues first..first+count−1 (ascending order, 0-based) of the tridiagonal (d, e) of order
 * n into values, and their eigenvectors into the columns of z (n×count, row-major, returned).
 */
export function tridiagonalSelect(
  d: Float64Array,
  e: Float64Array,
  n: number,
  first: number,
  count: number,
  values: Float64Array,
): Float64Array {
  const e2 = new Float64Array(Math.max(n - 1, 0));
  let emax2 = 0;
  for (let i = 0; i + 1 < n; i++) {
    e2[i] = e[i]! * e[i]!;
    emax2 = Math.max(emax2, e2[i]!);
  }
  const pivmin = SAFMIN * Math.max(1, emax2);
  // Gershgorin interval and ‖T‖₁.
  let gl = Infinity;
  let gu = -Infinity;
  let tnorm = 0;
  for (let i = 0; i < n; i++) {
    const r = (i > 0 ? Math.abs(e[i - 1]!) : 0) + (i + 1 < n ? Math.abs(e[i]!) : 0);
    gl = Math.min(gl, d[i]! - r);
    gu = Math.max(gu, d[i]! + r);
    tnorm = Math.max(tnorm, Math.abs(d[i]!) + r);
  }
  const widen = 2 * Number.EPSILON * n * tnorm + 4 * pivmin;
  gl -= widen;
  gu += widen;
  for (let t = 0; t < count; t++) values[t] = bisect(d, e2, n, first + t, gl, gu, pivmin);
  return inverseIteration(d, e, n, values, count, tnorm);
}

/** The number of eigenvalues of T below x (negative LDLᵀ pivots of T − x·I). */
function countBelow(
  d: Float64Array,
  e2: Float64Array,
  n: number,
  x: number,
  pivmin: number,
): number {
  let q = d[0]! - x;
  if (Math.abs(q) < pivmin) q = -pivmin;
  let cnt = q < 0 ? 1 : 0;
  for (let i = 1; i < n; i++) {
    q = d[i]! - x - e2[i - 1]! / q;
    if (Math.abs(q) < pivmin) q = -pivmin;
    if (q < 0) cnt++;
  }
  return cnt;
}

/** Eigenvalue j (0-based, ascending) by bisection of [lo, hi] (count(lo) ≤ j < count(hi)). */
function bisect(
  d: Float64Array,
  e2: Float64Array,
  n: number,
  j: number,
  lo: number,
  hi: number,
  pivmin: number,
): number {
  for (let it = 0; it < 200; it++) {
    const mid = 0.5 * (lo + hi);
    if (hi - lo <= 2 * Number.EPSILON * Math.max(Math.abs(lo), Math.abs(hi)) + pivmin) break;
    if (mid <= lo || mid >= hi) break;
    if (countBelow(d, e2, n, mid, pivmin) > j) hi = mid;
    else lo = mid;
  }
  return 0.5 * (lo + hi);
}

/**
 * Eigenvectors of T for the ascending eigenvalues values[0..count) by inverse iteration, into
 * the columns of z (n×count, row-major).
 */
function inverseIteration(
  d: Float64Array,
  e: Float64Array,
  n: number,
  values: Float64Array,
  count: number,
  tnorm: number,
): Float64Array {
  const z = new Float64Array(n * count);
  const cols: Float64Array[] = [];
  const lu = tridiagonalLuWork(n);
  const x = new Float64Array(n);
  const ortol = 1e-3 * tnorm;
  const tiny = Number.EPSILON * Math.max(tnorm, SAFMIN);
  let clusterStart = 0;
  let prev = -Infinity;
  for (let t = 0; t < count; t++) {
    let lam = values[t]!;
    if (t > 0 && lam - values[t - 1]! > ortol) clusterStart = t;
    const pertol = 10 * Number.EPSILON * Math.abs(lam) + tiny;
    if (t > clusterStart && lam - prev < pertol) lam = prev + pertol;
    prev = lam;
    tridiagonalLu(d, e, n, lam, tiny, lu);
    // A fixed start with every component nonzero (a Weyl sequence in (0.5, 1.5)).
    for (let i = 0; i < n; i++)
      x[i] = 0.5 + ((i * 0.6180339887498949 + t * 0.4142135623730951) % 1);
    for (let s = 0; s < SOLVES; s++) {
      tridiagonalSolve(lu, n, x);
      for (let g = 0; g < 2; g++)
        for (let c = clusterStart; c < t; c++) {
          const v = cols[c]!;
          let dot = 0;
          for (let i = 0; i < n; i++) dot += v[i]! * x[i]!;
          for (let i = 0; i < n; i++) x[i]! -= dot * v[i]!;
        }
      normalise(x, n);
    }
    const col = x.slice();
    cols.push(col);
    for (let i = 0; i < n; i++) z[i * count + t] = col[i]!;
  }
  return z;
}

/** x ← x/‖x‖₂, scaled first by max |x_i| so that the squares neither overflow nor underflow. */
function normalise(x: Float64Array, n: number): void {
  let m = 0;
  for (let i = 0; i < n; i++) m = Math.max(m, Math.abs(x[i]!));
  if (m === 0 || !Number.isFinite(m)) {
    x.fill(1 / Math.sqrt(n));
    return;
  }
  let s = 0;
  for (let i = 0; i < n; i++) s += (x[i]! / m) ** 2;
  const f = 1 / (m * Math.sqrt(s));
  for (let i = 0; i < n; i++) x[i]! *= f;
}

/** LU factors of a tridiagonal with partial pivoting (dgttrf): L unit lower bidiagonal
 * (multipliers dl, row swaps in swap), U upper with two superdiagonals (dd, du, du2). */
interface TridiagonalLu {
  readonly dl: Float64Array;
  readonly dd: Float64Array;
  readonly du: Float64Array;
  readonly du2: Float64Array;
  readonly swap: Uint8Array;
}

function tridiagonalLuWork(n: number): TridiagonalLu {
  return {
    dl: new Float64Array(n),
    dd: new Float64Array(n),
    du: new Float64Array(n),
    du2: new Float64Array(n),
    swap: new Uint8Array(n),
  };
}

/** Factors T − λI; pivots below `tiny` in magnitude become ±tiny (the matrix is nearly singular
 * by design). */
function tridiagonalLu(
  d: Float64Array,
  e: Float64Array,
  n: number,
  lam: number,
  tiny: number,
  f: TridiagonalLu,
): void {
  const { dl, dd, du, du2, swap } = f;
  for (let i = 0; i < n; i++) {
    dd[i] = d[i]! - lam;
    dl[i] = i + 1 < n ? e[i]! : 0;
    du[i] = i + 1 < n ? e[i]! : 0;
    du2[i] = 0;
    swap[i] = 0;
  }
  for (let i = 0; i + 1 < n; i++) {
    if (Math.abs(dd[i]!) >= Math.abs(dl[i]!)) {
      if (Math.abs(dd[i]!) < tiny) dd[i] = dd[i]! < 0 ? -tiny : tiny;
      const fact = dl[i]! / dd[i]!;
      dl[i] = fact;
      dd[i + 1]! -= fact * du[i]!;
    } else {
      const fact = dd[i]! / dl[i]!;
      dd[i] = dl[i]!;
      dl[i] = fact;
      const temp = du[i]!;
      du[i] = dd[i + 1]!;
      dd[i + 1] = temp - fact * dd[i + 1]!;
      if (i + 2 < n) {
        du2[i] = du[i + 1]!;
        du[i + 1] = -fact * du[i + 1]!;
      }
      swap[i] = 1;
    }
  }
  if (n > 0 && Math.abs(dd[n - 1]!) < tiny) dd[n - 1] = dd[n - 1]! < 0 ? -tiny : tiny;
}

/** x ← (T − λI)⁻¹·x from the factors (dgttrs), rescaled when it grows past 1e150. */
function tridiagonalSolve(f: TridiagonalLu, n: number, x: Float64Array): void {
  const { dl, dd, du, du2, swap } = f;
  for (let i = 0; i + 1 < n; i++) {
    if (swap[i]) {
      const t = x[i]!;
      x[i] = x[i + 1]!;
      x[i + 1] = t - dl[i]! * x[i + 1]!;
    } else {
      x[i + 1]! -= dl[i]! * x[i]!;
    }
  }
  for (let i = n - 1; i >= 0; i--) {
    let s = x[i]!;
    if (i + 1 < n) s -= du[i]! * x[i + 1]!;
    if (i + 2 < n) s -= du2[i]! * x[i + 2]!;
    x[i] = s / dd[i]!;
    if (Math.abs(x[i]!) > 1e150) {
      for (let j = i; j < n; j++) x[j]! *= 1e-150;
      for (let j = 0; j < i; j++) x[j]! *= 1e-150;
    }
  }
}
