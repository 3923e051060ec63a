/**
 * Atomic writes: a reader (or a crash) never sees a half-written file or folder.
 *
 * A file is written to a temporary sibling, flushed to disk, then renamed over the target
 * (rename is atomic within a file system on POSIX and on Windows' MoveFileEx with replace).
 * A folder (a run bundle) is written complete under a temporary sibling name and renamed into
 * place; a folder that already exists is never overwritten, so what was there stays whole.
 * Temporaries start with `.tmp-` and are ignored by readers; `removeStaleTemporaries` clears
 * those left by a killed process.
 *
 * Modes: a file written by writeFileAtomic keeps the usual umask mode (an export the user asked
 * for); a folder of writeFolderAtomic (a run bundle: the dataset's path, labels, metrics) is
 * private, 0700 with 0600 files, as are the parent folders it creates.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

const TMP_PREFIX = '.tmp-';
/** Folders and files of writeFolderAtomic: the owner only. */
const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;

function temporarySibling(target: string): string {
  return join(
    dirname(target),
    `${TMP_PREFIX}${basename(target)}-${process.pid}-${randomBytes(4).toString('hex')}`,
  );
}

/** Creates `path` (never an existing one) with `mode` (less the umask), writes and flushes it. */
async function writeAndSync(
  path: string,
  data: string | Uint8Array,
  mode: number = 0o666,
): Promise<void> {
  const fh = await open(path, 'wx', mode);
  try {
    await fh.writeFile(data);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Flushes a folder's entry table, so that a rename inside it survives a power cut. */
async function syncDir(dir: string): Promise<void> {
  try {
    const fh = await open(dir, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    // Some platforms (Windows) cannot open a folder for syncing; the rename is still atomic.
  }
}

/** Writes `data` to `path` atomically (temporary file + rename), creating the folder. */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = temporarySibling(path);
  try {
    await writeAndSync(tmp, data);
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
  await syncDir(dirname(path));
}

/**
 * Writes `path` atomically through `write`, which receives the open temporary file and writes
 * it sequentially (for files too large to hold in one buffer). On any error the temporary is
 * removed and `path` is left as it was.
 */
export async function writeFileAtomicWith(
  path: string,
  write: (fh: FileHandle) => Promise<void>,
): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = temporarySibling(path);
  try {
    const fh = await open(tmp, 'wx');
    try {
      await write(fh);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
  await syncDir(dirname(path));
}

/**
 * Creates folder `dir` holding `files` (name -> content) atomically: all of it appears at once,
 * or nothing. Fails (EEXIST/ENOTEMPTY) if `dir` already exists, leaving it untouched. The
 * folder is 0700 and its files 0600 (see the file comment).
 */
export async function writeFolderAtomic(
  dir: string,
  files: Readonly<Record<string, string | Uint8Array>>,
): Promise<void> {
  await mkdir(dirname(dir), { recursive: true, mode: PRIVATE_DIR });
  const tmp = temporarySibling(dir);
  await mkdir(tmp, { mode: PRIVATE_DIR });
  try {
    for (const [name, data] of Object.entries(files)) {
      if (name.includes('/') || name.includes('\\') || name.startsWith('.')) {
        throw new Error(`writeFolderAtomic: bad file name '${name}'`);
      }
      await writeAndSync(join(tmp, name), data, PRIVATE_FILE);
    }
    await syncDir(tmp);
    await rename(tmp, dir);
  } catch (e) {
    await rm(tmp, { recursive: true, force: true });
    throw e;
  }
  await syncDir(dirname(dir));
}

/**
 * Whether the process that made temporary `name` (`.tmp-<target>-<pid>-<hex>`) may still be
 * writing it: its pid names a live process. A name without a pid is an orphan.
 */
function writerAlive(name: string): boolean {
  const m = /-([0-9]+)-[0-9a-f]{8}$/.exec(name);
  if (!m) return false;
  try {
    process.kill(Number(m[1]), 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes `.tmp-*` leftovers of killed writers in `dir`; returns how many were removed. A
 * temporary whose writer is still running (another `run` into the same folder, the app's
 * worker) is left alone, so that writer's rename still finds it.
 */
export async function removeStaleTemporaries(dir: string): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  const stale = names.filter((n) => n.startsWith(TMP_PREFIX) && !writerAlive(n));
  await Promise.all(stale.map((n) => rm(join(dir, n), { recursive: true, force: true })));
  return stale.length;
}
