/**
 * Load time of three real files, end to end (read, decode, map to a dataset), median of 7
 * runs after a warm-up. Anchor: scipy.io.loadmat / h5py reading the same file (measured here
 * when Debian's python3-scipy / python3-h5py are installed; the issue quotes 70-80 ms).
 * Target: under 200 ms each.
 */
import { join } from 'node:path';
import { loadDataset } from '../../src/io/load';
import { python, table, timeMs } from './util';
import { DATASETS } from '../helpers/paths';

const FILES = ['HW/HW.mat', 'BDGP/BDGP_fea_Per0.5.mat', 'HW/Handwritten_fea.mat'];
const TARGET_MS = 200;

function scipyMs(path: string): string {
  const code = `
import time, statistics, h5py, scipy.io as sio
p = ${JSON.stringify(path)}
def load():
    with open(p, 'rb') as f:
        f.seek(512)
        v73 = f.read(4) == b'\\x89HDF'
    if v73:
        with h5py.File(p, 'r') as h:
            def walk(o):
                if isinstance(o, h5py.Dataset):
                    a = o[()]
                    if a.dtype.kind == 'O':
                        for r in a.flat: walk(h[r])
            for k in h.keys():
                if not k.startswith('#'): walk(h[k])
    else:
        sio.loadmat(p)
load()
ts = []
for _ in range(7):
    t = time.perf_counter(); load(); ts.append(time.perf_counter() - t)
print(f'{statistics.median(ts) * 1000:.0f}')
`;
  const out = python(code);
  return out === null ? 'n/a (no python3-scipy/h5py)' : `${out} ms`;
}

export async function run(): Promise<void> {
  const rows: (string | number)[][] = [
    ['file', 'mvstudio (median)', 'scipy/h5py (median)', 'target'],
  ];
  for (const f of FILES) {
    const path = join(DATASETS, f);
    const ms = await timeMs(() => loadDataset(path));
    rows.push([
      f,
      `${ms.toFixed(0)} ms`,
      scipyMs(path),
      `< ${TARGET_MS} ms ${ms < TARGET_MS ? 'met' : 'MISSED'}`,
    ]);
  }
  console.log(table(rows));
}
