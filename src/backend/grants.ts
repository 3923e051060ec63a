/**
 * Which paths the user chose. The hosts write a file only to a path granted for that one
 * write (the save dialog's answer under Electron, a typed path confirmed through
 * `dialog:saveFile` in the web host), and Electron reads only paths that came from the user
 * (the open dialog, a drop, the recent list). Pure Node, so it is tested without Electron.
 */
import { lstat, mkdir, readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { writeFileAtomic } from '../io/atomic';
import type { LoadOptions } from '../shared/contract';

/** Grants kept at most; the oldest is dropped first, so a caller cannot grow the map without end. */
export const MAX_WRITE_GRANTS = 64;
/** Paths the read list persists at most (the recent list is shorter). */
export const MAX_READ_GRANTS = 500;

function named(name: string, message: string): Error {
  const e = new Error(message);
  e.name = name;
  return e;
}

/**
 * A path the user typed in a save field, made absolute: a leading `~` is the home folder; a
 * relative path is refused (it would land in the server's working folder). Throws
 * 'InvalidPath' when it is relative or empty.
 */
export function expandTypedPath(typed: string, home: string = homedir()): string {
  const t = typed.trim();
  let p: string;
  if (t === '~') p = home;
  else if (t.startsWith('~/') || t.startsWith('~\\')) p = join(home, t.slice(2));
  else p = t;
  if (p === '' || !isAbsolute(p)) {
    throw named(
      'InvalidPath',
      `'${typed}' is not a full path: type a full path (e.g. ~/${t || 'labels.csv'})`,
    );
  }
  return resolve(p);
}

/**
 * A path the user typed to read (a dataset, a labels or mask file) with a leading `~` taken
 * as the home folder; anything else as typed (surrounding blanks dropped).
 */
export function expandHome(typed: string, home: string = homedir()): string {
  const t = typed.trim();
  if (t === '~') return home;
  if (t.startsWith('~/') || t.startsWith('~\\')) return join(home, t.slice(2));
  return t;
}

/** Load options with `~` expanded in the paths they may hold (the labels file, a mask file). */
export function expandOptionPaths(options: LoadOptions, home?: string): LoadOptions {
  const out: LoadOptions = { ...options };
  if (out.labelsFile !== undefined) out.labelsFile = expandHome(out.labelsFile, home);
  if (out.mask !== undefined && maskIsPath(out.mask)) out.mask = expandHome(out.mask, home);
  return out;
}

/**
 * One-time permissions to write: `grant` records a path the user chose for one export,
 * `take` consumes it before the write and refuses a path with no grant ('Forbidden').
 */
export class WriteGrants {
  readonly #paths = new Map<string, true>();

  /** Grants `path` (absolute) for one write; returns it resolved. */
  grant(path: string): string {
    if (!isAbsolute(path))
      throw named('InvalidPath', `'${path}' is not a full path: type a full path`);
    const p = resolve(path);
    this.#paths.delete(p);
    this.#paths.set(p, true);
    while (this.#paths.size > MAX_WRITE_GRANTS) {
      const oldest = this.#paths.keys().next().value;
      if (oldest === undefined) break;
      this.#paths.delete(oldest);
    }
    return p;
  }

  /** Consumes the grant of `path` for `channel`'s write; throws 'Forbidden' when there is none. */
  take(channel: string, path: string): string {
    const p = isAbsolute(path) ? resolve(path) : null;
    if (p === null || !this.#paths.delete(p)) {
      throw named(
        'Forbidden',
        `${channel}: refused to write ${path}: the path was not chosen in a save field (choose it there first)`,
      );
    }
    return p;
  }

  get size(): number {
    return this.#paths.size;
  }
}

/**
 * Checks a typed save path and grants it for one write. Refuses a relative path, a missing
 * parent folder (folders are not made silently) and an existing file or folder unless
 * `overwrite` is set ('Exists': the renderer then asks the user and retries).
 */
export async function grantTypedPath(
  grants: WriteGrants,
  typed: string,
  overwrite: boolean,
  home?: string,
): Promise<string> {
  const path = expandTypedPath(typed, home);
  const parent = await stat(dirname(path)).catch(() => null);
  if (!parent?.isDirectory()) {
    throw named(
      'NotFound',
      `${dirname(path)}: no such folder (create it first, then save into it)`,
    );
  }
  const existing = await lstat(path).catch(() => null);
  if (existing !== null && !overwrite) {
    throw named(
      'Exists',
      `${path} already exists${existing.isDirectory() ? ' (a folder)' : ''}: confirm to overwrite it`,
    );
  }
  return grants.grant(path);
}

/**
 * Paths the user opened (dialog, drop, recent list) under Electron, persisted as a JSON
 * array of strings in `file` (userData), newest last. Only they pass `check`.
 */
export class ReadGrants {
  readonly #file: string | null;
  readonly #paths: string[] = [];

  private constructor(file: string | null, paths: readonly string[]) {
    this.#file = file;
    for (const p of paths) this.#paths.push(p);
  }

  /** The list stored in `file`; a missing or damaged file is an empty list, never an error. */
  static async load(file: string | null): Promise<ReadGrants> {
    if (file === null) return new ReadGrants(null, []);
    const text = await readFile(file, 'utf8').catch(() => null);
    let paths: string[] = [];
    if (text !== null) {
      try {
        const parsed: unknown = JSON.parse(text);
        if (Array.isArray(parsed)) {
          paths = parsed
            .filter((p): p is string => typeof p === 'string' && isAbsolute(p))
            .slice(-MAX_READ_GRANTS);
        }
      } catch {
        paths = [];
      }
    }
    return new ReadGrants(file, paths);
  }

  /** Records `path` (absolute) as chosen by the user, and persists the list. */
  async allow(path: string): Promise<void> {
    if (!isAbsolute(path)) throw named('InvalidPath', `'${path}' is not a full path`);
    const p = resolve(path);
    const at = this.#paths.indexOf(p);
    if (at >= 0) this.#paths.splice(at, 1);
    this.#paths.push(p);
    if (this.#paths.length > MAX_READ_GRANTS)
      this.#paths.splice(0, this.#paths.length - MAX_READ_GRANTS);
    if (this.#file !== null) {
      await mkdir(dirname(this.#file), { recursive: true });
      await writeFileAtomic(this.#file, JSON.stringify(this.#paths));
    }
  }

  has(path: string): boolean {
    return isAbsolute(path) && this.#paths.includes(resolve(path));
  }

  /** Throws 'Forbidden' unless `path` came from the user; `what` names the field. */
  check(channel: string, what: string, path: string): void {
    if (!this.has(path)) {
      throw named(
        'Forbidden',
        `${channel}: ${what} ${path} was not chosen by the user (open it with the dialog or drop it on the window)`,
      );
    }
  }
}

/**
 * True when a mask option names a file rather than a variable of the data file: variable
 * names are identifiers, a path has a separator or an extension.
 */
export function maskIsPath(mask: string): boolean {
  return !/^[A-Za-z_][A-Za-z0-9_]*$/.test(mask);
}
