/**
 * Bandwidth of the Gaussian kernel K_ij = exp(−D_ij / h) over squared distances D (n, m), as
 * the rules the reference codes use. Every rule is stated over **all** entries of the D it is
 * given (the zero diagonal of a self-distance matrix included), because that is what the codes
 * average; `h` is the divisor itself, so a rule written as exp(−D / (t·mean D)) is not routed
 * through a square root and back.
 *
 * - `fixed`:         a given σ,                              h = 2σ²
 * - `median`:        σ = scale · median_ij √D_ij             h = 2σ²   (MLRSSC's `opt_sigma`)
 * - `mean`:          σ = scale · mean_ij √D_ij               h = 2σ²   (`constructW`'s heat
 *                                                                     kernel default t)
 * - `meanSquared`:   h = scale · mean_ij D_ij,  σ = √(h/2)             (APMC's `getSim`, scale 4)
 *
 * A median of an even count is the mean of the two middle values (MATLAB and numpy agree).
 */
import { medianInPlace } from '../linalg/median';
import type { Mat } from '../linalg/types';

export type Bandwidth =
  | { readonly rule: 'fixed'; readonly sigma: number }
  | { readonly rule: 'median' | 'mean' | 'meanSquared'; readonly scale?: number };

/** A resolved bandwidth: K = exp(−D / h) with h = 2σ². */
export interface ResolvedBandwidth {
  readonly sigma: number;
  readonly h: number;
}

/** σ and h of `rule` over the squared distances D. O(nm) (the median by selection). */
export function resolveBandwidth(D: Mat, rule: Bandwidth): ResolvedBandwidth {
  const len = D.rows * D.cols;
  const d = D.data.subarray(0, len);
  if (rule.rule === 'fixed') return fromSigma(rule.sigma, 'fixed');
  if (len === 0) throw new RangeError(`resolveBandwidth: no distances for the '${rule.rule}' rule`);
  const scale = rule.scale ?? 1;
  if (!(scale > 0) || !Number.isFinite(scale)) {
    throw new RangeError(`resolveBandwidth: scale = ${scale} must be positive and finite`);
  }
  if (rule.rule === 'meanSquared') {
    const h = scale * mean(d, (x) => x);
    if (!(h > 0)) throw new RangeError('resolveBandwidth: every distance is 0, so h = 0');
    return { sigma: Math.sqrt(h / 2), h };
  }
  const centre = rule.rule === 'mean' ? mean(d, Math.sqrt) : median(d);
  return fromSigma(scale * centre, rule.rule);
}

function fromSigma(sigma: number, rule: string): ResolvedBandwidth {
  if (!(sigma > 0) || !Number.isFinite(sigma)) {
    throw new RangeError(`resolveBandwidth: σ = ${sigma} by the '${rule}' rule is not positive`);
  }
  return { sigma, h: 2 * (sigma * sigma) };
}

function mean(d: Float64Array, f: (x: number) => number): number {
  let s = 0;
  for (let i = 0; i < d.length; i++) s += f(d[i]!);
  return s / d.length;
}

/** Median of √d over all entries (of a copy, by selection). */
function median(d: Float64Array): number {
  const r = new Float64Array(d.length);
  for (let i = 0; i < d.length; i++) r[i] = Math.sqrt(d[i]!);
  return medianInPlace(r);
}
