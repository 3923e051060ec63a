/**
 * The missing-view generator: makes an incomplete version of an open dataset by the reference
 * protocol of the incomplete multi-view papers, written as a mask file that the loader applies
 * like any folds file (LoadOptions.mask).
 *
 * Protocol, in words: a fraction p of the samples (rounded to the nearest whole sample, drawn at
 * random from those present in every view) stay complete; every other sample loses a random,
 * non-empty set of its views but keeps at least one (each proper non-empty subset of its views
 * equally likely). Samples already missing views keep their gaps. The draw comes from the seed,
 * so the same p and seed give the same mask.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createRng } from '../core/random';
import { isPresent, type Presence } from '../shared/contract';
import { writeNpz } from '../io/npz-write';

/** The protocol as the app states it to the user. */
export function describeProtocol(fraction: number, views: number): string {
  return (
    `${Math.round(fraction * 100)}% of the samples stay complete (all ${views} views); every other sample ` +
    `loses a random non-empty set of its views and keeps at least one`
  );
}

/** (n, V) presence mask, row-major 0/1, by the protocol above. */
export function generateMask(presence: Presence, fraction: number, seed: number): Uint8Array {
  const { n } = presence;
  const V = presence.views.length;
  if (!(fraction >= 0 && fraction <= 1)) {
    throw new RangeError(`the fraction of complete samples must be from 0 to 1, got ${fraction}`);
  }
  if (V < 2) throw new RangeError('a dataset with one view cannot lose views');
  const mask = new Uint8Array(n * V);
  presence.bits.forEach((bits, v) => {
    for (let i = 0; i < n; i++) if (isPresent(bits, i)) mask[i * V + v] = 1;
  });
  const rng = createRng(seed);
  const complete: number[] = [];
  for (let i = 0; i < n; i++) {
    let all = true;
    for (let v = 0; v < V; v++) if (!mask[i * V + v]) all = false;
    if (all) complete.push(i);
  }
  const keep = new Set(
    rng.shuffle(complete).slice(0, Math.min(complete.length, Math.round(fraction * n))),
  );
  for (let i = 0; i < n; i++) {
    if (keep.has(i)) continue;
    const have: number[] = [];
    for (let v = 0; v < V; v++) if (mask[i * V + v]) have.push(v);
    if (have.length < 2) continue;
    // A uniformly random proper non-empty subset of `have` to keep: bit patterns 1 .. 2^m − 2.
    const pattern = 1 + rng.int(2 ** have.length - 2);
    have.forEach((v, b) => {
      if (!((pattern >> b) & 1)) mask[i * V + v] = 0;
    });
  }
  return mask;
}

/**
 * Writes the mask as `<dir>/<stem>-complete<p>-seed<s>.npz` (variable `mask`, n × V of 0/1),
 * atomically; returns its path.
 */
export async function writeMaskFile(
  dir: string,
  stem: string,
  presence: Presence,
  fraction: number,
  seed: number,
): Promise<string> {
  const mask = generateMask(presence, fraction, seed);
  await mkdir(dir, { recursive: true });
  const path = join(dir, `${stem}-complete${Math.round(fraction * 100)}-seed${seed}.npz`);
  await writeNpz(path, [
    { name: 'mask', shape: [presence.n, presence.views.length], data: Float64Array.from(mask) },
  ]);
  return path;
}
