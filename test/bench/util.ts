/** Small helpers shared by the benchmarks. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Runs `f` `runs` times after one warm-up and returns the median wall time in ms. */
export async function timeMs(f: () => Promise<unknown> | unknown, runs = 7): Promise<number> {
  await f();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await f();
    times.push(performance.now() - t);
  }
  return median(times);
}

/** Runs a Python snippet with Debian's python3; null when python3 or the module is missing. */
export function python(code: string): string | null {
  const r = spawnSync('/usr/bin/python3', ['-c', code], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

export function table(rows: (string | number)[][]): string {
  const cells = rows.map((r) => r.map(String));
  const widths = cells[0]!.map((_, c) => Math.max(...cells.map((r) => r[c]!.length)));
  return cells
    .map((r) =>
      r.map((x, c) => (c === 0 ? x.padEnd(widths[c]!) : x.padStart(widths[c]!))).join('  '),
    )
    .join('\n');
}

/** `python` with extra environment variables, e.g. single-threaded BLAS/OpenMP for a fair anchor. */
export function pythonEnv(code: string, env: Record<string, string>): string | null {
  const r = spawnSync('/usr/bin/python3', ['-c', code], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** The environment that pins numpy/scikit-learn to one thread. */
export const ONE_THREAD = {
  OMP_NUM_THREADS: '1',
  OPENBLAS_NUM_THREADS: '1',
  MKL_NUM_THREADS: '1',
};

/** A fresh directory under os.tmpdir() for arrays handed to python; the caller removes it. */
export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Writes a typed array's bytes (native little-endian) to `path`, for numpy.fromfile. */
export function writeRaw(path: string, a: Int32Array | Float64Array): void {
  writeFileSync(path, new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
}
