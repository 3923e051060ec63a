/**
 * Entry point of every loader: a path (plus mapping options) in, a MultiViewDataset out.
 * Dispatches on the file's content (MAT v5, MAT v7.3/HDF5, NPY, NPZ) or extension (CSV).
 */
import type { MultiViewDataset } from '../core/dataset';
import type { LoadOptions } from '../shared/contract';

export async function loadDataset(path: string, options: LoadOptions = {}): Promise<MultiViewDataset> {
  void options;
  throw new Error(`${path}: loader not written yet`);
}
