/**
 * Entry point of every loader: a path (or, for one-file-per-view formats, several paths) plus
 * mapping options in, a MultiViewDataset out.
 *
 * The format is told by content, not by name: an HDF5 signature at byte 512 (or 0, 1024,
 * 2048: `./mat/signature.ts`, the reader's own test) is MAT v7.3, an 'IM'/'MI' endian mark at
 * byte 126 is MAT v5, `\x93NUMPY` is NPY, `PK\x03\x04` is a ZIP (NPZ);
 * anything else that ends in .csv, .tsv or .txt is read as delimited text.
 */
import { extname } from 'node:path';
import type { MultiViewDataset } from '../core/dataset';
import type { LoadOptions } from '../shared/contract';
import { DataError } from './errors';
import { openFailure, openRegularFile, readRegularFile } from './files';
import { mapVariables } from './mapper';
import { markOverridden, refuseOverrides } from './mapper/overrides';
import type { MatFile } from './mat/types';
import { HDF5_HEAD_BYTES, isHdf5 } from './mat/signature';
import { parseMatV5 } from './mat/v5';

export type FileKind = 'mat-v5' | 'mat-v7.3' | 'npy' | 'npz' | 'csv';

/** A kind in the words of a message. */
const KIND_WORDS: Readonly<Record<FileKind, string>> = {
  'mat-v5': 'MAT',
  'mat-v7.3': 'MAT (v7.3)',
  npy: 'NPY',
  npz: 'NPZ',
  csv: 'CSV',
};

/** Reads the first bytes of a file and names its format. */
export async function sniff(path: string): Promise<FileKind> {
  const { fh, size } = await openRegularFile(path);
  let head: Uint8Array;
  try {
    head = new Uint8Array(Math.min(size, HDF5_HEAD_BYTES));
    await fh.read(head, 0, head.length, 0);
  } catch (e) {
    throw new DataError(path, `cannot read the file: ${openFailure(e)}`);
  } finally {
    await fh.close();
  }
  if (size === 0) throw new DataError(path, 'the file is empty (0 bytes)');
  const at = (off: number, sig: number[]): boolean => sig.every((b, i) => head[off + i] === b);
  if (isHdf5(head)) return 'mat-v7.3';
  if (at(0, [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59])) return 'npy';
  if (at(0, [0x50, 0x4b, 0x03, 0x04]) || at(0, [0x50, 0x4b, 0x05, 0x06])) return 'npz';
  if (
    size >= 128 &&
    ((head[126] === 0x49 && head[127] === 0x4d) || (head[126] === 0x4d && head[127] === 0x49))
  ) {
    return 'mat-v5';
  }
  const ext = extname(path).toLowerCase();
  if (ext === '.csv' || ext === '.tsv' || ext === '.txt') return 'csv';
  if (ext === '.mat') {
    const text = new TextDecoder('latin1').decode(head.subarray(0, 10));
    throw new DataError(
      path,
      text.startsWith('MATLAB')
        ? 'a MAT-file header without a valid version mark (damaged file?)'
        : 'not a MAT-file: no MAT v5 header and no HDF5 (v7.3) signature; MAT v4 files are not supported',
    );
  }
  throw new DataError(
    path,
    'unknown format: expected a MAT-file (v5 or v7.3), NPY, NPZ or a .csv/.tsv/.txt file',
  );
}

/** Reads the variables of a MAT (v5 or v7.3) or NPZ file. */
export async function readVariables(path: string, kind?: FileKind): Promise<MatFile> {
  const k = kind ?? (await sniff(path));
  switch (k) {
    case 'mat-v5': {
      return parseMatV5(await readRegularFile(path), path);
    }
    case 'mat-v7.3': {
      const { readMatV73 } = await import('./mat/v73');
      return readMatV73(path);
    }
    case 'npz': {
      const { readNpz } = await import('./npz');
      return readNpz(path);
    }
    default:
      throw new DataError(path, `a ${k} file holds no named variables (use it as a view file)`);
  }
}

/**
 * Loads a dataset. `paths` is one MAT/NPZ file, or one CSV/NPY file per view.
 * Options override the mapper's decisions; `labelsFile` names a labels file for CSV/NPY views.
 * An option the file kind cannot honour is refused (`./mapper/overrides.ts`), never skipped.
 */
export async function loadDataset(
  paths: string | readonly string[],
  options: LoadOptions = {},
): Promise<MultiViewDataset> {
  const list = typeof paths === 'string' ? [paths] : [...paths];
  const first = list[0];
  if (first === undefined) throw new DataError('(no file)', 'no file was given');
  const kind = await sniff(first);
  if (kind === 'csv' || kind === 'npy') {
    refuseOverrides('view-files', KIND_WORDS[kind], first, options);
    for (const p of list.slice(1)) {
      const k = await sniff(p);
      if (k !== kind)
        throw new DataError(p, `is ${k}, but the first view file ${first} is ${kind}`);
    }
    const labelOpts = options.labelsFile !== undefined ? { labelsFile: options.labelsFile } : {};
    let ds: MultiViewDataset;
    if (kind === 'csv') {
      const { loadCsvDataset } = await import('./csv');
      ds = await loadCsvDataset(list, { ...labelOpts, header: 'auto' });
    } else {
      const { loadNpyDataset } = await import('./npy');
      ds = await loadNpyDataset(list, labelOpts);
    }
    const decisions = markOverridden(ds.provenance.decisions, options);
    return { ...ds, provenance: { ...ds.provenance, decisions } };
  }
  if (list.length > 1) {
    throw new DataError(
      list[1]!,
      `only CSV or NPY views come one file per view; ${first} is ${kind}`,
    );
  }
  refuseOverrides('variables', KIND_WORDS[kind], first, options);
  const file = await readVariables(first, kind);
  let maskFile: MatFile | undefined;
  if (options.mask !== undefined && !file.variables.has(options.mask)) {
    maskFile = await readVariables(options.mask).catch((e: unknown) => {
      throw new DataError(
        options.mask!,
        `the mask is neither a variable of ${first} (variables: ${[...file.variables.keys()].join(', ')}) ` +
          `nor a readable mask file: ${(e as Error).message}`,
      );
    });
  }
  return mapVariables({
    file,
    format: kind,
    options,
    ...(maskFile ? { maskFile } : {}),
  });
}
