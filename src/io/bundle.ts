/**
 * Run bundles: one folder per run, written atomically (io/atomic `writeFolderAtomic`), holding
 *   run.json    what was run, on what, how, and what came out (RunRecord below, version 1)
 *   labels.csv  `sample_id,cluster[,true_label]`: ids 1..n (or the dataset's sample ids),
 *               clusters 1-based, true labels as their ORIGINAL values (not 0-based codes)
 *   view.json   what the results view draws beyond run.json (absent from older bundles): the
 *               projection, missing views per sample, traces, stage times, the solver's charts
 *               (RunView, typed arrays as tagged base64: shared/wire.ts), so a reopened run
 *               shows as it did
 * A bundle holds everything needed to re-run it: every dataset file and its sha256, load options,
 * method, validated parameters, k, seed and protocol (STYLE.md rule 9).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { arch, platform } from 'node:process';
import { basename, dirname, extname, join } from 'node:path';
import { csvParseRows } from 'd3-dsv';
import { version as appVersion } from '../../package.json';
import { samplesByViewCount, type Decision, type MultiViewDataset } from '../core/dataset';
import type { MetricSummary, ProtocolKind, ProtocolResult, SeedRun } from '../core/protocol';
import { PREPROCESS_MODES, type Preprocess } from '../core/views/preprocess';
import type { Params, ParamValue } from '../core/solvers/types';
import type { LoadOptions } from '../shared/contract';
import { fromWireJson, toWireJson } from '../shared/wire';
import type { RunView } from '../shared/worker-protocol';
import { writeFolderAtomic } from './atomic';
import { DataError } from './errors';

/**
 * A bundle that could not be written (full disk, read-only or foreign folder, `--out` naming a
 * file): the message names the folder and the cause in words, with the system's code.
 */
export class BundleWriteError extends Error {
  constructor(
    readonly folder: string,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'BundleWriteError';
  }
}

/** The cause of a failed write in words: 'the disk is full (ENOSPC)'. */
function writeCause(e: NodeJS.ErrnoException): string {
  const code = e.code;
  switch (code) {
    case 'ENOSPC':
      return 'the disk is full (ENOSPC)';
    case 'EDQUOT':
      return 'the disk quota is exhausted (EDQUOT)';
    case 'EROFS':
      return 'the file system is read-only (EROFS)';
    case 'EACCES':
    case 'EPERM':
      return `permission denied (${code})`;
    case 'EEXIST':
      return `${e.path ? `'${e.path}'` : 'the folder'} is a file, not a folder (EEXIST)`;
    case 'ENOTDIR':
      return `a part of ${e.path ? `'${e.path}'` : 'the path'} is a file, not a folder (ENOTDIR)`;
    default:
      return e.message;
  }
}

/** Host-measured seconds. */
export interface RunTimings {
  readonly total_s: number;
  readonly load_s: number;
  readonly solve_s: number;
  readonly kmeans_s: number;
}

/** What a host hands over to write a bundle. */
export interface RunBundle {
  /** The dataset's (first) file. */
  readonly datasetPath: string;
  /** Every file of the dataset in view order (CSV/NPY: one per view); default [datasetPath]. */
  readonly datasetFiles?: readonly string[];
  readonly loadOptions: LoadOptions;
  readonly dataset: MultiViewDataset;
  readonly method: string;
  /** Validated parameters (every schema entry, defaults filled in). */
  readonly params: Params;
  readonly k: number;
  readonly seed: number;
  readonly protocol: ProtocolKind;
  readonly result: ProtocolResult;
  readonly timings: RunTimings;
  /** What the results view draws (backend/run-view.ts); written as view.json when given. */
  readonly view?: RunView;
  /** Creation time; default now. */
  readonly createdAt?: Date;
}

/** A file of a dataset and the sha256 (hex) of its bytes when the run was saved. */
export interface DatasetFile {
  readonly path: string;
  readonly sha256: string;
}

/** run.json, version 1. */
export interface RunRecord {
  readonly version: 1;
  readonly dataset: {
    /** The first file, and its sha256: what bundles before `files` held. */
    readonly path: string;
    readonly sha256: string;
    /** Every file of the dataset in view order; readRunBundle fills it in for older bundles. */
    readonly files: readonly DatasetFile[];
    readonly loadOptions: LoadOptions;
    readonly decisions: readonly Decision[];
    readonly missing: {
      readonly n: number;
      /** Samples present in each view, in view order. */
      readonly presentPerView: readonly number[];
      /** samplesByViewCount[c − 1]: samples present in exactly c views. */
      readonly samplesByViewCount: readonly number[];
    };
  };
  readonly method: string;
  readonly params: Readonly<Record<string, ParamValue>>;
  readonly k: number;
  readonly seed: number;
  readonly protocol: ProtocolKind;
  readonly seeds: readonly number[];
  /** The shared preprocessing of the views (absent in bundles before it existed: 'none'). */
  readonly preprocess?: Preprocess;
  /** The fill rule's note when a complete-view method's missing samples were imputed. */
  readonly fill?: string | null;
  readonly appVersion: string;
  readonly platform: { readonly os: string; readonly arch: string; readonly node: string };
  readonly timings: RunTimings;
  readonly objective: readonly number[];
  readonly iterations: number;
  readonly converged: boolean;
  readonly metrics: Readonly<Record<string, MetricSummary>>;
  readonly perSeed: readonly SeedRun[];
  readonly notes: readonly string[];
  readonly createdAt: string;
}

/** sha256 (hex) of a file's bytes, streamed. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** `20261130T063200123Z`: an ISO time usable in a file name. */
function stamp(d: Date): string {
  return d.toISOString().replace(/[-:.]/g, '');
}

/** A CSV field, quoted when it holds a comma, quote or line break. */
function csvField(v: string | number): string {
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** labels.csv: header, then one row per sample (cluster 1-based, original true labels). */
export function labelsCsv(ds: MultiViewDataset, labels: Int32Array): string {
  const truth = ds.labels;
  const lines = [truth ? 'sample_id,cluster,true_label' : 'sample_id,cluster'];
  for (let i = 0; i < ds.n; i++) {
    const row = [csvField(ds.sampleIds?.[i] ?? i + 1), String(labels[i]! + 1)];
    if (truth) row.push(csvField(truth.classes[truth.codes[i]!]!));
    lines.push(row.join(','));
  }
  return lines.join('\n') + '\n';
}

/** The run.json record of a bundle (the dataset files' sha256 computed by the caller). */
function recordOf(b: RunBundle, files: readonly DatasetFile[], createdAt: Date): RunRecord {
  const ds = b.dataset;
  return {
    version: 1,
    dataset: {
      path: files[0]!.path,
      sha256: files[0]!.sha256,
      files,
      loadOptions: b.loadOptions,
      decisions: ds.provenance.decisions,
      missing: {
        n: ds.n,
        presentPerView: ds.views.map((v) => v.present.length),
        samplesByViewCount: samplesByViewCount(ds).byCount,
      },
    },
    method: b.method,
    params: b.params,
    k: b.k,
    seed: b.seed,
    protocol: b.protocol,
    seeds: b.result.seeds,
    preprocess: b.result.preprocess,
    fill: b.result.fill,
    appVersion,
    platform: { os: platform, arch, node: process.version },
    timings: b.timings,
    objective: b.result.objective,
    iterations: b.result.iterations,
    converged: b.result.converged,
    metrics: b.result.metrics,
    perSeed: b.result.perSeed,
    notes: b.result.notes,
    createdAt: createdAt.toISOString(),
  };
}

/**
 * Writes a bundle folder `<dataset-basename>-<method>-<seed>-<timestamp>` inside `outDir`
 * (created if needed, private: io/atomic), atomically; a `-2`, `-3`, … suffix keeps the name
 * unique. Returns the folder's path; a failure is a BundleWriteError naming `outDir` and the
 * cause.
 */
export async function writeRunBundle(outDir: string, bundle: RunBundle): Promise<string> {
  const createdAt = bundle.createdAt ?? new Date();
  const paths = bundle.datasetFiles?.length ? bundle.datasetFiles : [bundle.datasetPath];
  const hashed: DatasetFile[] = [];
  for (const path of paths) {
    try {
      hashed.push({ path, sha256: await sha256File(path) });
    } catch (e) {
      throw new BundleWriteError(
        outDir,
        (e as NodeJS.ErrnoException).code,
        `cannot write the run bundle in '${outDir}': the dataset '${path}' could ` +
          `not be read again for its sha256 (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      );
    }
  }
  const record = recordOf(bundle, hashed, createdAt);
  const files: Record<string, string> = {
    'run.json': JSON.stringify(record, null, 2) + '\n',
    'labels.csv': labelsCsv(bundle.dataset, bundle.result.labels),
  };
  if (bundle.view !== undefined) files['view.json'] = toWireJson(bundle.view);
  const file = basename(paths[0]!);
  const base = `${basename(file, extname(file))}-${bundle.method}-${bundle.seed}-${stamp(createdAt)}`;
  for (let attempt = 1; ; attempt++) {
    const dir = join(outDir, attempt === 1 ? base : `${base}-${attempt}`);
    try {
      await writeFolderAtomic(dir, files);
      return dir;
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      // Only the final rename's EEXIST/ENOTEMPTY means the name is taken; mkdir's EEXIST on the
      // folder itself (or a parent) means a file stands there.
      const taken = (err.code === 'EEXIST' || err.code === 'ENOTEMPTY') && err.syscall === 'rename';
      if (taken && attempt < 1000) continue;
      throw new BundleWriteError(
        outDir,
        err.code,
        `cannot write the run bundle in '${outDir}': ${writeCause(err)}`,
      );
    }
  }
}

type Check = (v: unknown) => boolean;
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt: Check = (v) => Number.isSafeInteger(v);
const isNum: Check = (v) => typeof v === 'number';
const isStr: Check = (v) => typeof v === 'string';
const arrayOf =
  (c: Check): Check =>
  (v) =>
    Array.isArray(v) && v.every(c);

/** Field -> check of the top level of run.json version 1. */
const RECORD_CHECKS: Readonly<Record<string, Check>> = {
  version: (v) => v === 1,
  dataset: (v) =>
    isObject(v) &&
    isStr(v['path']) &&
    isStr(v['sha256']) &&
    isObject(v['loadOptions']) &&
    (v['files'] === undefined ||
      (Array.isArray(v['files']) &&
        v['files'].length > 0 &&
        v['files'].every((f) => isObject(f) && isStr(f['path']) && isStr(f['sha256'])))),
  method: isStr,
  params: (v) =>
    isObject(v) &&
    Object.values(v).every(
      (p) =>
        p === null ||
        ['number', 'boolean', 'string'].includes(typeof p) ||
        (Array.isArray(p) && p.every(isNum)),
    ),
  k: isInt,
  seed: isInt,
  protocol: (v) => v === 'single' || v === 'paper',
  seeds: arrayOf(isInt),
  preprocess: (v) => v === undefined || (PREPROCESS_MODES as readonly unknown[]).includes(v),
  fill: (v) => v === undefined || v === null || isStr(v),
  appVersion: isStr,
  platform: isObject,
  timings: (v) =>
    isObject(v) && ['total_s', 'load_s', 'solve_s', 'kmeans_s'].every((t) => isNum(v[t])),
  objective: arrayOf(isNum),
  iterations: isInt,
  converged: (v) => typeof v === 'boolean',
  metrics: (v) =>
    isObject(v) &&
    Object.values(v).every((m) => isObject(m) && isNum(m['mean']) && isNum(m['std'])),
  perSeed: arrayOf(isObject),
  notes: arrayOf(isStr),
  createdAt: isStr,
};

/**
 * The bundle folder `target` names: the folder itself, or its run.json. A DataError naming
 * `target` when it is neither.
 */
export async function bundleFolder(target: string): Promise<string> {
  const info = await stat(target).catch((e: NodeJS.ErrnoException) => {
    throw new DataError(
      target,
      e.code === 'ENOENT'
        ? 'no such run bundle (a folder holding run.json and labels.csv)'
        : `cannot read the run bundle (${e.code ?? e.message})`,
    );
  });
  if (info.isDirectory()) return target;
  if (basename(target) === 'run.json') return dirname(target);
  throw new DataError(target, 'is a file, not a run bundle (a folder holding run.json)');
}

/**
 * Reads `<dir>/run.json` and checks its shape; throws a DataError naming the file and the first
 * bad field otherwise. A record written before `dataset.files` reads with its one file there.
 */
export async function readRunBundle(dir: string): Promise<RunRecord> {
  const path = join(dir, 'run.json');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new DataError(
      path,
      code === 'ENOENT'
        ? 'missing: this folder is not a run bundle, or the bundle is incomplete'
        : `cannot read a run record (${code ?? (e as Error).message})`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text; the file may not be the user's.
    throw new DataError(path, 'is not valid JSON (the run record is damaged or truncated)');
  }
  if (!isObject(parsed)) throw new DataError(path, 'a run record must be a JSON object');
  for (const [field, check] of Object.entries(RECORD_CHECKS)) {
    if (!check(parsed[field])) {
      throw new DataError(
        path,
        field === 'version'
          ? `unsupported run record version ${JSON.stringify(parsed[field])} (expected 1)`
          : `field '${field}' is missing or malformed`,
      );
    }
  }
  const record = parsed as unknown as RunRecord;
  if (record.dataset.files !== undefined) return record;
  // A bundle written before `files`: its one file is the dataset.
  const { path: first, sha256 } = record.dataset;
  return { ...record, dataset: { ...record.dataset, files: [{ path: first, sha256 }] } };
}

/** What labels.csv of a bundle holds: per sample, its id, cluster and (when kept) true label. */
export interface BundleLabels {
  /** (n,) 0-based clusters. */
  readonly clusters: Int32Array;
  /** (n,) the true labels as written (original values, as text); null without a column. */
  readonly truth: readonly string[] | null;
  /** (n,) sample ids as written. */
  readonly sampleIds: readonly string[];
}

/**
 * Reads `<dir>/labels.csv` of a bundle whose run had `n` samples and `k` clusters; a DataError
 * naming the file, the row and what was expected otherwise.
 */
export async function readBundleLabels(dir: string, n: number, k: number): Promise<BundleLabels> {
  const path = join(dir, 'labels.csv');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new DataError(
      path,
      code === 'ENOENT'
        ? "missing: the bundle is incomplete (run.json's labels are kept in labels.csv)"
        : `cannot read the labels (${code ?? (e as Error).message})`,
    );
  }
  const rows = csvParseRows(text.replace(/\n$/, ''));
  const header = rows[0]?.join(',');
  if (header !== 'sample_id,cluster' && header !== 'sample_id,cluster,true_label') {
    throw new DataError(path, "expected the header 'sample_id,cluster[,true_label]'", { row: 1 });
  }
  const labelled = header.endsWith(',true_label');
  if (rows.length - 1 !== n) {
    throw new DataError(
      path,
      `expected ${n} rows of samples (run.json's n), found ${rows.length - 1}`,
    );
  }
  const clusters = new Int32Array(n);
  const truth: string[] = [];
  const sampleIds: string[] = [];
  for (let i = 0; i < n; i++) {
    const row = rows[i + 1]!;
    const c = Number(row[1]);
    if (row.length !== (labelled ? 3 : 2) || !Number.isInteger(c) || c < 1 || c > k) {
      throw new DataError(
        path,
        `expected ${labelled ? 3 : 2} cells with a cluster from 1 to ${k} (run.json's k)`,
        { row: i + 2 },
      );
    }
    clusters[i] = c - 1;
    sampleIds.push(row[0]!);
    if (labelled) truth.push(row[2]!);
  }
  return { clusters, truth: labelled ? truth : null, sampleIds };
}

/**
 * The view.json of a bundle whose run had `n` samples, or null when the bundle has none (one
 * written before view.json was kept); a DataError naming the file when it is damaged.
 */
export async function readBundleView(dir: string, n: number): Promise<RunView | null> {
  const path = join(dir, 'view.json');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new DataError(path, `cannot read the run's view (${(e as NodeJS.ErrnoException).code})`);
  }
  let view: unknown;
  try {
    view = fromWireJson(text);
  } catch {
    throw new DataError(path, 'is not valid JSON (the run view is damaged or truncated)');
  }
  const v = view as Partial<RunView> | null;
  const ok =
    isObject(v) &&
    isObject(v.projection) &&
    v.projection.x instanceof Float32Array &&
    v.projection.x.length === n &&
    v.projection.y instanceof Float32Array &&
    v.projection.y.length === n &&
    v.missingViews instanceof Uint8Array &&
    v.missingViews.length === n &&
    isObject(v.stageSeconds) &&
    isObject(v.traces) &&
    isObject(v.charts);
  if (!ok) {
    throw new DataError(
      path,
      `expected the run's view of ${n} samples (projection, missing views)`,
    );
  }
  return v as RunView;
}
