/**
 * The backend side of every IPC channel, shared by both hosts: Electron's main process
 * (src/main/ipc.ts, over ipcMain) and the web host (src/cli/serve.ts, over HTTP).
 */
import { parseRequest, serializeError } from '../shared/contract';
import type { Channel, Envelope, Request, Response, SerializedError } from '../shared/contract';
import type { StudyInfo } from '../shared/study';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, isAbsolute, join, resolve } from 'node:path';
import { writeFileAtomic } from '../io/atomic';
import { saveFormatOf } from '../io/save';
import type { ReadGrants } from './grants';
import {
  WriteGrants,
  expandHome,
  expandOptionPaths,
  expandTypedPath,
  grantTypedPath,
  maskIsPath,
} from './grants';
import { ChooseKManager } from './choose-k';
import { StudyManager, type PathRule } from './study/manager';
import { describeProtocol, writeMaskFile } from './missing';
import type { DatasetLibrary } from './library';
import { methodInfos, type RunManager } from './runs';

/** One function per channel of the contract; a missing channel is a compile error. */
export type Handlers = { [C in Channel]: (req: Request<C>) => Promise<Response<C>> };

/** What differs between hosts. */
export interface HostServices {
  /** Asks the user for a dataset file: the native dialog under Electron; the web host has none and returns null. */
  pickFile(): Promise<string | null>;
  /** Asks for one or more files (the views of a CSV/NPY dataset); default `pickFile`'s one. */
  pickFiles?(): Promise<string[] | null>;
  /**
   * Asks the user where to save a file: the native dialog under Electron. Without it the
   * host takes typed paths (`dialog:saveFile` with `path`), confirmed and granted one by one.
   */
  pickSaveFile?(defaultName: string): Promise<string | null>;
  /**
   * Where generated files (missing-view masks) go; default a private folder (mkdtemp, 0700)
   * made on first use and removed when the process exits.
   */
  dataDir?: string;
  /**
   * Under Electron: the paths the user chose (dialog, drop, recent list). When given,
   * `datasets:open` reads only those, and the open dialog's answers are added to it.
   */
  readGrants?: ReadGrants;
  /** The home folder a typed `~` stands for (tests); default os.homedir(). */
  home?: string;
  /** Pushes a study's new state to the renderer (the `studies:update` event). */
  onStudyUpdate?(info: StudyInfo): void;
}

/** A private folder for generated files, made once per process and removed at exit. */
let privateDataDir: string | null = null;
function defaultDataDir(): string {
  if (privateDataDir === null) {
    const dir = mkdtempSync(join(tmpdir(), 'mvstudio-data-'));
    privateDataDir = dir;
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return privateDataDir;
}

/**
 * The handlers of both hosts. Without a `runs` manager (a host without a worker) the run
 * channels answer an error saying so.
 */
export function createHandlers(
  library: DatasetLibrary,
  host: HostServices,
  runs?: RunManager,
): Handlers {
  const manager = (): RunManager => {
    if (runs) return runs;
    const e = new Error('this host runs no solver worker');
    e.name = 'Unavailable';
    throw e;
  };
  let sweeps: ChooseKManager | null = null;
  const chooseK = (): ChooseKManager =>
    (sweeps ??= new ChooseKManager(manager().host, library, manager()));
  let studyJobs: StudyManager | null = null;
  const studies = (): StudyManager =>
    (studyJobs ??= new StudyManager(manager().host, (info) => host.onStudyUpdate?.(info)));
  const writes = new WriteGrants();
  const reads = host.readGrants;
  // A spec's files are read like `datasets:open`'s: full paths (`~` expanded); under Electron
  // only files the user chose.
  const specPath: PathRule = (field, typed) => {
    const p = expandHome(typed, host.home);
    if (!isAbsolute(p)) {
      throw named(
        'InvalidPath',
        `${field}: '${typed}' is not a full path (the app reads a spec's files by full paths; the CLI reads relative ones against the spec file's folder)`,
      );
    }
    reads?.check('studies:start', field, p);
    return resolve(p);
  };
  return {
    'datasets:list': async () => {
      await library.ready;
      return library.list();
    },
    'datasets:open': async (req) => {
      const typed = 'files' in req ? req.files : [req.path];
      const home = host.home;
      const files = typed.map((p) => expandHome(p, home));
      const options = expandOptionPaths(req.options ?? {}, home);
      if (reads) {
        files.forEach((f, i) =>
          reads.check('datasets:open', files.length > 1 ? `view file ${i + 1}` : 'the dataset', f),
        );
        if (options.labelsFile !== undefined) {
          reads.check('datasets:open', 'the labels file', options.labelsFile);
        }
        if (options.mask !== undefined && maskIsPath(options.mask)) {
          reads.check('datasets:open', 'the mask file', options.mask);
        }
      }
      return library.open(files, options).catch((e: unknown) => {
        throw asTyped(e, files, typed);
      });
    },
    'datasets:remove': async ({ id }) => {
      library.remove(id);
      return null;
    },
    'datasets:presence': async ({ id }) => library.presence(id),
    'datasets:generateMissing': async ({ id, completeFraction, seed }) => {
      const entry = library.get(id);
      if (!entry) {
        const e = new Error(`no open dataset has the id '${id}'`);
        e.name = 'NotFound';
        throw e;
      }
      const presence = library.presence(id);
      const dir = join(host.dataDir ?? defaultDataDir(), 'masks');
      const stem = basename(entry.path, extname(entry.path));
      const mask = await writeMaskFile(dir, stem, presence, completeFraction, seed);
      // The app made it, so reading it again (the mapping form's "Read again") is allowed.
      await reads?.allow(mask);
      const opened = await library.open(entry.files, { ...entry.options, mask, fold: 1 });
      return {
        entry: opened,
        protocol: describeProtocol(completeFraction, presence.views.length),
      };
    },
    'datasets:save': async ({ id, path }) => {
      // The format is checked before the grant is spent, so a wrong extension can be retyped.
      saveFormatOf(path);
      const target = writes.take('datasets:save', path);
      return library.save(id, target);
    },
    'dialog:openDataset': async () => {
      const chosen = await host.pickFile();
      if (chosen !== null) await reads?.allow(chosen);
      return chosen;
    },
    'dialog:openDatasetFiles': async () => {
      const chosen = host.pickFiles
        ? await host.pickFiles()
        : await host.pickFile().then((p) => (p === null ? null : [p]));
      if (chosen === null || chosen.length === 0) return null;
      for (const p of chosen) await reads?.allow(p);
      return chosen;
    },
    'dialog:saveFile': async ({ defaultName, path, overwrite }) => {
      if (host.pickSaveFile) {
        if (path !== undefined) {
          throw named(
            'Forbidden',
            'dialog:saveFile: this host saves only where its save dialog points',
          );
        }
        // The native dialog asks before replacing a file, so its answer is granted as is.
        const chosen = await host.pickSaveFile(defaultName);
        return chosen === null ? null : writes.grant(chosen);
      }
      if (path === undefined) return null;
      return grantTypedPath(writes, path, overwrite ?? false, host.home);
    },
    'methods:list': async () => methodInfos(runs?.solvers),
    'runs:estimate': async (req) => {
      await library.ready;
      return manager().estimate(req);
    },
    'runs:start': async (req) => manager().start(req),
    'runs:list': async () => (runs ? runs.list() : []),
    'runs:cancel': async ({ id }) => {
      manager().cancel(id);
      return null;
    },
    'runs:result': async ({ id, seed }) => manager().result(id, seed),
    'runs:open': async ({ path }) => {
      // Under Electron only what the user chose (File > Open run…); in the web host the path
      // as typed, `~` expanded, refused when relative (it would name the server's folder).
      if (reads) reads.check('runs:open', 'the run bundle', path);
      const target = reads ? path : expandTypedPath(path, host.home);
      return manager().open(target);
    },
    'runs:exportLabels': async ({ id, path, seed }) => {
      const target = writes.take('runs:exportLabels', path);
      return manager().exportLabels(id, target, seed);
    },
    'runs:exportBundle': async ({ id, path }) => {
      const target = writes.take('runs:exportBundle', path);
      return manager().exportBundle(id, target);
    },
    'runs:chooseK': async (req) => {
      await library.ready;
      return chooseK().start(req);
    },
    'runs:chooseKStatus': async ({ id }) => chooseK().status(id),
    'runs:chooseKCancel': async ({ id }) => {
      chooseK().cancel(id);
      return null;
    },
    'studies:start': async (req) => {
      const info = await studies().start(req, specPath, () =>
        writes.take('studies:start', req.dir),
      );
      // The folder the user chose to write may be reopened (and reported) from this session.
      await reads?.allow(info.dir);
      return info;
    },
    'studies:status': async ({ id }) => studies().status(id),
    'studies:cancel': async ({ id }) => {
      studies().cancel(id);
      return null;
    },
    'studies:open': async ({ path }) => {
      // As `runs:open`: under Electron a folder the user chose, in the web host a full path.
      if (reads) reads.check('studies:open', 'the study folder', path);
      return studies().open(reads ? resolve(path) : expandTypedPath(path, host.home));
    },
    'studies:report': async (req) => studies().report(req),
    'files:saveText': async ({ path, text }) => {
      const target = writes.take('files:saveText', path);
      await writeFileAtomic(target, text);
      return { path: target };
    },
    'files:savePng': async ({ path, dataUrl }) => {
      const target = writes.take('files:savePng', path);
      const bytes = Buffer.from(dataUrl.slice('data:image/png;base64,'.length), 'base64');
      await writeFileAtomic(target, bytes);
      return { path: target };
    },
  };
}

/**
 * Validates an untrusted payload for `channel`, runs its handler and wraps the outcome in an
 * Envelope. Never throws: every failure (bad payload, loading error, bug) becomes
 * `{ ok: false, error }`, rebuilt into an Error on the renderer side.
 */
export async function invoke<C extends Channel>(
  handlers: Handlers,
  channel: C,
  payload: unknown,
): Promise<Envelope<Response<C>>> {
  try {
    const request = parseRequest(channel, payload);
    const handler = handlers[channel] as (req: Request<C>) => Promise<Response<C>>;
    return { ok: true, value: await handler(request) };
  } catch (e) {
    return { ok: false, error: crossable(withoutEcho(channel, serializeError(e))) };
  }
}

/**
 * Built-in errors whose text the engine may fill with the input it choked on (JSON.parse's
 * SyntaxError quotes it); our own RangeErrors are deliberate messages and pass unchanged.
 */
const ECHOING = new Set(['SyntaxError', 'TypeError']);

/**
 * Replaces the message of an engine error (JSON.parse quotes the text it failed on, which
 * may be a file's content) with one naming only the channel; the full error goes to stderr.
 */
function withoutEcho(channel: string, error: SerializedError): SerializedError {
  if (!ECHOING.has(error.name)) return error;
  process.stderr.write(`${channel}: ${error.name}: ${error.message}\n`);
  return {
    name: error.name,
    message: `${channel}: an internal ${error.name} (the details are in the host's log)`,
  };
}

/**
 * A missing file named as the user typed it, with where it was looked for, when the two
 * differ (`~/x.mat`, or a path relative to the host's folder).
 */
function asTyped(e: unknown, files: readonly string[], typed: readonly string[]): unknown {
  if (!(e instanceof Error) || e.name !== 'NotFound') return e;
  files.forEach((file, i) => {
    const abs = resolve(file);
    const asGiven = typed[i]!.trim();
    if (e.message !== `${abs}: no such file` || asGiven === abs) return;
    const relative = isAbsolute(file) ? '' : ', relative to the folder the app was started in';
    e.message = `${asGiven}: no such file (looked for ${abs}${relative})`;
  });
  return e;
}

function named(name: string, message: string): Error {
  const e = new Error(message);
  e.name = name;
  return e;
}

/** Drops an error's `data` when it would not survive structured clone or JSON. */
function crossable(error: SerializedError): SerializedError {
  if (error.data === undefined) return error;
  try {
    JSON.stringify(structuredClone(error.data));
    return error;
  } catch {
    return { name: error.name, message: error.message };
  }
}
