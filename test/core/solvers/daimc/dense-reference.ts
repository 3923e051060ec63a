/**
 * DAIMC written the reference's way, for small problems only: the test ground truth of the
 * linear-time port. Each view is a dense d_v × n matrix with zero columns for missing samples,
 * W_v a dense n × n diagonal, every product formed as written in `DAIMC.m`, `UpdateV_DAIMC.m`
 * and `newinit.m` (the V loop recomputes X_vᵀU_v and U_vᵀU_v each pass and its objective from
 * the residual (X_v − U_v·Vᵀ)·W_v; B by the d × d Woodbury form; U by the dense symmetric
 * Sylvester solver, the reference runs' own `lyap` shim). Start: `newinit` with given labels.
 * O(n²·d) per product: keep n and d_v in the tens.
 */
import { sylvesterSymmetric } from '../../../../src/core/linalg/sylvester';
import type { Mat } from '../../../../src/core/linalg/types';
import type { DaimcOptions } from '../../../../src/core/solvers/daimc';
import { naiveMul, transpose } from '../../../helpers/mat';

const zerosM = (r: number, c: number): Mat => ({ rows: r, cols: c, data: new Float64Array(r * c) });
const eye = (n: number): Mat => {
  const I = zerosM(n, n);
  for (let i = 0; i < n; i++) I.data[i * n + i] = 1;
  return I;
};
const map2 = (A: Mat, B: Mat, f: (a: number, b: number) => number): Mat => ({
  rows: A.rows,
  cols: A.cols,
  data: A.data.map((a, p) => f(a, B.data[p]!)),
});
const add = (A: Mat, B: Mat): Mat => map2(A, B, (a, b) => a + b);
const sub = (A: Mat, B: Mat): Mat => map2(A, B, (a, b) => a - b);
const scale = (s: number, A: Mat): Mat => ({
  rows: A.rows,
  cols: A.cols,
  data: A.data.map((a) => s * a),
});
const mul = (...ms: Mat[]): Mat => ms.reduce((a, b) => naiveMul(a, b));
const sumSq = (A: Mat): number => A.data.reduce((s, x) => s + x * x, 0);
const plus = (A: Mat): Mat => ({ ...A, data: A.data.map((x) => (Math.abs(x) + x) / 2) });
const minus = (A: Mat): Mat => ({ ...A, data: A.data.map((x) => (Math.abs(x) - x) / 2) });

/** Gauss–Jordan inverse with partial pivoting (small matrices). */
function inv(A: Mat): Mat {
  const n = A.rows;
  const a = Float64Array.from(A.data);
  const b = eye(n).data;
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(a[r * n + c]!) > Math.abs(a[p * n + c]!)) p = r;
    for (let j = 0; j < n; j++) {
      [a[c * n + j], a[p * n + j]] = [a[p * n + j]!, a[c * n + j]!];
      [b[c * n + j], b[p * n + j]] = [b[p * n + j]!, b[c * n + j]!];
    }
    const piv = a[c * n + c]!;
    for (let j = 0; j < n; j++) {
      a[c * n + j]! /= piv;
      b[c * n + j]! /= piv;
    }
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = a[r * n + c]!;
      for (let j = 0; j < n; j++) {
        a[r * n + j]! -= f * a[c * n + j]!;
        b[r * n + j]! -= f * b[c * n + j]!;
      }
    }
  }
  return { rows: n, cols: n, data: b };
}

const diagM = (v: ArrayLike<number>): Mat => {
  const n = v.length;
  const D = zerosM(n, n);
  for (let i = 0; i < n; i++) D.data[i * n + i] = v[i]!;
  return D;
};
const colSums = (V: Mat): number[] =>
  Array.from({ length: V.cols }, (_, c) => {
    let s = 0;
    for (let i = 0; i < V.rows; i++) s += V.data[i * V.cols + c]!;
    return s;
  });
/** (invD − invD·U·(Uᵀ·invD·U + I)⁻¹·Uᵀ·invD)·U, the reference's Woodbury form. */
function woodbury(invD: Mat, U: Mat): Mat {
  const k = U.cols;
  const Ut = transpose(U);
  const inner = inv(add(mul(Ut, invD, U), eye(k)));
  return mul(sub(invD, mul(invD, U, inner, Ut, invD)), U);
}
const rowNormD = (B: Mat): number[] =>
  Array.from({ length: B.rows }, (_, i) => {
    let s = 0;
    for (let c = 0; c < B.cols; c++) s += B.data[i * B.cols + c]! ** 2;
    return 1 / Math.sqrt(s + 1e-10);
  });

export interface DenseDaimc {
  readonly objective: number[];
  readonly innerIterations: number[];
  readonly V: Mat;
  readonly U: Mat[];
  readonly B: Mat[];
}

/**
 * X[v]: (d_v, n) unit-L2 columns, zero where missing; w[v]: (n,) presence 0/1; labels (n,)
 * 0..k−1 for the start.
 */
export function denseDaimc(
  X: Mat[],
  w: number[][],
  labels: Int32Array,
  k: number,
  o: DaimcOptions,
): DenseDaimc {
  const n = X[0]!.cols;
  const nv = X.length;
  const W = w.map(diagM);
  // newinit: mean fill, class means, offsets, V and the normalisation, B by Woodbury.
  let V = zerosM(n, k);
  const U = X.map((Xv, v) => {
    const d = Xv.rows;
    const present = w[v]!.map((x, i) => (x ? i : -1)).filter((i) => i >= 0);
    const filled = { ...Xv, data: Float64Array.from(Xv.data) };
    for (let r = 0; r < d; r++) {
      const m = present.reduce((s, i) => s + Xv.data[r * n + i]!, 0) / present.length;
      for (let i = 0; i < n; i++) if (!w[v]![i]) filled.data[r * n + i] = m;
    }
    const Uv = zerosM(d, k);
    for (let c = 0; c < k; c++) {
      const members = Array.from(labels.keys()).filter((i) => labels[i] === c);
      for (let r = 0; r < d; r++) {
        const m = members.reduce((s, i) => s + filled.data[r * n + i]!, 0) / members.length;
        Uv.data[r * k + c] = m + 0.1;
      }
    }
    return Uv;
  });
  for (let i = 0; i < n; i++)
    for (let c = 0; c < k; c++) V.data[i * k + c] = (c === labels[i] ? 1 : 0) + 0.1;
  let Q = diagM(colSums(V));
  V = mul(V, inv(Q));
  for (let v = 0; v < nv; v++) U[v] = mul(U[v]!, Q);
  const B = U.map((Uv) => woodbury(diagM(new Array<number>(Uv.rows).fill(1e5)), Uv));
  const D = B.map(rowNormD);
  const objective: number[] = [];
  const innerIterations: number[] = [];
  let f = 0;
  for (let time = 1; ; time++) {
    for (let v = 0; v < nv; v++) {
      const A = scale(o.alpha, mul(B[v]!, transpose(B[v]!)));
      const S = mul(transpose(V), W[v]!, V);
      const C = add(mul(X[v]!, W[v]!, V), scale(o.alpha, B[v]!));
      U[v] = sylvesterSymmetric(A, S, C);
    }
    // UpdateV_DAIMC.
    let fi = 0;
    for (let pass = 1; ; pass++) {
      let nume = zerosM(n, k);
      let deno = zerosM(n, k);
      for (let v = 0; v < nv; v++) {
        const XU = mul(transpose(X[v]!), U[v]!);
        const UU = mul(transpose(U[v]!), U[v]!);
        nume = add(nume, add(mul(W[v]!, plus(XU)), mul(W[v]!, V, minus(UU))));
        deno = add(deno, add(mul(W[v]!, minus(XU)), mul(W[v]!, V, plus(UU))));
      }
      V = map2(
        V,
        map2(nume, deno, (a, b) => Math.sqrt(a / Math.max(b, 1e-10))),
        (x, y) => x * y,
      );
      let ff = 0;
      for (let v = 0; v < nv; v++) ff += sumSq(mul(sub(X[v]!, mul(U[v]!, transpose(V))), W[v]!));
      if (Math.abs((ff - fi) / fi) < o.innerTol || pass === o.innerIterations) {
        innerIterations.push(pass);
        break;
      }
      fi = ff;
    }
    Q = diagM(colSums(V));
    V = mul(V, inv(Q));
    let ff = 0;
    for (let v = 0; v < nv; v++) {
      U[v] = mul(U[v]!, Q);
      const invD = diagM(D[v]!.map((x) => 1 / (0.5 * o.beta * x)));
      B[v] = woodbury(invD, U[v]!);
      D[v] = rowNormD(B[v]!);
      const recon = sumSq(mul(sub(X[v]!, mul(U[v]!, transpose(V))), W[v]!));
      const align = sumSq(sub(mul(transpose(B[v]!), U[v]!), eye(k)));
      const l21 = D[v]!.reduce((s, x) => s + 1 / x, 0);
      ff += recon + o.alpha * (align + o.beta * l21);
    }
    objective.push(ff);
    if (Math.abs(ff - f) / f < o.tol || time === o.iterations) break;
    f = ff;
  }
  return { objective, innerIterations, V, U, B };
}
