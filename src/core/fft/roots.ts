/**
 * Roots of unity e^{−2πik/n}, accurate to about one ulp for every k and n.
 *
 * `Math.cos(2 * Math.PI * k / n)` loses accuracy as the angle grows (the rounding of 2πk/n is
 * relative to its size, up to 2π). Here the angle is first reduced to the octant [0, π/4] with
 * exact integer arithmetic on 8k and 8n, so `Math.cos` and `Math.sin` only ever see arguments
 * ≤ π/4. Valid for n < 2^49 (8n stays an exact integer).
 */

/**
 * Writes (cos θ, −sin θ) for θ = 2πk/n, i.e. the forward-transform factor ω_n^k = e^{−2πik/n},
 * into `out[0]`, `out[1]`. Any integer k (reduced modulo n).
 */
export function unitRoot(k: number, n: number, out: Float64Array): void {
  // The angle as a fraction a / (8n) of a full turn, a in [0, 8n).
  let a = 8 * (((k % n) + n) % n);
  const full = 8 * n;
  let sinSign = 1;
  let cosSign = 1;
  let swap = false;
  if (2 * a > full) {
    a = full - a; // θ → 2π − θ: sin changes sign
    sinSign = -1;
  }
  if (a > 2 * n) {
    a = 4 * n - a; // θ → π − θ: cos changes sign
    cosSign = -1;
  }
  if (a > n) {
    a = 2 * n - a; // θ → π/2 − θ: cos and sin swap
    swap = true;
  }
  const theta = (Math.PI * a) / (4 * n); // in [0, π/4]
  const c = Math.cos(theta);
  const s = Math.sin(theta);
  out[0] = cosSign * (swap ? s : c);
  out[1] = -sinSign * (swap ? c : s);
}

/** The table ω_n^{k·step}, k = 0 … count − 1, as split (re, im) arrays. */
export function unitRoots(
  count: number,
  step: number,
  n: number,
): { re: Float64Array; im: Float64Array } {
  const re = new Float64Array(count);
  const im = new Float64Array(count);
  const w = new Float64Array(2);
  for (let k = 0; k < count; k++) {
    unitRoot((k * step) % n, n, w);
    re[k] = w[0]!;
    im[k] = w[1]!;
  }
  return { re, im };
}
