/**
 * Mixed-radix Stockham FFT (self-sorting: no bit-reversal permutation), forward direction.
 *
 * n = p_1 · p_2 ⋯ p_s. Pass t (radix p = p_t, l1 = p_1⋯p_{t−1}, ido = n / (l1·p)) reads the
 * buffer as cc(i, j, k) = cc[i + ido·(j + p·k)] and writes ch(i, k, m) = ch[i + ido·(k + l1·m)],
 * for i < ido, j, m < p, k < l1:
 *
 *   ch(i, k, m) = ω_n^{m·i·l1} · Σ_{j<p} cc(i, j, k) · ω_p^{j·m},   ω_q = e^{−2πi/q}.
 *
 * After the last pass the buffer holds X in natural order (for n = p·q, two passes give
 * X_{m + p·m'} = Σ_{i,j} x_{i + q·j} ω_p^{jm} ω_n^{mi} ω_q^{im'}, which is the DFT because
 * ω_n^{(i + qj)(m + pm')} = ω_n^{im} ω_q^{im'} ω_p^{jm}). Each pass streams the whole buffer
 * once (read p legs, write p results; see `kernels.ts` for the loop order) and the passes
 * ping-pong between two buffers.
 *
 * Radices: 8, 4 and 2 for the power of two 2^e (as many 8s as possible, then one 4 or 2, except
 * that 2^{3q+1} uses 8^{q−1}·4·4: the same number of passes and no slow radix-2 pass), then
 * 3, 5 and any other odd prime (generic O(p²) butterfly). Cost ≈ n·Σ_t c(p_t); c(p) grows
 * linearly with p for the generic kernel, so a large prime factor makes this O(n·p): `plan.ts`
 * switches to Bluestein there.
 *
 * `runPanel` runs the same passes on a panel of signals (`panel.ts`), for the column
 * transforms of the real plans.
 *
 * Twiddles ω_n^{m·i·l1} are tabulated per pass (Σ_t (p_t − 1)·ido_t < 2n complex values) from
 * octant-reduced sin/cos (`roots.ts`), each within about one ulp.
 */
import type { FftCore, Real } from './core';
import { pass2, pass3, pass4, pass5, pass8, passOdd, type Stage } from './kernels';
import { panelPass2, panelPass3, panelPass4, panelPass5, panelPass8, panelPassOdd } from './panel';
import { unitRoot } from './roots';

/**
 * The radices of n in pass order (see the file comment). `factorize(2000)` is [4, 4, 5, 5, 5],
 * `factorize(4096)` is [8, 8, 8, 8], `factorize(1)` is [].
 */
export function factorize(n: number): number[] {
  let r = n;
  let twos = 0;
  while (r % 2 === 0) {
    twos++;
    r /= 2;
  }
  const f: number[] = [];
  let eights = Math.floor(twos / 3);
  const rest = twos % 3;
  if (rest === 1 && eights > 0) eights--;
  for (let i = 0; i < eights; i++) f.push(8);
  if (rest === 2) f.push(4);
  if (rest === 1) f.push(...(twos >= 4 ? [4, 4] : [2]));
  for (let p = 3; p * p <= r; p += 2) {
    while (r % p === 0) {
      f.push(p);
      r /= p;
    }
  }
  if (r > 1) f.push(r);
  return f;
}

function makeStage(n: number, p: number, l1: number): Stage {
  const ido = n / (l1 * p);
  const tw = new Float64Array(2 * (p - 1) * ido);
  const w = new Float64Array(2);
  for (let i = 0; i < ido; i++) {
    for (let m = 1; m < p; m++) {
      unitRoot(m * i * l1, n, w);
      const t = 2 * ((p - 1) * i + m - 1);
      tw[t] = w[0]!;
      tw[t + 1] = -w[1]!; // (cos, +sin): the kernels multiply by (cos, −sin)
    }
  }
  const half = (p - 1) >> 1;
  const trig = new Float64Array(p > 5 && p !== 8 ? 2 * half * half : 0);
  if (trig.length) {
    for (let m = 1; m <= half; m++) {
      for (let j = 1; j <= half; j++) {
        unitRoot(j * m, p, w);
        trig[2 * ((m - 1) * half + j - 1)] = w[0]!;
        trig[2 * ((m - 1) * half + j - 1) + 1] = -w[1]!;
      }
    }
  }
  return { p, l1, ido, tw, trig };
}

/** Mixed-radix forward transform of one length; tables built once, O(n) memory. */
export class MixedRadixCore implements FftCore {
  readonly n: number;
  readonly factors: readonly number[];
  /** The passes in order (read by `panel-run.ts` to run them on WebAssembly). */
  readonly stages: readonly Stage[];
  private readonly scratch: Real;

  constructor(n: number) {
    this.n = n;
    this.factors = factorize(n);
    const stages: Stage[] = [];
    let l1 = 1;
    let widest = 0;
    for (const p of this.factors) {
      stages.push(makeStage(n, p, l1));
      l1 *= p;
      widest = Math.max(widest, p);
    }
    this.stages = stages;
    this.scratch = new Float64Array(2 * widest);
  }

  run(src: Real, so: number, a: Real, b: Real): Real {
    const { stages } = this;
    if (stages.length === 0) {
      // n = 1: X_0 = x_0.
      a[0] = src[so]!;
      a[1] = src[so + 1]!;
      return a;
    }
    // Pass 0 reads src and writes b; then b → a, a → b, …
    let from = src;
    let off = so;
    let to = b;
    for (let t = 0; t < stages.length; t++) {
      this.pass(stages[t]!, from, off, to);
      from = to;
      off = 0;
      to = to === b ? a : b;
    }
    return from;
  }

  runPanel(a: Real, b: Real, count: number): Real {
    // n = 1: X_0 = x_0 for every signal. Otherwise a → b, b → a, …
    let from = a;
    let to = b;
    for (const st of this.stages) {
      this.panelPass(st, from, to, count);
      const t = from;
      from = to;
      to = t;
    }
    return from;
  }

  private panelPass(st: Stage, c: Real, h: Real, count: number): void {
    switch (st.p) {
      case 4:
        return panelPass4(st, c, h, count);
      case 8:
        return panelPass8(st, c, h, count);
      case 2:
        return panelPass2(st, c, h, count);
      case 3:
        return panelPass3(st, c, h, count);
      case 5:
        return panelPass5(st, c, h, count);
      default:
        return panelPassOdd(st, c, h, count, this.scratch);
    }
  }

  private pass(st: Stage, c: Real, co: number, h: Real): void {
    switch (st.p) {
      case 4:
        return pass4(st, c, co, h);
      case 8:
        return pass8(st, c, co, h);
      case 2:
        return pass2(st, c, co, h);
      case 3:
        return pass3(st, c, co, h);
      case 5:
        return pass5(st, c, co, h);
      default:
        return passOdd(st, c, co, h, this.scratch);
    }
  }
}
