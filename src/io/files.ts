/**
 * Opening the files a loader reads: only regular files. A FIFO, socket or device named as a
 * dataset (or as its labels, mask or a view file) would block the reading thread forever or
 * stream without end, so every path is opened non-blocking and checked with fstat before a
 * byte is read; the check is on the opened descriptor, so a path swapped after it cannot slip
 * through.
 */
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { DataError } from './errors';

/** Why a path could not be opened, in words (no file content, no raw errno dump). */
export function openFailure(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EISDIR':
      return 'is a folder, not a file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ELOOP':
      return 'too many symbolic links';
    case 'ENOTDIR':
      return 'a part of the path is not a folder';
    default:
      return code ?? (e as Error).message;
  }
}

/**
 * Opens `path` for reading, refusing anything but a regular file with a DataError
 * "… is not a regular file". The caller closes the handle.
 */
export async function openRegularFile(
  path: string,
  failure = 'cannot open',
): Promise<{ fh: FileHandle; size: number }> {
  let fh: FileHandle;
  try {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
    fh = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    throw new DataError(path, `${failure}: ${openFailure(e)}`);
  }
  try {
    const st = await fh.stat();
    if (st.isDirectory()) throw new DataError(path, `${failure}: is a folder, not a file`);
    if (!st.isFile()) {
      throw new DataError(
        path,
        'is not a regular file (a FIFO, socket or device); expected a data file',
      );
    }
    return { fh, size: st.size };
  } catch (e) {
    await fh.close();
    throw e;
  }
}

/**
 * The whole content of a regular file; DataError for anything else, an unreadable one, or one
 * larger than `maxBytes` (checked before reading).
 */
export async function readRegularFile(path: string, maxBytes = Infinity): Promise<Buffer> {
  const { fh, size } = await openRegularFile(path, 'cannot read the file');
  if (size > maxBytes) {
    await fh.close();
    throw new DataError(path, `is ${size} bytes; at most ${maxBytes} bytes can be read as text`);
  }
  try {
    return await fh.readFile();
  } catch (e) {
    throw new DataError(path, `cannot read the file: ${openFailure(e)}`);
  } finally {
    await fh.close();
  }
}
