/**
 * A seeded generator of multi-view Gaussian-mixture data with missing views, for scaling runs,
 * tests and demos (`mvstudio synth`).
 *
 * Model (all draws from one seeded stream, in this order):
 *   1. classes: c_i = i mod k for i < n, then shuffled (Fisher–Yates), so every class has
 *      ⌊n/k⌋ or ⌈n/k⌉ samples;
 *   2. centres μ_c ∈ ℝ^r (r = latent dimension, default k): μ_c = separation·(e_c + g_c/2)
 *      with g_c standard normal in ℝ^r (for c ≥ r the unit vector is e_{c mod r});
 *   3. latent points z_i = μ_{c_i} + ε_i, ε_i ~ N(0, I_r);
 *   4. per view v: a projection A_v (d_v × r) with N(0, 1/r) entries; x_{v,i} = A_v·z_i +
 *      noise·η_{v,i}, η ~ N(0, I_{d_v}), for the samples present in v only;
 *   5. missing views, the IMVC-CBG reference protocol: round(p·n) samples, chosen at random,
 *      are present in every view ("complete", p = completeFraction); each other sample misses
 *      u views, u uniform on 1..V−1, the views chosen at random. V = 1 needs p = 1.
 * Views are dense, (n_v, d_v) over their present samples; labels are the classes.
 * Cost O(Σ_v n_v·d_v·r) time (one GEMM per view) and the data's own memory.
 */
import type { Decision, MultiViewDataset, View } from './dataset';
import { makeLabels } from './dataset';
import { matmulTB } from './linalg/kernels';
import type { Mat } from './linalg/types';
import { createRng } from './random';

export interface SynthOptions {
  /** Samples, ≥ k. */
  readonly n: number;
  /** Classes, ≥ 1. */
  readonly k: number;
  /** d_v of each view (V = dims.length ≥ 1), each ≥ 1. */
  readonly dims: readonly number[];
  /** Fraction p of samples present in every view, 0..1 (1 = no missing views). */
  readonly completeFraction: number;
  /** Distance scale between class centres in the latent space; default 3. */
  readonly separation?: number;
  /** Standard deviation of each view's feature noise; default 1. */
  readonly noise?: number;
  /** Latent dimension r; default k. */
  readonly latent?: number;
  readonly seed: number;
}

/** Largest n·Σ_v d_v the generator will produce (4e8 doubles = 3.2 GB). */
export const MAX_SYNTH_VALUES = 4e8;

/** Checks the options; throws a RangeError naming the option and what was expected. */
function check(o: SynthOptions): void {
  const int = (name: string, v: number, min: number): void => {
    if (!Number.isInteger(v) || v < min) {
      throw new RangeError(`synth: ${name} must be a whole number of at least ${min}, got ${v}`);
    }
  };
  int('n', o.n, 1);
  int('k', o.k, 1);
  if (o.k > o.n) throw new RangeError(`synth: k = ${o.k} classes exceeds n = ${o.n} samples`);
  if (o.dims.length === 0) throw new RangeError('synth: dims must list at least one view');
  o.dims.forEach((d, v) => int(`dims[${v}] (view ${v + 1})`, d, 1));
  if (!(o.completeFraction >= 0 && o.completeFraction <= 1)) {
    throw new RangeError(`synth: completeFraction must be from 0 to 1, got ${o.completeFraction}`);
  }
  if (o.dims.length === 1 && o.completeFraction < 1) {
    throw new RangeError(
      'synth: with one view every sample is complete: completeFraction must be 1',
    );
  }
  if (o.latent !== undefined) int('latent', o.latent, 1);
  for (const [name, v] of [
    ['separation', o.separation],
    ['noise', o.noise],
  ] as const) {
    if (v !== undefined && !(Number.isFinite(v) && v >= 0)) {
      throw new RangeError(`synth: ${name} must be a finite number ≥ 0, got ${v}`);
    }
  }
  if (!Number.isSafeInteger(o.seed) || o.seed < 0) {
    throw new RangeError(`synth: seed must be a non-negative whole number, got ${o.seed}`);
  }
  const total = o.dims.reduce((s, d) => s + d, 0) * o.n;
  if (total > MAX_SYNTH_VALUES) {
    throw new RangeError(
      `synth: n·Σd = ${total} values exceeds the limit of ${MAX_SYNTH_VALUES} (3.2 GB)`,
    );
  }
}

/**
 * presence[v][i] = 1 when sample i is in view v, by the reference protocol (step 5 above).
 * Returns the per-view sorted present lists.
 */
function missingPattern(
  n: number,
  V: number,
  p: number,
  rng: ReturnType<typeof createRng>,
): Int32Array[] {
  const order = Int32Array.from({ length: n }, (_, i) => i);
  rng.shuffle(order);
  const complete = Math.round(p * n);
  const present = Array.from({ length: V }, () => new Uint8Array(n));
  const views = Int32Array.from({ length: V }, (_, v) => v);
  for (let t = 0; t < n; t++) {
    const i = order[t]!;
    if (t < complete) {
      for (let v = 0; v < V; v++) present[v]![i] = 1;
      continue;
    }
    const missing = 1 + rng.int(V - 1);
    rng.shuffle(views);
    for (let s = missing; s < V; s++) present[views[s]!]![i] = 1;
  }
  return present.map((mask) => {
    let c = 0;
    for (let i = 0; i < n; i++) c += mask[i]!;
    const idx = new Int32Array(c);
    let r = 0;
    for (let i = 0; i < n; i++) if (mask[i]) idx[r++] = i;
    return idx;
  });
}

/** A synthetic dataset; see the file comment for the model. Deterministic in `seed`. */
export function synthesize(o: SynthOptions): MultiViewDataset {
  check(o);
  const { n, k, dims, completeFraction: p, seed } = o;
  const r = o.latent ?? k;
  const separation = o.separation ?? 3;
  const noise = o.noise ?? 1;
  const V = dims.length;
  const rng = createRng(seed);

  const classes = Int32Array.from({ length: n }, (_, i) => i % k);
  rng.shuffle(classes);
  const centres = new Float64Array(k * r);
  for (let c = 0; c < k; c++) {
    for (let a = 0; a < r; a++) {
      centres[c * r + a] = separation * ((a === c % r ? 1 : 0) + rng.normal() / 2);
    }
  }
  const Z = new Float64Array(n * r);
  for (let i = 0; i < n; i++) {
    const c = classes[i]!;
    for (let a = 0; a < r; a++) Z[i * r + a] = centres[c * r + a]! + rng.normal();
  }
  const presentLists = missingPattern(n, V, p, rng);

  const views: View[] = dims.map((d, v) => {
    const A: Mat = { rows: d, cols: r, data: new Float64Array(d * r) };
    const sd = 1 / Math.sqrt(r);
    for (let i = 0; i < d * r; i++) A.data[i] = sd * rng.normal();
    const present = presentLists[v]!;
    const nv = present.length;
    const Zv: Mat = { rows: nv, cols: r, data: new Float64Array(nv * r) };
    for (let t = 0; t < nv; t++)
      Zv.data.set(Z.subarray(present[t]! * r, (present[t]! + 1) * r), t * r);
    const X = matmulTB(Zv, A); // (n_v, d) = Z_v·A_vᵀ
    if (noise > 0) for (let i = 0; i < X.data.length; i++) X.data[i]! += noise * rng.normal();
    return {
      name: `view${v + 1}`,
      d,
      present,
      values: { kind: 'dense', rows: nv, cols: d, data: X.data },
    };
  });

  const complete = Math.round(p * n);
  const decisions: Decision[] = [
    {
      topic: 'generator',
      choice:
        `Gaussian mixture: n = ${n}, k = ${k} classes, latent dimension ${r}, separation ` +
        `${separation}, noise ${noise}, views d = ${dims.join(', ')}, seed ${seed}`,
      reason: 'synthetic data (core/synth.ts)',
      overridden: false,
    },
    {
      topic: 'missingness',
      choice:
        `${complete} of ${n} samples (p = ${p}) present in all ${V} views; each other sample ` +
        `misses 1..${Math.max(1, V - 1)} views at random`,
      reason: 'the IMVC-CBG reference protocol for incomplete views',
      overridden: false,
    },
  ];
  return {
    n,
    views,
    labels: makeLabels('class', classes),
    sampleIds: null,
    provenance: {
      file: `synthetic(n=${n},k=${k},dims=${dims.join('+')},p=${p},seed=${seed})`,
      format: 'synthetic',
      variables: views.map((v) => v.name),
      orientation: views.map(() => 'n x d' as const),
      missingness: complete === n ? 'complete' : 'natural',
      decisions,
      warnings: [],
    },
  };
}
