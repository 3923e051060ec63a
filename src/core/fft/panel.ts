/**
 * The passes of `kernels.ts` on a panel: `count` signals of one length transformed together,
 * stored element-interleaved, complex element j of signal b at
 * (v[2(j·count + b)], v[2(j·count + b) + 1]) — the layout of `count` adjacent columns of a
 * row-major matrix, e.g. CGL's F̄_v (n × c).
 *
 * Each butterfly of `kernels.ts` (same legs, same twiddles, same operations in the same order,
 * so every signal gets the bits the single-signal kernels give it) becomes a loop over the
 * `count` signals: the twiddles and the leg offsets are loaded once per butterfly position and
 * reused by every signal, and every read and write is a unit-stride run of 2·count values.
 * Measured on HW's T-step shapes (core length 1000 = 8·5·5·5, 60 signals; shared machine), the
 * radix-8 and radix-5 panel passes take 2.7–4.3 ns per point against 5–8 ns for one signal.
 *
 * A pass of radix p reads cc(i, j, k) = c[2·count·(i + ido·(j + p·k)) + 2b] and writes
 * ch(i, k, m) = h[2·count·(i + ido·(k + l1·m)) + 2b] (see `kernels.ts`).
 */
import type { Real } from './core';
import type { Stage } from './kernels';

/** h[o] = y·ω with ω = (wr, −wi), or h[o] = y when not `twiddled` (as `kernels.ts`' put). */
function put(
  h: Real,
  o: number,
  yr: number,
  yi: number,
  wr: number,
  wi: number,
  twiddled: boolean,
): void {
  if (twiddled) {
    h[o] = yr * wr + yi * wi;
    h[o + 1] = yi * wr - yr * wi;
  } else {
    h[o] = yr;
    h[o + 1] = yi;
  }
}

/** Twiddle `t` of a stage, or 1 (cos 0) / 0 (sin 0) past the table when ido = 1. */
const twr = (tw: Real, t: number, on: boolean): number => (on ? tw[t]! : 1);
const twi = (tw: Real, t: number, on: boolean): number => (on ? tw[t + 1]! : 0);

export function panelPass2(st: Stage, c: Real, h: Real, count: number): void {
  const { ido, l1, tw } = st;
  const w = 2 * count;
  const s = w * ido;
  const os = s * l1;
  const on = ido > 1;
  for (let k = 0; k < l1; k++) {
    for (let i = 0; i < ido; i++) {
      const a0 = w * (i + 2 * ido * k);
      const o0 = w * (i + ido * k);
      const w1r = twr(tw, 2 * i, on);
      const w1i = twi(tw, 2 * i, on);
      for (let b = 0; b < w; b += 2) {
        const a = a0 + b;
        const o = o0 + b;
        const x0r = c[a]!;
        const x0i = c[a + 1]!;
        const x1r = c[a + s]!;
        const x1i = c[a + s + 1]!;
        h[o] = x0r + x1r;
        h[o + 1] = x0i + x1i;
        put(h, o + os, x0r - x1r, x0i - x1i, w1r, w1i, on);
      }
    }
  }
}

const SIN60 = Math.sqrt(3) / 2;

export function panelPass3(st: Stage, c: Real, h: Real, count: number): void {
  const { ido, l1, tw } = st;
  const w = 2 * count;
  const s = w * ido;
  const os = s * l1;
  const on = ido > 1;
  for (let k = 0; k < l1; k++) {
    for (let i = 0; i < ido; i++) {
      const a0 = w * (i + 3 * ido * k);
      const o0 = w * (i + ido * k);
      const t = 4 * i;
      const w1r = twr(tw, t, on);
      const w1i = twi(tw, t, on);
      const w2r = twr(tw, t + 2, on);
      const w2i = twi(tw, t + 2, on);
      for (let b = 0; b < w; b += 2) {
        const a = a0 + b;
        const o = o0 + b;
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
        put(h, o + os, ar + di, ai - dr, w1r, w1i, on);
        put(h, o + 2 * os, ar - di, ai + dr, w2r, w2i, on);
      }
    }
  }
}

export function panelPass4(st: Stage, c: Real, h: Real, count: number): void {
  const { ido, l1, tw } = st;
  const w = 2 * count;
  const s = w * ido;
  const os = s * l1;
  const on = ido > 1;
  for (let k = 0; k < l1; k++) {
    for (let i = 0; i < ido; i++) {
      const a0 = w * (i + 4 * ido * k);
      const o0 = w * (i + ido * k);
      const t = 6 * i;
      const w1r = twr(tw, t, on);
      const w1i = twi(tw, t, on);
      const w2r = twr(tw, t + 2, on);
      const w2i = twi(tw, t + 2, on);
      const w3r = twr(tw, t + 4, on);
      const w3i = twi(tw, t + 4, on);
      for (let b = 0; b < w; b += 2) {
        const a = a0 + b;
        const o = o0 + b;
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
        put(h, o + os, t1r + t3i, t1i - t3r, w1r, w1i, on);
        put(h, o + 2 * os, t0r - t2r, t0i - t2i, w2r, w2i, on);
        put(h, o + 3 * os, t1r - t3i, t1i + t3r, w3r, w3i, on);
      }
    }
  }
}

const C1 = Math.cos((2 * Math.PI) / 5);
const C2 = Math.cos((4 * Math.PI) / 5);
const S1 = Math.sin((2 * Math.PI) / 5);
const S2 = Math.sin((4 * Math.PI) / 5);

export function panelPass5(st: Stage, c: Real, h: Real, count: number): void {
  const { ido, l1, tw } = st;
  const w = 2 * count;
  const s = w * ido;
  const os = s * l1;
  const on = ido > 1;
  for (let k = 0; k < l1; k++) {
    for (let i = 0; i < ido; i++) {
      const a0 = w * (i + 5 * ido * k);
      const o0 = w * (i + ido * k);
      const t = 8 * i;
      const w1r = twr(tw, t, on);
      const w1i = twi(tw, t, on);
      const w2r = twr(tw, t + 2, on);
      const w2i = twi(tw, t + 2, on);
      const w3r = twr(tw, t + 4, on);
      const w3i = twi(tw, t + 4, on);
      const w4r = twr(tw, t + 6, on);
      const w4i = twi(tw, t + 6, on);
      for (let b = 0; b < w; b += 2) {
        const a = a0 + b;
        const o = o0 + b;
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
        put(h, o + os, a1r + b1i, a1i - b1r, w1r, w1i, on);
        put(h, o + 2 * os, a2r + b2i, a2i - b2r, w2r, w2i, on);
        put(h, o + 3 * os, a2r - b2i, a2i + b2r, w3r, w3i, on);
        put(h, o + 4 * os, a1r - b1i, a1i + b1r, w4r, w4i, on);
      }
    }
  }
}

const R = Math.SQRT1_2;

export function panelPass8(st: Stage, c: Real, h: Real, count: number): void {
  const { ido, l1, tw } = st;
  const w = 2 * count;
  const s = w * ido;
  const os = s * l1;
  const on = ido > 1;
  for (let k = 0; k < l1; k++) {
    for (let i = 0; i < ido; i++) {
      const a0 = w * (i + 8 * ido * k);
      const o0 = w * (i + ido * k);
      const t = 14 * i;
      const w1r = twr(tw, t, on);
      const w1i = twi(tw, t, on);
      const w2r = twr(tw, t + 2, on);
      const w2i = twi(tw, t + 2, on);
      const w3r = twr(tw, t + 4, on);
      const w3i = twi(tw, t + 4, on);
      const w4r = twr(tw, t + 6, on);
      const w4i = twi(tw, t + 6, on);
      const w5r = twr(tw, t + 8, on);
      const w5i = twi(tw, t + 8, on);
      const w6r = twr(tw, t + 10, on);
      const w6i = twi(tw, t + 10, on);
      const w7r = twr(tw, t + 12, on);
      const w7i = twi(tw, t + 12, on);
      for (let b = 0; b < w; b += 2) {
        const a = a0 + b;
        const o = o0 + b;
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
        const a0r = x0r + x4r;
        const a0i = x0i + x4i;
        const a1r = x1r + x5r;
        const a1i = x1i + x5i;
        const a2r = x2r + x6r;
        const a2i = x2i + x6i;
        const a3r = x3r + x7r;
        const a3i = x3i + x7i;
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
        put(h, o + 2 * os, t1r + t3i, t1i - t3r, w2r, w2i, on);
        put(h, o + 4 * os, t0r - t2r, t0i - t2i, w4r, w4i, on);
        put(h, o + 6 * os, t1r - t3i, t1i + t3r, w6r, w6i, on);
        t0r = b0r + b2r;
        t0i = b0i + b2i;
        t1r = b0r - b2r;
        t1i = b0i - b2i;
        t2r = b1r + b3r;
        t2i = b1i + b3i;
        t3r = b1r - b3r;
        t3i = b1i - b3i;
        put(h, o + os, t0r + t2r, t0i + t2i, w1r, w1i, on);
        put(h, o + 3 * os, t1r + t3i, t1i - t3r, w3r, w3i, on);
        put(h, o + 5 * os, t0r - t2r, t0i - t2i, w5r, w5i, on);
        put(h, o + 7 * os, t1r - t3i, t1i + t3r, w7r, w7i, on);
      }
    }
  }
}

/**
 * Any odd p (`kernels.ts`' passOdd), signal by signal within each butterfly position: `scr`
 * holds one signal's σ and δ (length ≥ 4h).
 */
export function panelPassOdd(st: Stage, c: Real, h: Real, count: number, scr: Real): void {
  const { p, ido, l1, tw, trig } = st;
  const half = (p - 1) >> 1;
  const w = 2 * count;
  const s = w * ido;
  const os = s * l1;
  const on = ido > 1;
  for (let k = 0; k < l1; k++) {
    for (let i = 0; i < ido; i++) {
      const a0 = w * (i + p * ido * k);
      const o0 = w * (i + ido * k);
      const t = 2 * (p - 1) * i;
      for (let b = 0; b < w; b += 2) {
        const a = a0 + b;
        const o = o0 + b;
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
          const t1 = t + 2 * (m - 1);
          const t2 = t + 2 * (p - m - 1);
          put(h, o + m * os, ar + bi, ai - br, twr(tw, t1, on), twi(tw, t1, on), on);
          put(h, o + (p - m) * os, ar - bi, ai + br, twr(tw, t2, on), twi(tw, t2, on), on);
        }
      }
    }
  }
}
