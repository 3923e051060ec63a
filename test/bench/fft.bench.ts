/**
 * FFT throughput beside its anchors (`npm run bench -- fft`).
 *
 * 1. A batch of 12,000 real FFTs of length 2000 (CGL's T-step on HW: the column DFTs of
 *    F̄_v, many times over). Anchor: numpy's `np.fft.rfft` on a 12000 × 2000 array, measured
 *    here when Debian's python3-numpy is installed; toolchain.md quotes numpy 0.1 s and fft.js
 *    (powers of two only) 0.22 s.
 * 2. Complex FFTs of lengths 1000, 2000, 2003 (prime: Bluestein), 4096 in µs per transform,
 *    beside numpy's per-row time on a 1000 × n batch.
 * 3. Columns of a row-major n × c matrix (CGL's layout) through strided plans, transposing
 *    blocks of 8 columns into contiguous scratch first, or all columns on one panel
 *    (`forwardColumns` / `inverseColumns` with a `ColumnWork`), forward and inverse, the panel's
 *    passes in TypeScript and on WebAssembly SIMD (`setPanelBackend`).
 * 4. The mixed-radix / Bluestein threshold: both algorithms on primes around the crossover,
 *    with the cost model's choice (`chooseAlgorithm`).
 * Wall-clock medians after a warm-up; the machine is shared, so figures move by ~±20 %.
 */
import {
  chooseAlgorithm,
  ColumnWork,
  createFftPlan,
  createRealFftPlan,
  irfftColumns,
  rfftBatch,
  rfftColumns,
  setPanelBackend,
  type FftAlgorithm,
  type RealFftPlan,
} from '../../src/core/fft';
import { python, table, timeMs } from './util';

/** Deterministic pseudo-random fill in [−1, 1) (an LCG: fast for 24 M values). */
function fill(a: Float64Array, seed: number): Float64Array {
  let s = seed >>> 0;
  for (let i = 0; i < a.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    a[i] = s / 2 ** 31 - 1;
  }
  return a;
}

/**
 * `timeMs` after running `f` for at least `warmMs` (V8 optimises a kernel only after many
 * calls; a single warm-up call leaves the strided and blocked paths half-compiled).
 */
async function timeWarm(f: () => unknown, runs: number, warmMs = 250): Promise<number> {
  const end = performance.now() + warmMs;
  do f();
  while (performance.now() < end);
  return timeMs(f, runs);
}

const RFFT_COUNT = 12_000;
const RFFT_N = 2000;
const COMPLEX_NS = [1000, 2000, 2003, 4096];

function numpy(): { rfftMs: number; fftUs: Record<string, number> } | null {
  const out = python(`
import json, time, statistics, numpy as np
def med(f, runs):
    f()
    ts = []
    for _ in range(runs):
        t = time.perf_counter(); f(); ts.append(time.perf_counter() - t)
    return statistics.median(ts)
rng = np.random.default_rng(0)
x = rng.standard_normal((${RFFT_COUNT}, ${RFFT_N}))
r = {'rfftMs': med(lambda: np.fft.rfft(x, axis=1), 3) * 1000, 'fftUs': {}}
del x
for n in ${JSON.stringify(COMPLEX_NS)}:
    z = rng.standard_normal((1000, n)) + 1j * rng.standard_normal((1000, n))
    r['fftUs'][str(n)] = med(lambda: np.fft.fft(z, axis=1), 5) * 1e6 / 1000
print(json.dumps(r))
`);
  return out === null ? null : (JSON.parse(out) as ReturnType<typeof numpy>);
}

async function realBatch(np: ReturnType<typeof numpy>): Promise<void> {
  const plan = createRealFftPlan(RFFT_N);
  const x = fill(new Float64Array(RFFT_COUNT * RFFT_N), 1);
  const re = new Float64Array(RFFT_COUNT * plan.bins);
  const im = new Float64Array(RFFT_COUNT * plan.bins);
  const ms = await timeWarm(() => rfftBatch(plan, x, RFFT_COUNT, re, im), 3, 0);
  console.log(`\n${RFFT_COUNT} real FFTs of length ${RFFT_N} (one complex FFT of 1000 each):`);
  console.log(
    table([
      ['', 'mvstudio', 'numpy rfft (here)', 'numpy (toolchain.md)', 'fft.js (toolchain.md)'],
      [
        'batch',
        `${ms.toFixed(0)} ms`,
        np ? `${np.rfftMs.toFixed(0)} ms` : 'n/a (no python3-numpy)',
        '100 ms',
        '220 ms (2048)',
      ],
      [
        'per transform',
        `${((ms / RFFT_COUNT) * 1000).toFixed(1)} µs`,
        np ? `${((np.rfftMs / RFFT_COUNT) * 1000).toFixed(1)} µs` : '',
        '8.3 µs',
        '18 µs',
      ],
    ]),
  );
}

/** µs per forward transform of length n (out of place, so the input stays the same). */
async function complexUs(n: number, algorithm?: FftAlgorithm): Promise<number> {
  const plan = createFftPlan(n, algorithm);
  const re = fill(new Float64Array(n), n);
  const im = fill(new Float64Array(n), n + 1);
  const yRe = new Float64Array(n);
  const yIm = new Float64Array(n);
  const reps = Math.max(4, Math.round(2e6 / (n * Math.log2(n + 1))));
  const ms = await timeWarm(() => {
    for (let r = 0; r < reps; r++) plan.transform(false, re, im, yRe, yIm);
  }, 7);
  return (ms * 1000) / reps;
}

async function complexSizes(np: ReturnType<typeof numpy>): Promise<void> {
  const rows: (string | number)[][] = [['n', 'algorithm', 'radices', 'mvstudio', 'numpy fft']];
  for (const n of COMPLEX_NS) {
    const plan = createFftPlan(n);
    const us = await complexUs(n);
    const ref = np?.fftUs[String(n)];
    rows.push([
      n,
      plan.algorithm,
      plan.factors.join('·'),
      `${us.toFixed(1)} µs`,
      ref === undefined ? 'n/a' : `${ref.toFixed(1)} µs`,
    ]);
  }
  console.log('\nComplex FFT, µs per transform:');
  console.log(table(rows));
}

/**
 * The alternative to strided column transforms: gather blocks of 8 columns (one cache line of
 * each row) into contiguous scratch, transform them as a batch, scatter the bins back.
 */
function blockedColumns(
  plan: RealFftPlan,
  x: Float64Array,
  c: number,
  re: Float64Array,
  im: Float64Array,
  scratch: { x: Float64Array; re: Float64Array; im: Float64Array },
): void {
  const { n, bins } = plan;
  for (let j0 = 0; j0 < c; j0 += 8) {
    const w = Math.min(8, c - j0);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < w; j++) scratch.x[j * n + i] = x[i * c + j0 + j]!;
    }
    rfftBatch(plan, scratch.x, w, scratch.re, scratch.im);
    for (let s = 0; s < bins; s++) {
      for (let j = 0; j < w; j++) {
        re[s * c + j0 + j] = scratch.re[j * bins + s]!;
        im[s * c + j0 + j] = scratch.im[j * bins + s]!;
      }
    }
  }
}

async function columns(): Promise<void> {
  const rows: (string | number)[][] = [
    [
      'n × c',
      'MB',
      'strided (rfftColumns)',
      'blocks of 8',
      'panel: TS',
      'SIMD',
      'inverse: strided',
      'panel: TS',
      'SIMD',
    ],
  ];
  for (const [n, c] of [
    [2000, 10],
    [2000, 60],
    [16000, 40],
    [20000, 40],
    [50000, 20],
    [50000, 40],
  ] as const) {
    const plan = createRealFftPlan(n);
    const x = fill(new Float64Array(n * c), 3);
    const re = new Float64Array(plan.bins * c);
    const im = new Float64Array(plan.bins * c);
    const scratch = {
      x: new Float64Array(8 * n),
      re: new Float64Array(8 * plan.bins),
      im: new Float64Array(8 * plan.bins),
    };
    const strided = await timeWarm(() => rfftColumns(plan, x, c, re, im), 5);
    const blocked = await timeWarm(() => blockedColumns(plan, x, c, re, im, scratch), 5);
    const back = new Float64Array(n * c);
    const inv = await timeWarm(() => irfftColumns(plan, re, im, c, back), 5);
    // The panel with the TypeScript passes, then with the WebAssembly SIMD ones (panel-run.ts).
    const panel: number[] = [];
    const invPanel: number[] = [];
    for (const backend of ['ts', 'wasm'] as const) {
      setPanelBackend(backend);
      const work = new ColumnWork();
      panel.push(await timeWarm(() => plan.forwardColumns(c, x, 0, c, re, im, 0, c, work), 5));
      invPanel.push(
        await timeWarm(() => plan.inverseColumns(c, re, im, 0, c, back, 0, c, work), 5),
      );
    }
    setPanelBackend('wasm');
    rows.push([
      `${n} × ${c}`,
      ((n * c * 8) / 1e6).toFixed(1),
      `${strided.toFixed(2)} ms`,
      `${blocked.toFixed(2)} ms`,
      ...panel.map((t) => `${t.toFixed(2)} ms`),
      `${inv.toFixed(2)} ms`,
      ...invPanel.map((t) => `${t.toFixed(2)} ms`),
    ]);
  }
  console.log(
    '\nReal DFT of the columns of a row-major n × c matrix (CGL: n × c per view, n × Vc for' +
      ' ΔP_v): one column at a time, blocks of 8 through contiguous scratch, all columns on one' +
      ' panel (forwardColumns / inverseColumns with a ColumnWork), its passes in TypeScript' +
      ' or on WebAssembly SIMD (the default where available):',
  );
  console.log(table(rows));
}

async function threshold(): Promise<void> {
  const rows: (string | number)[][] = [['prime n', 'mixed radix', 'Bluestein', 'chosen']];
  for (const n of [61, 97, 127, 131, 257, 521]) {
    const mixed = await complexUs(n, 'mixed-radix');
    const blue = await complexUs(n, 'bluestein');
    rows.push([n, `${mixed.toFixed(1)} µs`, `${blue.toFixed(1)} µs`, chooseAlgorithm(n)]);
  }
  console.log('\nMixed radix (generic O(p²) butterfly) versus Bluestein on primes:');
  console.log(table(rows));
}

export async function run(): Promise<void> {
  const np = numpy();
  await realBatch(np);
  await complexSizes(np);
  await columns();
  await threshold();
}
