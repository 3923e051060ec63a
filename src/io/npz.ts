/**
 * NPZ reader: an `.npz` archive (a ZIP of `.npy` members, stored or deflated) as the variable
 * tree of `./mat/types.ts`, so that the MAT mapper maps it like a MAT file. The archive is read
 * by `./zip.ts`, each member by `./npy.ts`; what members may decode to is charged to one
 * allocation budget for the archive.
 */
import { AllocationBudget } from './limits';
import type { MatCell, MatFile, MatNumeric, MatValue } from './mat/types';
import { readRegularFile } from './files';
import {
  elementCount,
  matClass,
  parseDType,
  parseNpyAs,
  parseNpyStrings,
  readNpyHeader,
  UnsupportedDTypeError,
  type NpyHeader,
} from './npy';
import { extractZip, listZip, refuseOverlaps } from './zip';

/** An NPZ archive as a variable tree (version 'npz'). */
export type NpzFile = MatFile;

/** Reads an .npz file; see `parseNpz`. */
export async function readNpz(path: string): Promise<NpzFile> {
  return parseNpz(await readRegularFile(path), path);
}

/**
 * Parses the bytes of an .npz archive into the MAT variable tree, so that the MAT mapper can
 * map it: member `X0.npy` becomes variable `X0`. A numeric array becomes a MatNumeric with
 * `dims` = the numpy shape (a 1-D array of length k gets dims [k, 1], a 0-d one [1, 1]) and
 * `re` in column-major order; a text array becomes a cell of 1 x len char rows with the same
 * dims. Members of other dtypes become 'unsupported' variables with a warning; members that
 * are not .npy are skipped with a warning. A damaged member is a DataError.
 */
export function parseNpz(bytes: Uint8Array, path: string): NpzFile {
  const variables = new Map<string, MatValue>();
  const warnings: string[] = [];
  const entries = listZip(bytes, path);
  refuseOverlaps(bytes, entries, path);
  const budget = new AllocationBudget(path, bytes.length);
  for (const entry of entries) {
    if (entry.name.endsWith('/')) continue;
    if (!entry.name.endsWith('.npy')) {
      warnings.push(`${entry.name}: not an .npy array; skipped`);
      continue;
    }
    const name = entry.name.slice(0, -4);
    if (entry.method !== 0) budget.charge(entry.size, name);
    const member = extractZip(bytes, entry, path);
    let h: NpyHeader;
    try {
      h = readNpyHeader(member, path, name);
    } catch (e) {
      if (!(e instanceof UnsupportedDTypeError)) throw e;
      variables.set(name, { type: 'unsupported', what: 'numpy array of an unsupported dtype' });
      warnings.push(`${name}: ${e.detail}`);
      continue;
    }
    const t = parseDType(h.dtype, path, name);
    const dims = h.shape.length === 0 ? [1, 1] : h.shape.length === 1 ? [h.shape[0]!, 1] : h.shape;
    const count = elementCount(h.shape)!;
    // Widened to 8 bytes per value, twice when reordered; a string is an object of its own.
    budget.charge(t.kind === 'U' || t.kind === 'S' ? count * (64 + t.itemSize) : 16 * count, name);
    if (t.kind === 'U' || t.kind === 'S') {
      const items = parseNpyStrings(member, h, t, 'F').map((text): MatValue => ({
        type: 'char',
        dims: [1, text.length],
        text,
      }));
      const cell: MatCell = { type: 'cell', dims, items };
      variables.set(name, cell);
    } else {
      const { data } = parseNpyAs(member, path, name, 'F');
      const numeric: MatNumeric = { type: 'numeric', class: matClass(t), dims, re: data };
      variables.set(name, numeric);
    }
  }
  return {
    path,
    version: 'npz',
    header: `NPZ archive with ${variables.size} array${variables.size === 1 ? '' : 's'}`,
    variables,
    warnings,
  };
}
