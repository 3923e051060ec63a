/**
 * The singular-value spectrum a solver reports in its diagnostics, in one of the shapes the
 * solvers use: a flat list (IMVC-CBG's `singularValues`: one bar each), or CGL/CGMVC-NC's
 * `spectrum` of the tensor's Fourier slices ({slices, sigma[s][i], kept[s][i]}: one line per
 * singular-value index, before and after shrinkage).
 */
export type Spectrum =
  | { readonly kind: 'bars'; readonly values: readonly number[] }
  | {
      readonly kind: 'slices';
      readonly slices: readonly number[];
      /** sigma[i][k]: the i-th singular value at slice k; kept likewise (after shrinkage). */
      readonly sigma: readonly (readonly number[])[];
      readonly kept: readonly (readonly number[])[] | null;
    };

const isNumbers = (v: unknown): v is number[] =>
  Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'number');
const isMatrix = (v: unknown): v is number[][] =>
  Array.isArray(v) && v.length > 0 && v.every(isNumbers);

/** Transposes slices × values into values × slices. */
function byIndex(m: readonly (readonly number[])[]): number[][] {
  const width = Math.max(...m.map((r) => r.length));
  return Array.from({ length: width }, (_, i) => m.map((r) => r[i] ?? NaN));
}

export function findSpectrum(diagnostics: Readonly<Record<string, unknown>>): Spectrum | null {
  for (const key of ['spectrum', 'singularValues', 'singular_values', 'sigma']) {
    const v = diagnostics[key];
    if (isNumbers(v)) return { kind: 'bars', values: v };
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      if (isMatrix(o['sigma'])) {
        const sigma = o['sigma'];
        const slices = isNumbers(o['slices']) ? o['slices'] : sigma.map((_, s) => s);
        return {
          kind: 'slices',
          slices,
          sigma: byIndex(sigma),
          kept: isMatrix(o['kept']) ? byIndex(o['kept']) : null,
        };
      }
    }
  }
  return null;
}
