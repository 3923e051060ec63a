/**
 * `mvstudio synth`: writes a seeded synthetic multi-view dataset (core/synth.ts: a Gaussian
 * mixture seen through random projections, with the IMVC-CBG reference's missing-view
 * protocol) as an .npz archive that every loader here and numpy.load read: views X1..XV as
 * (n, d_v) float64 with all-NaN rows for missing samples, labels Y (n,) int32 in 1..k.
 * Exit 0 on success, 2 on bad input.
 */
import { parseArgs } from 'node:util';
import { summarize, type MultiViewDataset } from '../core/dataset';
import { synthesize, type SynthOptions } from '../core/synth';
import { writeNpz, type NpzMember } from '../io/npz-write';
import { DEFAULT_SEED } from '../shared/defaults';
import { UsageError } from './errors';
import { formatSummary } from './info';

const OPTIONS = {
  n: { type: 'string' },
  k: { type: 'string' },
  dims: { type: 'string' },
  complete: { type: 'string' },
  separation: { type: 'string' },
  noise: { type: 'string' },
  latent: { type: 'string' },
  seed: { type: 'string' },
  out: { type: 'string' },
  json: { type: 'boolean' },
} as const;

/** A number flag, or a UsageError naming it. */
function num(name: string, raw: string | undefined, fallback?: number): number {
  if (raw === undefined) {
    if (fallback === undefined) throw new UsageError(`synth needs --${name}`);
    return fallback;
  }
  const v = Number(raw.trim());
  if (raw.trim() === '' || !Number.isFinite(v)) {
    throw new UsageError(`--${name} must be a number, got '${raw}'`);
  }
  return v;
}

/** The .npz members of a dataset: X1..XV (n, d_v) with NaN rows where missing, Y in 1..k. */
export function npzMembers(ds: MultiViewDataset): NpzMember[] {
  const members: NpzMember[] = ds.views.map((view, v) => {
    const { d, present } = view;
    const full = new Float64Array(ds.n * d).fill(NaN);
    const values = view.values;
    if (values.kind !== 'dense') throw new Error('npzMembers: dense views only');
    for (let r = 0; r < present.length; r++) {
      full.set(values.data.subarray(r * d, (r + 1) * d), present[r]! * d);
    }
    return { name: `X${v + 1}`, shape: [ds.n, d], data: full };
  });
  if (ds.labels) {
    members.push({
      name: 'Y',
      shape: [ds.n],
      data: Int32Array.from(ds.labels.codes, (c) => c + 1),
    });
  }
  return members;
}

export async function runSynth(argv: string[]): Promise<number> {
  try {
    let parsed;
    try {
      parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: false, strict: true });
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    const v = parsed.values;
    if (!v.out) throw new UsageError('synth needs --out <file.npz>');
    if (!v.out.endsWith('.npz')) throw new UsageError(`--out must end in .npz, got '${v.out}'`);
    if (!v.dims) throw new UsageError('synth needs --dims d1,d2,... (one feature count per view)');
    const dims = v.dims.split(',').map((x) => num('dims', x));
    const options: SynthOptions = {
      n: num('n', v.n),
      k: num('k', v.k),
      dims,
      completeFraction: num('complete', v.complete, 1),
      seed: num('seed', v.seed, DEFAULT_SEED),
      ...(v.separation !== undefined && { separation: num('separation', v.separation) }),
      ...(v.noise !== undefined && { noise: num('noise', v.noise) }),
      ...(v.latent !== undefined && { latent: num('latent', v.latent) }),
    };
    const ds = synthesize(options);
    await writeNpz(v.out, npzMembers(ds));
    const summary = { ...summarize(ds), file: v.out };
    if (v.json) process.stdout.write(JSON.stringify(summary, null, 2) + '\n');
    else process.stdout.write(formatSummary(summary));
    return 0;
  } catch (e) {
    if (e instanceof UsageError || e instanceof RangeError) {
      process.stderr.write(`mvstudio synth: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}
