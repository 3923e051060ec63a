/**
 * SVD of an upper bidiagonal matrix by divide and conquer (Gu & Eisenstat, "A divide-and-conquer
 * algorithm for the bidiagonal SVD", SIMAX 1995; LAPACK dbdsdc/dlasd1–dlasd4).
 *
 * A subproblem is an upper bidiagonal B (n × (n + sqre), sqre ∈ {0, 1}): B[i, i] = d[lo + i],
 * B[i, i + 1] = e[lo + i]. Split at the middle row k: rows 0…k−1 form B₁ (k × (k+1), sqre 1),
 * row k holds α = d_k at column k and β = e_k at column k+1, rows k+1… form B₂ (same sqre as B).
 * With B₁ = U₁[Σ₁ 0]V₁ᵀ and B₂ = U₂[Σ₂ 0]V₂ᵀ,
 *   B = diag(U₁, 1, U₂) · M · diag(V₁, V₂)ᵀ,  M = [Σ₁ 0 0; z₁ᵀ z₂ᵀ; 0 Σ₂ 0],
 * z₁ = α·(last row of V₁), z₂ = β·(first row of V₂). The columns of M with d = 0 (V₁'s null
 * vector and, when sqre = 1, V₂'s) are combined by one rotation, leaving a square core
 * M = [z; diag(d)] with d₀ = 0. Its singular values solve the secular equation
 *   f(σ) = 1 + Σⱼ zⱼ² / (dⱼ² − σ²) = 0,
 * one root between consecutive dⱼ, after deflation of tiny zⱼ and of near-equal dⱼ (a rotation
 * zeroes one z). Each root is found relative to its nearer pole d_o, in μ = σ² − d_o², so the
 * differences dⱼ² − σ² are formed without cancellation; then z is recomputed from the roots
 * (Löwner's formula, Gu–Eisenstat), which makes the vectors vᵢ ∝ ẑⱼ/(dⱼ² − σᵢ²) and
 * uᵢ ∝ (−1, dⱼẑⱼ/(dⱼ² − σᵢ²)) orthogonal to working precision. The vectors of B are the
 * products of the subproblems' vectors with those of M, by GEMM on the blocks that are not
 * zero. Subproblems of at most LEAF rows are solved densely by `thinSvd` (one-sided Jacobi).
 * O(n³) with a small constant, almost all GEMM; the secular equations (bidiag-secular.ts) are
 * O(n²) per merge.
 */
import { NumericalError } from './errors';
import { gemmStrided } from './gemm';
import { loewner, secularRoots } from './bidiag-secular';
import { thinSvd } from './svd';

const EPS = Number.EPSILON;
/** Rows of the subproblems solved densely. */
const LEAF = 12;

/**
 * Storage shared by the whole recursion, allocated once (fresh pages are costly to touch):
 * U (n×n) and V (n×n) hold each solved subproblem's vectors in its diagonal block — rows and
 * columns lo … lo+n_sub−1 of U and lo … lo+n_sub+sqre−1 of V, which never overlap between
 * siblings — and S[lo …] its singular values; the rest is one merge's scratch, reused.
 */
interface Work {
  readonly n: number;
  readonly U: Float64Array;
  readonly V: Float64Array;
  readonly S: Float64Array;
  readonly ug: Float64Array;
  readonly vg: Float64Array;
  readonly gc: Float64Array;
  readonly umt: Float64Array;
  readonly vmt: Float64Array;
}

/**
 * SVD of the n×n upper bidiagonal B with diagonal d (n) and superdiagonal e (n − 1 used):
 * B = U·diag(s)·Vᵀ with s descending, U and V n×n orthogonal (row-major, vectors in columns).
 * ‖B·V − U·Σ‖ ≈ n·ε·‖B‖. d and e are not modified.
 */
export function bidiagSvd(
  d: Float64Array,
  e: Float64Array,
  n: number,
): { u: Float64Array; s: Float64Array; v: Float64Array } {
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(d[i]!) || (i < n - 1 && !Number.isFinite(e[i]!)))
      throw new NumericalError('svd: the bidiagonal matrix has a non-finite entry');
  }
  const nn = n * n;
  const w: Work = {
    n,
    U: new Float64Array(nn),
    V: new Float64Array(nn),
    S: new Float64Array(n),
    ug: new Float64Array(nn),
    vg: new Float64Array(nn),
    gc: new Float64Array(nn),
    umt: new Float64Array(nn),
    vmt: new Float64Array(nn),
  };
  solve(d, e, 0, n, 0, w);
  const order = Int32Array.from({ length: n }, (_, i) => i).sort(
    (a, b) => w.S[b]! - w.S[a]! || a - b,
  );
  const s = Float64Array.from(order, (i) => w.S[i]!);
  // Columns sorted in place through the scratch.
  w.ug.set(w.U);
  gatherColumns(w.U, 0, n, w.ug, n, n, order);
  w.vg.set(w.V);
  gatherColumns(w.V, 0, n, w.vg, n, n, order);
  return { u: w.U, s, v: w.V };
}

function solve(
  d: Float64Array,
  e: Float64Array,
  lo: number,
  n: number,
  sqre: number,
  w: Work,
): void {
  if (n <= LEAF) {
    leaf(d, e, lo, n, sqre, w);
    return;
  }
  const k = n >> 1;
  solve(d, e, lo, k, 1, w);
  solve(d, e, lo + k + 1, n - k - 1, sqre, w);
  merge(d, e, lo, n, sqre, w);
}

/** Dense SVD of a small subproblem through thinSvd of Bᵀ ((n+sqre)×n, tall), into w. */
function leaf(
  d: Float64Array,
  e: Float64Array,
  lo: number,
  n: number,
  sqre: number,
  w: Work,
): void {
  const N = n + sqre;
  const ld = w.n;
  const o = lo * ld + lo;
  if (n === 0) {
    for (let i = 0; i < N; i++) w.V[o + i * ld + i] = 1;
    return;
  }
  const bt = new Float64Array(N * n);
  for (let i = 0; i < n; i++) {
    bt[i * n + i] = d[lo + i]!;
    if (i + 1 < N) bt[(i + 1) * n + i] = e[lo + i]!;
  }
  // Bᵀ = U'·Σ·V'ᵀ, so B = V'·Σ·U'ᵀ: U = V' (n×n), V = [U' null] (N×N).
  const r = thinSvd({ rows: N, cols: n, data: bt });
  const v = new Float64Array(N * N);
  for (let i = 0; i < N; i++) for (let j = 0; j < n; j++) v[i * N + j] = r.U.data[i * n + j]!;
  if (sqre) completeColumn(v, N, n);
  for (let i = 0; i < n; i++) w.U.set(r.V.data.subarray(i * n, i * n + n), o + i * ld);
  for (let i = 0; i < N; i++) w.V.set(v.subarray(i * N, i * N + N), o + i * ld);
  w.S.set(r.s, lo);
}

/**
 * Column c of q (N×N row-major; columns 0…c−1 orthonormal) ← a unit vector orthogonal to them:
 * the coordinate vector with the largest remainder, Gram–Schmidt twice.
 */
function completeColumn(q: Float64Array, N: number, c: number): void {
  let best = 0;
  let bestRem = -1;
  for (let j = 0; j < N; j++) {
    let s = 0;
    for (let p = 0; p < c; p++) s += q[j * N + p]! ** 2;
    if (1 - s > bestRem) {
      bestRem = 1 - s;
      best = j;
    }
  }
  const x = new Float64Array(N);
  x[best] = 1;
  for (let pass = 0; pass < 2; pass++) {
    for (let p = 0; p < c; p++) {
      let dp = 0;
      for (let i = 0; i < N; i++) dp += q[i * N + p]! * x[i]!;
      for (let i = 0; i < N; i++) x[i]! -= dp * q[i * N + p]!;
    }
  }
  let nx = 0;
  for (let i = 0; i < N; i++) nx += x[i]! ** 2;
  nx = Math.sqrt(nx);
  for (let i = 0; i < N; i++) q[i * N + c] = x[i]! / nx;
}

/** Columns a, b of q (rows × ld, first `rows` rows) ← (c·q_a + s·q_b, −s·q_a + c·q_b). */
function rotCols(
  q: Float64Array,
  ld: number,
  rows: number,
  a: number,
  b: number,
  c: number,
  s: number,
): void {
  for (let i = 0; i < rows; i++) {
    const x = q[i * ld + a]!;
    const y = q[i * ld + b]!;
    q[i * ld + a] = c * x + s * y;
    q[i * ld + b] = -s * x + c * y;
  }
}

/** Which rows of the pre-merge bases a column can be non-zero in. */
const BLOCK1 = 1;
const BLOCK2 = 2;
const MIXED = 3;

/** Merges the two solved halves of the subproblem (lo, n, sqre) into its SVD, in w. */
function merge(
  d: Float64Array,
  e: Float64Array,
  lo: number,
  n: number,
  sqre: number,
  w: Work,
): void {
  const ld = w.n;
  const k = n >> 1;
  const m = n - k - 1;
  const N = n + sqre;
  const N1 = k + 1;
  const N2 = m + sqre;
  const alpha = d[lo + k]!;
  const beta = k < n - 1 || sqre ? e[lo + k]! : 0;
  const o = lo * ld + lo;

  // Pre-merge bases: ug (n×n) and vg (N×N); index c of the core: c < k block 1, c = k the
  // middle row / V₁'s null vector, k < c < n block 2, c = n (sqre) V₂'s null vector.
  const ug = w.ug.subarray(0, n * n);
  const vg = w.vg.subarray(0, N * N);
  ug.fill(0);
  vg.fill(0);
  const dd = new Float64Array(N);
  const zz = new Float64Array(N);
  const tU = new Uint8Array(n);
  const tV = new Uint8Array(N);
  copyBlock(ug, n, 0, w.U, o, ld, k);
  ug[k * n + k] = 1;
  copyBlock(ug, n, k + 1, w.U, o + (k + 1) * (ld + 1), ld, m);
  copyBlock(vg, N, 0, w.V, o, ld, N1);
  copyBlock(vg, N, N1, w.V, o + N1 * (ld + 1), ld, N2);
  for (let c = 0; c < N1; c++) zz[c] = alpha * vg[k * N + c]!;
  for (let c = 0; c < N2; c++) zz[N1 + c] = beta * vg[N1 * N + N1 + c]!;
  for (let c = 0; c < k; c++) dd[c] = w.S[lo + c]!;
  for (let c = 0; c < m; c++) dd[N1 + c] = w.S[lo + N1 + c]!;
  for (let c = 0; c < n; c++) tU[c] = c < k ? BLOCK1 : c === k ? 0 : BLOCK2;
  for (let c = 0; c < N; c++) tV[c] = c <= k ? BLOCK1 : BLOCK2;
  if (sqre) {
    // Columns k and n of M are zz·e_k only: rotate them so that column n becomes zero.
    const r = Math.hypot(zz[k]!, zz[n]!);
    if (r > 0) {
      rotCols(vg, N, N, k, n, zz[k]! / r, zz[n]! / r);
      zz[k] = r;
      zz[n] = 0;
      tV[k] = MIXED;
      tV[n] = MIXED;
    }
  }

  let scale = Math.max(Math.abs(alpha), Math.abs(beta));
  for (let c = 0; c < n; c++) scale = Math.max(scale, dd[c]!);
  const S = w.S;
  if (scale === 0) {
    S.fill(0, lo, lo + n);
    for (let i = 0; i < n; i++) w.U.set(ug.subarray(i * n, i * n + n), o + i * ld);
    for (let i = 0; i < N; i++) w.V.set(vg.subarray(i * N, i * N + N), o + i * ld);
    return;
  }
  let zmax = 0;
  for (let c = 0; c < n; c++) {
    dd[c]! /= scale;
    zz[c]! /= scale;
    zmax = Math.max(zmax, Math.abs(zz[c]!));
  }
  let dmax = 0;
  for (let c = 0; c < n; c++) dmax = Math.max(dmax, dd[c]!);
  const tol = 8 * EPS * Math.max(dmax, zmax);

  // Deflation, in order of increasing d with the d = 0 column k first.
  const sorted = Array.from({ length: n }, (_, c) => c)
    .filter((c) => c !== k)
    .sort((a, b) => dd[a]! - dd[b]! || a - b);
  if (Math.abs(zz[k]!) <= tol) zz[k] = zz[k]! < 0 ? -tol : tol;
  const keep: number[] = [k];
  const defl: number[] = [];
  for (const j of sorted) {
    if (Math.abs(zz[j]!) <= tol) {
      defl.push(j);
      continue;
    }
    if (dd[j]! <= tol) {
      // d_j ≈ 0 = d_k: rotate columns k and j (right side only) so that z_j = 0; σ = 0.
      const r = Math.hypot(zz[k]!, zz[j]!);
      rotCols(vg, N, N, k, j, zz[k]! / r, zz[j]! / r);
      zz[k] = r;
      zz[j] = 0;
      dd[j] = 0;
      tV[k] = MIXED;
      tV[j] = MIXED;
      defl.push(j);
      continue;
    }
    const p = keep[keep.length - 1]!;
    if (p !== k && dd[j]! - dd[p]! <= tol) {
      // d_p ≈ d_j: rotate both sides so that z_p = 0, then deflate p.
      const r = Math.hypot(zz[p]!, zz[j]!);
      const c = zz[j]! / r;
      const sn = zz[p]! / r;
      rotCols(vg, N, N, p, j, c, -sn);
      rotCols(ug, n, n, p, j, c, -sn);
      zz[p] = 0;
      zz[j] = r;
      if (tV[p] !== tV[j]) tV[p] = tV[j] = MIXED;
      if (tU[p] !== tU[j]) tU[p] = tU[j] = MIXED;
      keep.pop();
      defl.push(p);
    }
    keep.push(j);
  }

  const K = keep.length;
  const D = Float64Array.from(keep, (c) => dd[c]!);
  const Z = Float64Array.from(keep, (c) => zz[c]!);
  const { mu, origin } = secularRoots(D, Z);
  const zh = loewner(D, Z, mu, origin);
  const umt = w.umt.subarray(0, K * K);
  const vmt = w.vmt.subarray(0, K * K);
  const gU = groups(keep, tU);
  const gV = groups(keep, tV);
  coreVectors(D, zh, mu, origin, umt, vmt, gU.inv, gV.inv);
  for (let i = 0; i < K; i++) S[lo + i] = Math.sqrt(D[origin[i]!]! ** 2 + mu[i]!) * scale;

  // U[:, 0:K] = ug[:, keep]·umtᵀ, by blocks: rows 0…k−1 see block-1 and mixed columns, row k
  // every column, rows k+1… block-2 and mixed columns.
  backMultiply(ug, n, n, k, 1, keep, gU, umt, w.U, o, ld, w);
  backMultiply(vg, N, N, k + 1, 0, keep, gV, vmt, w.V, o, ld, w);
  defl.forEach((c, t) => (S[lo + K + t] = dd[c]! * scale));
  const dc = Int32Array.from(defl);
  gatherColumns(w.U, o + K, ld, ug, n, n, dc);
  gatherColumns(w.V, o + K, ld, vg, N, N, dc);
  if (sqre) gatherColumns(w.V, o + n, ld, vg, N, N, Int32Array.of(n));
}

/** dst[r0 + i, r0 + j] = src[so + i·lds + j] for i, j < b; dst has ldd columns. */
function copyBlock(
  dst: Float64Array,
  ldd: number,
  r0: number,
  src: Float64Array,
  so: number,
  lds: number,
  b: number,
): void {
  for (let i = 0; i < b; i++)
    dst.set(src.subarray(so + i * lds, so + i * lds + b), (r0 + i) * ldd + r0);
}

/** dst[do + i·ldd + t] = src[i·lds + cols[t]] for i < rows. */
function gatherColumns(
  dst: Float64Array,
  d0: number,
  ldd: number,
  src: Float64Array,
  lds: number,
  rows: number,
  cols: Int32Array,
): void {
  const nc = cols.length;
  for (let i = 0; i < rows; i++) {
    const r = d0 + i * ldd;
    const q = i * lds;
    for (let t = 0; t < nc; t++) dst[r + t] = src[q + cols[t]!]!;
  }
}

/**
 * The core's singular vectors, row i of umt / vmt (K×K) for root i, entry j at position
 * invU[j] / invV[j] (the grouped orders of backMultiply): vᵢ ∝ ẑⱼ/(Dⱼ² − σᵢ²),
 * uᵢ ∝ (−1, Dⱼ·ẑⱼ/(Dⱼ² − σᵢ²)).
 */
function coreVectors(
  D: Float64Array,
  zh: Float64Array,
  mu: Float64Array,
  origin: Int32Array,
  umt: Float64Array,
  vmt: Float64Array,
  invU: Int32Array,
  invV: Int32Array,
): void {
  const K = D.length;
  for (let i = 0; i < K; i++) {
    const o = origin[i]!;
    const mi = mu[i]!;
    const dO = D[o]!;
    const r = i * K;
    let nu = 1;
    let nv = 0;
    for (let j = 0; j < K; j++) {
      // Dⱼ² − σᵢ² = (Dⱼ − D_o)(Dⱼ + D_o) − μᵢ.
      const dj = D[j]!;
      const vj = zh[j]! / ((dj - dO) * (dj + dO) - mi);
      vmt[r + invV[j]!] = vj;
      nv += vj * vj;
      const uj = dj * vj;
      umt[r + invU[j]!] = uj;
      nu += uj * uj;
    }
    const u0 = r + invU[0]!;
    nu -= umt[u0]! * umt[u0]!;
    umt[u0] = -1;
    nu = 1 / Math.sqrt(nu);
    nv = 1 / Math.sqrt(nv);
    for (let j = 0; j < K; j++) {
      umt[r + j]! *= nu;
      vmt[r + j]! *= nv;
    }
  }
}

/**
 * The core's columns grouped as [middle (type 0), block 1, mixed, block 2] (stable):
 * pos[q] is the keep index at grouped position q, inv its inverse, n0/n1/n2 the first sizes.
 */
interface Groups {
  readonly pos: Int32Array;
  readonly inv: Int32Array;
  readonly n0: number;
  readonly n1: number;
  readonly n2: number;
}

function groups(keep: readonly number[], type: Uint8Array): Groups {
  const K = keep.length;
  const rank = (t: number): number => {
    const ty = type[keep[t]!]!;
    return ty === 0 ? 0 : ty === BLOCK1 ? 1 : ty === MIXED ? 2 : 3;
  };
  const pos = Int32Array.from({ length: K }, (_, t) => t).sort(
    (a, b) => rank(a) - rank(b) || a - b,
  );
  const inv = new Int32Array(K);
  pos.forEach((t, q) => (inv[t] = q));
  const count = [0, 0, 0, 0];
  for (let t = 0; t < K; t++) count[rank(t)]!++;
  return { pos, inv, n0: count[0]!, n1: count[1]!, n2: count[2]! };
}

/**
 * out[:, 0:K] = G[:, keep]·Wᵀ for the pre-merge basis G (rows×ld) and the core vectors in the
 * rows of wt (K×K, entries in `keep` order). Rows 0…split−1 of G are non-zero only in block-1
 * and mixed columns, rows split+mid… only in block-2 and mixed ones; with mid = 1 the row
 * `split` (the middle row of U) is done by a loop over all columns. wp holds the vectors with
 * their entries already in the grouped order `gr`.
 */
function backMultiply(
  g: Float64Array,
  rows: number,
  ld: number,
  split: number,
  mid: number,
  keep: readonly number[],
  gr: Groups,
  wp: Float64Array,
  out: Float64Array,
  oo: number,
  ldo: number,
  w: Work,
): void {
  const K = keep.length;
  const { pos, n0, n1, n2 } = gr;
  const col = Int32Array.from(pos, (t) => keep[t]!);
  const gc = w.gc;
  for (let i = 0; i < rows; i++) for (let q = 0; q < K; q++) gc[i * K + q] = g[i * ld + col[q]!]!;
  gemmStrided(
    split,
    K,
    n1 + n2,
    1,
    { data: gc, offset: n0, ld: K },
    false,
    { data: wp, offset: n0, ld: K },
    true,
    0,
    { data: out, offset: oo, ld: ldo },
  );
  if (mid) {
    for (let j = 0; j < K; j++) {
      let acc = 0;
      for (let q = 0; q < K; q++) acc += gc[split * K + q]! * wp[j * K + q]!;
      out[oo + split * ldo + j] = acc;
    }
  }
  const r0 = split + mid;
  const c0 = n0 + n1;
  gemmStrided(
    rows - r0,
    K,
    K - c0,
    1,
    { data: gc, offset: r0 * K + c0, ld: K },
    false,
    { data: wp, offset: c0, ld: K },
    true,
    0,
    { data: out, offset: oo + r0 * ldo, ld: ldo },
  );
}
