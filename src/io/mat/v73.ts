/**
 * MAT v7.3 reader: a MAT file that is an HDF5 file (with the 128-byte MAT header in a 512-byte
 * userblock), read through h5wasm into the format-neutral tree of `./types.ts`.
 *
 * MATLAB's v7.3 layout, as implemented here:
 * - every variable is a root member (dataset or group) with attribute `MATLAB_class`;
 *   `#refs#` (targets of cell/struct references) and `#subsystem#` (MCOS data) are not variables;
 * - HDF5 dims are MATLAB dims reversed: the row-major buffer of an HDF5 dataset of shape [a, b]
 *   is the column-major MATLAB array of dims [b, a], so data is never transposed;
 * - numeric classes are widened to Float64Array; complex data is a compound {real, imag};
 *   char is uint16 code units; logical is uint8;
 * - `MATLAB_empty` = 1 marks an empty array whose dataset holds the MATLAB dims (uint64);
 * - cell = dataset of object references (into `#refs#`), one per element, column-major;
 * - sparse = group with `MATLAB_sparse` = rows and members `ir`, `jc`, `data` (CSC, 0-based);
 * - struct = group; a 1x1 struct has one member per field, a struct array has one dataset of
 *   references per field (without `MATLAB_class`), shaped like the struct array.
 *
 * Robustness. Every h5wasm call runs inside `guarded()` (`./h5guard.ts`), which turns what the
 * HDF5 library prints or throws into an error and retires a WASM instance that may be corrupt.
 * A variable that fails is dropped with a warning that names it; a file that cannot be opened
 * or listed ends in a `MatReadError`. Sizes are checked against the file size before any
 * allocation (`DatasetBudget`); the values themselves are decoded by `./v73-decode.ts`.
 */
import fs from 'node:fs';
import nodePath from 'node:path';
import type * as H5 from 'h5wasm/node';
import {
  DatasetBudget,
  errorText,
  getInstance,
  guarded,
  releaseLeakedFiles,
  type H5Instance,
} from './h5guard';
import { HDF5_HEAD_BYTES, hdf5SignatureOffset } from './signature';
import { MatReadError } from './types';
import type { MatFile, MatValue } from './types';
import { getEntity, readValue, type Ctx } from './v73-decode';

/** Length of the descriptive text at the start of the 128-byte MAT header. */
const MAT_HEADER_TEXT_BYTES = 116;

/**
 * Reads a MAT v7.3 (HDF5) file into the format-neutral tree.
 *
 * Never rejects with anything but a `MatReadError` (message: path + problem). Variables that
 * cannot be read are left out with a warning naming them; unsupported classes (function handles,
 * objects, ...) become `{ type: 'unsupported' }` with a warning.
 */
export async function readMatV73(path: string): Promise<MatFile> {
  const absPath = nodePath.resolve(path);
  const { head, size } = await readHead(path, absPath);
  if (size === 0) throw new MatReadError(path, 'not an HDF5 file (the file is empty)');
  const sigAt = hdf5SignatureOffset(head);
  if (sigAt < 0) {
    throw new MatReadError(
      path,
      'not an HDF5 file (no HDF5 signature at byte 512, 0, 1024 or 2048): not a MAT v7.3 file',
    );
  }
  const warnings: string[] = [];
  const header = matHeaderText(head, sigAt, warnings);

  let inst: H5Instance;
  try {
    inst = await getInstance();
  } catch (e) {
    throw new MatReadError(path, `the HDF5 library (h5wasm) could not be loaded: ${errorText(e)}`);
  }
  let variables: Map<string, MatValue>;
  try {
    variables = readWithInstance(inst, path, absPath, size, warnings);
  } catch (e) {
    if (e instanceof MatReadError) throw e;
    throw new MatReadError(path, `unexpected failure while reading: ${errorText(e)}`);
  }
  return { path, version: 'v7.3', header, variables, warnings };
}

// ---------------------------------------------------------------------------------------------
// File head and MAT header

/** First bytes of the file (enough for every signature offset) and the file size. */
async function readHead(
  path: string,
  absPath: string,
): Promise<{ head: Uint8Array; size: number }> {
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(absPath, 'r');
    const stat = await handle.stat();
    if (!stat.isFile()) throw new Error('not a regular file');
    const head = new Uint8Array(HDF5_HEAD_BYTES);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return { head: head.subarray(0, bytesRead), size: stat.size };
  } catch (e) {
    throw new MatReadError(path, `cannot read the file: ${errorText(e)}`);
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** The 116-byte header text of the userblock, trimmed of trailing spaces and NULs. */
function matHeaderText(head: Uint8Array, sigAt: number, warnings: string[]): string {
  if (sigAt < 128) {
    warnings.push('no MAT header: plain HDF5 file without a userblock');
    return '';
  }
  let text = '';
  for (let i = 0; i < MAT_HEADER_TEXT_BYTES; i++) text += String.fromCharCode(head[i] ?? 0);
  text = text.replace(/[\s\0]+$/u, '');
  if (!text.startsWith('MATLAB')) warnings.push('the HDF5 userblock does not hold a MAT header');
  return text;
}

// ---------------------------------------------------------------------------------------------
// Reading a file

function readWithInstance(
  inst: H5Instance,
  path: string,
  absPath: string,
  fileSize: number,
  warnings: string[],
): Map<string, MatValue> {
  let file: H5.File;
  try {
    file = guarded(inst, '', () => new inst.api.File(absPath, 'r'));
  } catch (e) {
    releaseLeakedFiles(inst, absPath);
    const text = errorText(e);
    const why = /truncated file/.test(text) ? 'the file is truncated; ' : '';
    throw new MatReadError(path, `${why}the HDF5 library could not open it: ${text}`);
  }
  const variables = new Map<string, MatValue>();
  try {
    if (typeof file.file_id !== 'bigint' || file.file_id < 0n) {
      throw new MatReadError(path, 'the HDF5 library could not open it');
    }
    let names: string[];
    try {
      names = guarded(inst, 'list variables', () => file.keys());
    } catch (e) {
      throw new MatReadError(
        path,
        `the HDF5 library could not list its variables: ${errorText(e)}`,
      );
    }
    const ctx: Ctx = {
      inst,
      file,
      warnings,
      active: new Set(),
      budget: new DatasetBudget(fileSize),
    };
    for (const name of names) {
      if (name === '#refs#' || name === '#subsystem#') continue;
      if (inst.broken) {
        warnings.push(`variable '${name}' was not read: the HDF5 library failed earlier`);
        continue;
      }
      try {
        const entity = getEntity(ctx, `/${name}`);
        variables.set(name, readValue(ctx, entity, name, 0));
      } catch (e) {
        warnings.push(`variable '${name}' could not be read: ${errorText(e)}`);
      }
    }
  } finally {
    // A broken runtime is not called again; releaseLeakedFiles frees the file handle.
    if (!inst.broken) {
      try {
        guarded(inst, 'close', () => file.close());
      } catch {
        // Closing a damaged file can fail; releaseLeakedFiles still frees the handle.
      }
    }
    releaseLeakedFiles(inst, absPath);
  }
  return variables;
}
