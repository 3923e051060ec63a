/**
 * The 'fma' backend's products for gemm-fma.test.ts, run in a child Node with relaxed SIMD on:
 * `node --experimental-wasm-relaxed-simd --import tsx gemm-fma-child.ts`, or with `--set-flag`
 * in place of the Node flag, which turns it on through v8.setFlagsFromString before the GEMM
 * module is first loaded (the route `npm run bench` takes with MVSTUDIO_RELAXED_SIMD=1). Prints
 * one JSON line: the backend in use and every case's result, in the order of `fmaCases()`.
 * The cases (and their operands, from seeded PRNGs) are defined here once for both processes.
 */
import { setFlagsFromString } from 'node:v8';
import { fileURLToPath } from 'node:url';
import type { Mat } from '../../../src/core/linalg/types';
import { randMat } from '../../helpers/mat';

/** One product: gemm (op(A) m×k · op(B) k×n), syrk (A k×m, C = AᵀA m×m) or gemmPacked. */
export interface FmaCase {
  readonly op: 'gemm' | 'syrk' | 'packed';
  readonly m: number;
  readonly n: number;
  readonly k: number;
  readonly transA: boolean;
  readonly transB: boolean;
  readonly alpha: number;
  readonly beta: number;
}

/** The operands of case `i`: A and B stored as op() needs them, and C's previous contents. */
export function operands(c: FmaCase, i: number): { A: Mat; B: Mat; C0: Mat } {
  const A =
    c.transA || c.op === 'syrk' ? randMat(c.k, c.m, 3 * i + 1) : randMat(c.m, c.k, 3 * i + 1);
  const B = c.transB ? randMat(c.n, c.k, 3 * i + 2) : randMat(c.k, c.n, 3 * i + 2);
  return { A, B, C0: randMat(c.m, c.n, 3 * i + 3) };
}

/**
 * Every m, n, k in 1 … 13 (the 4×4 tile's edges twice over); transposes, α and β on a subset;
 * syrk on the packed path (fewer than 64 rows) and on the tall-skinny `ta` kernel (100 rows);
 * A·B on the tall `nn` kernel (k ≤ 16, m ≥ 64); a depth crossing KC = 256 (two slices summed
 * in the tile buffer); gemmPacked; and, for the bound only, depths past KP = 1024 and shapes
 * crossing MC = 128 and NC = 768.
 */
export function fmaCases(): FmaCase[] {
  const base = { op: 'gemm', transA: false, transB: false, alpha: 1, beta: 0 } as const;
  const out: FmaCase[] = [];
  for (let m = 1; m <= 13; m++)
    for (let n = 1; n <= 13; n++) for (let k = 1; k <= 13; k++) out.push({ ...base, m, n, k });
  const few = [1, 4, 5, 8, 13];
  for (const m of few)
    for (const n of few)
      for (const k of few)
        for (const [transA, transB] of [
          [true, false],
          [false, true],
          [true, true],
        ] as const)
          out.push({ ...base, m, n, k, transA, transB });
  for (const m of [3, 7, 13])
    for (const n of [3, 7, 13])
      for (const k of [3, 7, 13])
        for (const [alpha, beta] of [
          [-0.75, 0],
          [1, 0.5],
          [2.5, -1.25],
        ] as const)
          out.push({ ...base, m, n, k, alpha, beta });
  for (const k of [1, 5, 13, 40, 100])
    for (const m of [1, 2, 5, 10, 13]) out.push({ ...base, op: 'syrk', m, n: m, k });
  out.push({ ...base, m: 200, n: 9, k: 3 }, { ...base, m: 70, n: 13, k: 16 });
  out.push({ ...base, m: 9, n: 7, k: 300, transA: true });
  out.push({ ...base, m: 33, n: 21, k: 300 }, { ...base, m: 18, n: 10, k: 300, transB: true });
  for (const [transA, transB, alpha, beta] of [
    [false, false, 1, 0],
    [true, true, 1, 0],
    [false, true, 0.5, 2],
  ] as const)
    out.push({ op: 'packed', m: 37, n: 11, k: 29, transA, transB, alpha, beta });
  out.push({ ...base, m: 20, n: 30, k: 1100 }, { ...base, m: 130, n: 770, k: 300 });
  out.push({ ...base, m: 10, n: 12, k: 2500, transA: true });
  return out;
}

async function main(): Promise<void> {
  if (process.argv.includes('--set-flag')) setFlagsFromString('--experimental-wasm-relaxed-simd');
  const g = await import('../../../src/core/linalg/gemm');
  const results = fmaCases().map((c, i) => {
    const { A, B, C0 } = operands(c, i);
    if (c.op === 'syrk') return Array.from(g.syrk(A).data);
    const C: Mat = { rows: c.m, cols: c.n, data: C0.data.slice() };
    const opts = { transB: c.transB, alpha: c.alpha, beta: c.beta };
    if (c.op === 'packed') g.gemmPacked(g.packLhs(A, c.transA), B, C, opts);
    else g.gemm(A, B, C, { ...opts, transA: c.transA });
    return Array.from(C.data);
  });
  process.stdout.write(`${JSON.stringify({ backend: g.gemmBackend(), results })}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
