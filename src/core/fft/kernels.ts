/**
 * The butterflies and passes of the mixed-radix transform (`mixed-radix.ts` has the
 * recursion). Buffers are interleaved complex: element j is (v[2j], v[2j + 1]).
 *
 * A pass of radix p reads p legs cc(i, j, k) = c[co + 2(i + ido·(j + p·k))] and writes
 * ch(i, k, m) = h[2(i + ido·(k + l1·m))] = ω^{m·i·l1}_n · Σ_j cc(i, j, k)·ω_p^{jm}
 * (i < ido, k < l1, j, m < p). Twiddles: tw[2((p − 1)·i + m − 1) + {0, 1}] = (cos, sin) of
 * 2π·m·i·l1/n, so multiplying by ω = (cos, −sin) is y·ω = (yr·c + yi·s, yi·c − yr·s).
 *
 * Memory access: the inner loop runs over i, so each pass reads p unit-stride streams and
 * writes p unit-stride streams. The last pass has ido = 1: its twiddles are all 1 and `put`
 * skips the multiplication (a loop-invariant branch).
 *
 * Each butterfly is written inline in its pass rather than as a helper: V8 does not inline
 * functions over ~460 bytes of bytecode (the radix-5 and radix-8 butterflies are larger), and a
 * call per butterfly cost ~25 % (measured).
 */
import type { Real } from './core';

/** A pass of the recursion with its twiddle table (see the file comment). */
export interface Stage {
  readonly p: number;
  readonly l1: number;
  readonly ido: number;
  readonly tw: Real;
  /** Generic odd radix only: (cos, sin)(2π·j·m/p) at 2((m − 1)·h + j − 1), h = (p − 1)/2. */
  readonly trig: Real;
}

/** h[o] = y·ω with ω = (tw[t], −tw[t + 1]), or h[o] = y when not `twiddled`. */
function put(
  h: Real,
  o: number,
  yr: number,
  yi: number,
  tw: Real,
  t: number,
  twiddled: boolean,
): void {
  if (twiddled) {
    const wr = tw[t]!;
    const wi = tw[t + 1]!;
    h[o] = yr * wr + yi * wi;
    h[o + 1] = yi * wr - yr * wi;
  } else {
    h[o] = yr;
    h[o + 1] = yi;
  }
}

// ---------------------------------------------------------------------------------- radix 2

export function pass2(st: Stage, c: Real, co: number, h: Real): void {
  const { ido, l1, tw } = st;
  const s = 2 * ido;
  const os = 2 * ido * l1;
  const twiddled = ido > 1;
  for (let k = 0; k < l1; k++) {
    for (let i = 0; i < ido; i++) {
      const a = co + 2 * (i + 2 * ido * k);
      const o = 2 * (i + ido * k);
      const x0r = c[a]!;
      const x0i = c[a + 1]!;
      const x1r = c[a + s]!;
      const x1i = c[a + s + 1]!;
      h[o] = x0r + x1r;
      h[o + 1] = x0i + x1i;
      put(h, o + os, x0r - x1r, x0i - x1i, tw, 2 * i, twiddled);
    }
  }
}

// ---------------------------------------------------------------------------------- radix 3

const SIN60 = Math.sqrt(3) / 2;

/** y_0 = x0 + σ, y_{1,2} = x0 − σ/2 ∓ i·(√3/2)·δ, with σ = x1 + x2, δ = x1 − x2. */
export function pass3(st: Stage, c: Real, co: number, h: Real): void {
  const { ido, l1, tw } = st;
  const s = 2 * ido;
  const os = 2 * ido * l1;
  const twiddled = ido > 1;
  for (let k = 0; k < l1; k++) {
    for (let i = 0; i < ido; i++) {
      const a = co + 2 * (i + 3 * ido * k);
      const o = 2 * (i + ido * k);
      const t = 4 * i;
      const x0r = c[a]!;
      const x0i = c[a + 1]!;
      const x1r = c[a + s]!;
      const x1i = c[a + s + 1]!;
      const x2r = c[a + 2 * s]!;
      const x2i = c[a + 2 * s + 1]!;
      const sr = x1r + x2r;
      const si = x1i + x2i;
      const dr = SIN60 * (x1r - x2r);
      const di = SIN60 * (x1i - x2i);
      const ar = x0r - 0.5 * sr;
      const ai = x0i - 0.5 * si;
      h[o] = x0r + sr;
      h[o + 1] = x0i + si;
      put(h, o + os, ar + di, ai - dr, tw, t, twiddled);
      put(h, o + 2 * os, ar - di, ai + dr, tw, t + 2, twiddled);
    }
  }
}

// ---------------------------------------------------------------------------------- radix 4

/** With t0,1 = x0 ± x2, t2,3 = x1 ± x3: y_0 = t0 + t2, y_1 = t1 − i·t3, y_2 = t0 − t2, y_3 = t1 + i·t3. */
export function pass4(st: Stage, c: Real, co: number, h: Real): void {
  const { ido, l1, tw } = st;
  const s = 2 * ido;
  const os = 2 * ido * l1;
  const twiddled = ido > 1;
  for (let k = 0; k < l1; k++) {
    for (let i = 0; i < ido; i++) {
      const a = co + 2 * (i + 4 * ido * k);
      const o = 2 * (i + ido * k);
      const t = 6 * i;
      const x0r = c[a]!;
      const x0i = c[a + 1]!;
      const x1r = c[a + s]!;
      const x1i = c[a + s + 1]!;
      const x2r = c[a + 2 * s]!;
      const x2i = c[a + 2 * s + 1]!;
      const x3r = c[a + 3 * s]!;
      const x3i = c[a + 3 * s + 1]!;
      const t0r = x0r + x2r;
      const t0i = x0i + x2i;
      const t1r = x0r - x2r;
      const t1i = x0i - x2i;
      const t2r = x1r + x3r;
      const t2i = x1i + x3i;
      const t3r = x1r - x3r;
      const t3i = x1i - x3i;
      h[o] = t0r + t2r;
      h[o + 1] = t0i + t2i;
      put(h, o + os, t1r + t3i, t1i - t3r, tw, t, twiddled);
      put(h, o + 2 * os, t0r - t2r, t0i - t2i, tw, t + 2, twiddled);
      put(h, o + 3 * os, t1r - t3i, t1i + t3r, tw, t + 4, twiddled);
    }
  }
}

// ---------------------------------------------------------------------------------- radix 5

const C1 = Math.cos((2 * Math.PI) / 5);
const C2 = Math.cos((4 * Math.PI) / 5);
const S1 = Math.sin((2 * Math.PI) / 5);
const S2 = Math.sin((4 * Math.PI) / 5);

/**
 * Pairing j with 5 − j, σ_j = x_j + x_{5−j}, δ_j = x_j − x_{5−j}:
 * y_{1,4} = x0 + C1·σ1 + C2·σ2 ∓ i·(S1·δ1 + S2·δ2), y_{2,3} = x0 + C2·σ1 + C1·σ2 ∓ i·(S2·δ1 − S1·δ2),
 * with C_m, S_m = cos, sin(2πm/5).
 */
export function pass5(st: Stage, c: Real, co: number, h: Real): void {
  const { ido, l1, tw } = st;
  const s = 2 * ido;
  const os = 2 * ido * l1;
  const twiddled = ido > 1;
  for (let k = 0; k < l1; k++) {
    for (let i = 0; i < ido; i++) {
      const a = co + 2 * (i + 5 * ido * k);
      const o = 2 * (i + ido * k);
      const t = 8 * i;
      const x0r = c[a]!;
      const x0i = c[a + 1]!;
      const x1r = c[a + s]!;
      const x1i = c[a + s + 1]!;
      const x2r = c[a + 2 * s]!;
      const x2i = c[a + 2 * s + 1]!;
      const x3r = c[a + 3 * s]!;
      const x3i = c[a + 3 * s + 1]!;
      const x4r = c[a + 4 * s]!;
      const x4i = c[a + 4 * s + 1]!;
      const s1r = x1r + x4r;
      const s1i = x1i + x4i;
      const d1r = x1r - x4r;
      const d1i = x1i - x4i;
      const s2r = x2r + x3r;
      const s2i = x2i + x3i;
      const d2r = x2r - x3r;
      const d2i = x2i - x3i;
      h[o] = x0r + s1r + s2r;
      h[o + 1] = x0i + s1i + s2i;
      const a1r = x0r + C1 * s1r + C2 * s2r;
      const a1i = x0i + C1 * s1i + C2 * s2i;
      const b1r = S1 * d1r + S2 * d2r;
      const b1i = S1 * d1i + S2 * d2i;
      const a2r = x0r + C2 * s1r + C1 * s2r;
      const a2i = x0i + C2 * s1i + C1 * s2i;
      const b2r = S2 * d1r - S1 * d2r;
      const b2i = S2 * d1i - S1 * d2i;
      put(h, o + os, a1r + b1i, a1i - b1r, tw, t, twiddled);
      put(h, o + 2 * os, a2r + b2i, a2i - b2r, tw, t + 2, twiddled);
      put(h, o + 3 * os, a2r - b2i, a2i + b2r, tw, t + 4, twiddled);
      put(h, o + 4 * os, a1r - b1i, a1i + b1r, tw, t + 6, twiddled);
    }
  }
}

// ---------------------------------------------------------------------------------- radix 8

const R = Math.SQRT1_2;

/**
 * Two radix-4 butterflies: α_j = x_j + x_{j+4}, β_j = (x_j − x_{j+4})·ω_8^j (j < 4), then
 * y_{2m} = DFT_4(α)_m and y_{2m+1} = DFT_4(β)_m.
 */
export function pass8(st: Stage, c: Real, co: number, h: Real): void {
  const { ido, l1, tw } = st;
  const s = 2 * ido;
  const os = 2 * ido * l1;
  const twiddled = ido > 1;
  for (let k = 0; k < l1; k++) {
    for (let i = 0; i < ido; i++) {
      const a = co + 2 * (i + 8 * ido * k);
      const o = 2 * (i + ido * k);
      const t = 14 * i;
      const x0r = c[a]!;
      const x0i = c[a + 1]!;
      const x1r = c[a + s]!;
      const x1i = c[a + s + 1]!;
      const x2r = c[a + 2 * s]!;
      const x2i = c[a + 2 * s + 1]!;
      const x3r = c[a + 3 * s]!;
      const x3i = c[a + 3 * s + 1]!;
      const x4r = c[a + 4 * s]!;
      const x4i = c[a + 4 * s + 1]!;
      const x5r = c[a + 5 * s]!;
      const x5i = c[a + 5 * s + 1]!;
      const x6r = c[a + 6 * s]!;
      const x6i = c[a + 6 * s + 1]!;
      const x7r = c[a + 7 * s]!;
      const x7i = c[a + 7 * s + 1]!;
      // α (even outputs)
      const a0r = x0r + x4r;
      const a0i = x0i + x4i;
      const a1r = x1r + x5r;
      const a1i = x1i + x5i;
      const a2r = x2r + x6r;
      const a2i = x2i + x6i;
      const a3r = x3r + x7r;
      const a3i = x3i + x7i;
      // β (odd outputs): β_1 = δ_1·(1 − i)/√2, β_2 = δ_2·(−i), β_3 = δ_3·(−1 − i)/√2.
      const b0r = x0r - x4r;
      const b0i = x0i - x4i;
      const d1r = x1r - x5r;
      const d1i = x1i - x5i;
      const b1r = R * (d1r + d1i);
      const b1i = R * (d1i - d1r);
      const b2r = x2i - x6i;
      const b2i = x6r - x2r;
      const d3r = x3r - x7r;
      const d3i = x3i - x7i;
      const b3r = R * (d3i - d3r);
      const b3i = -R * (d3r + d3i);
      // Radix 4 on α → y_0, y_2, y_4, y_6.
      let t0r = a0r + a2r;
      let t0i = a0i + a2i;
      let t1r = a0r - a2r;
      let t1i = a0i - a2i;
      let t2r = a1r + a3r;
      let t2i = a1i + a3i;
      let t3r = a1r - a3r;
      let t3i = a1i - a3i;
      h[o] = t0r + t2r;
      h[o + 1] = t0i + t2i;
      put(h, o + 2 * os, t1r + t3i, t1i - t3r, tw, t + 2, twiddled);
      put(h, o + 4 * os, t0r - t2r, t0i - t2i, tw, t + 6, twiddled);
      put(h, o + 6 * os, t1r - t3i, t1i + t3r, tw, t + 10, twiddled);
      // Radix 4 on β → y_1, y_3, y_5, y_7.
      t0r = b0r + b2r;
      t0i = b0i + b2i;
      t1r = b0r - b2r;
      t1i = b0i - b2i;
      t2r = b1r + b3r;
      t2i = b1i + b3i;
      t3r = b1r - b3r;
      t3i = b1i - b3i;
      put(h, o + os, t0r + t2r, t0i + t2i, tw, t, twiddled);
      put(h, o + 3 * os, t1r + t3i, t1i - t3r, tw, t + 4, twiddled);
      put(h, o + 5 * os, t0r - t2r, t0i - t2i, tw, t + 8, twiddled);
      put(h, o + 7 * os, t1r - t3i, t1i + t3r, tw, t + 12, twiddled);
    }
  }
}

// ------------------------------------------------------------------------- generic odd radix

/**
 * Any odd p, pairing j with p − j (h = (p − 1)/2, σ_j = x_j + x_{p−j}, δ_j = x_j − x_{p−j}):
 * y_m, y_{p−m} = x0 + Σ_{j≤h} cos(2πjm/p)·σ_j ∓ i·Σ_{j≤h} sin(2πjm/p)·δ_j. O(p²) per
 * butterfly, half the multiplications of the plain sum. `scr` holds σ and δ (length ≥ 4h).
 */
export function passOdd(st: Stage, c: Real, co: number, h: Real, scr: Real): void {
  const { p, ido, l1, tw, trig } = st;
  const half = (p - 1) >> 1;
  const s = 2 * ido;
  const os = 2 * ido * l1;
  const twiddled = ido > 1;
  for (let k = 0; k < l1; k++) {
    for (let i = 0; i < ido; i++) {
      const a = co + 2 * (i + p * ido * k);
      const o = 2 * (i + ido * k);
      const t = 2 * (p - 1) * i;
      const x0r = c[a]!;
      const x0i = c[a + 1]!;
      let y0r = x0r;
      let y0i = x0i;
      for (let j = 1; j <= half; j++) {
        const u = a + j * s;
        const v = a + (p - j) * s;
        const q = 4 * (j - 1);
        scr[q] = c[u]! + c[v]!;
        scr[q + 1] = c[u + 1]! + c[v + 1]!;
        scr[q + 2] = c[u]! - c[v]!;
        scr[q + 3] = c[u + 1]! - c[v + 1]!;
        y0r += scr[q]!;
        y0i += scr[q + 1]!;
      }
      h[o] = y0r;
      h[o + 1] = y0i;
      for (let m = 1; m <= half; m++) {
        const row = 2 * (m - 1) * half;
        let ar = x0r;
        let ai = x0i;
        let br = 0;
        let bi = 0;
        for (let j = 0; j < half; j++) {
          const cs = trig[row + 2 * j]!;
          const sn = trig[row + 2 * j + 1]!;
          ar += cs * scr[4 * j]!;
          ai += cs * scr[4 * j + 1]!;
          br += sn * scr[4 * j + 2]!;
          bi += sn * scr[4 * j + 3]!;
        }
        put(h, o + m * os, ar + bi, ai - br, tw, t + 2 * (m - 1), twiddled);
        put(h, o + (p - m) * os, ar - bi, ai + br, tw, t + 2 * (p - m - 1), twiddled);
      }
    }
  }
}
