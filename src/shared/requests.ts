/**
 * The run-time checks of the contract's request payloads (shared/contract.ts's
 * REQUEST_PARSERS): each returns its request typed, or throws an `InvalidRequest` error naming
 * the channel and the field.
 */
import type { DatasetOpenRequest, LoadOptions, RunEstimateRequest, RunStart } from './contract';
import type { ParamValue } from '../core/solvers/types';
import { PREPROCESS_MODES, type Preprocess } from '../core/views/preprocess';

/** Validates untrusted load options: known keys only, each of the right type. */
export function parseLoadOptions(value: unknown): LoadOptions {
  const o = expectObject('options', value, [
    'mask',
    'fold',
    'views',
    'labels',
    'orientation',
    'labelsFile',
  ]);
  const out: LoadOptions = {};
  for (const key of ['mask', 'views', 'labels', 'labelsFile'] as const) {
    const v = o[key];
    if (v === undefined) continue;
    if (typeof v !== 'string' || v === '') {
      throw invalid('options', `'${key}' must be a non-empty string`);
    }
    out[key] = v;
  }
  const fold = o['fold'];
  if (fold !== undefined) {
    if (typeof fold !== 'number' || !Number.isInteger(fold) || fold < 1) {
      throw invalid('options', "'fold' must be a positive integer");
    }
    out.fold = fold;
  }
  const orientation = o['orientation'];
  if (orientation !== undefined) {
    if (orientation !== 'n x d' && orientation !== 'd x n') {
      throw invalid('options', `'orientation' must be "n x d" or "d x n"`);
    }
    out.orientation = orientation;
  }
  return out;
}

/** View files one dataset may have (a bound on the request, far above any real dataset). */
export const MAX_VIEW_FILES = 64;

/** Validates a `datasets:open` request: `path`, or `files` (1..MAX_VIEW_FILES paths), not both. */
export function parseDatasetOpen(p: unknown): DatasetOpenRequest {
  const where = 'datasets:open';
  const o = expectObject(where, p, ['path', 'files', 'options']);
  const files = o['files'];
  const options = (): LoadOptions | undefined =>
    o['options'] === undefined ? undefined : parseLoadOptions(o['options']);
  if (files !== undefined) {
    if (o['path'] !== undefined) throw invalid(where, "give 'path' or 'files', not both");
    if (!Array.isArray(files) || files.length === 0 || files.length > MAX_VIEW_FILES) {
      throw invalid(where, `'files' must be a list of 1 to ${MAX_VIEW_FILES} paths`);
    }
    const list = files.map((f: unknown, i) => {
      if (typeof f !== 'string' || f.trim() === '') {
        throw invalid(where, `'files[${i}]' must be a non-empty string`);
      }
      return f;
    });
    const parsed = options();
    return parsed === undefined ? { files: list } : { files: list, options: parsed };
  }
  const path = o['path'];
  if (typeof path !== 'string' || path.trim() === '') {
    throw invalid(where, "'path' must be a non-empty string");
  }
  const parsed = options();
  return parsed === undefined ? { path } : { path, options: parsed };
}

/**
 * Bounds of a run request's parameter record, so that a record echoed to every listener of
 * the run queue stays small: at most MAX_PARAMS parameters, string values of at most
 * MAX_PARAM_STRING characters, and MAX_PARAMS_BYTES of JSON in all.
 */
export const MAX_PARAMS = 64;
export const MAX_PARAM_STRING = 1024;
export const MAX_PARAMS_BYTES = 16 * 1024;

/** Validates a run request's shape; the parameter values themselves are the worker's to check. */
export function parseRunStart(p: unknown): RunStart {
  const where = 'runs:start';
  const o = expectObject(where, p, [
    'datasetId',
    'method',
    'params',
    'k',
    'seed',
    'protocol',
    'seeds',
    'batch',
    'preprocess',
  ]);
  const datasetId = expectString(where, o, 'datasetId');
  const method = expectString(where, o, 'method');
  const params = parseParams(where, o['params']);
  const seed = o['seed'];
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0) {
    throw invalid(where, "'seed' must be a non-negative integer");
  }
  const protocol = o['protocol'];
  if (protocol !== 'single' && protocol !== 'paper') {
    throw invalid(where, `'protocol' must be 'single' or 'paper'`);
  }
  const out: { -readonly [K in keyof RunStart]: RunStart[K] } = {
    datasetId,
    method,
    params,
    seed,
    protocol,
  };
  for (const key of ['k', 'seeds'] as const) {
    const v = positiveInteger(where, o, key);
    if (v !== undefined) out[key] = v;
  }
  if (o['batch'] !== undefined) out.batch = expectString(where, o, 'batch');
  const preprocess = parsePreprocess(where, o['preprocess']);
  if (preprocess !== undefined) out.preprocess = preprocess;
  return out;
}

/** An optional `preprocess` field: one of PREPROCESS_MODES, else an error listing them. */
export function parsePreprocess(where: string, v: unknown): Preprocess | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'string' && (PREPROCESS_MODES as readonly string[]).includes(v)) {
    return v as Preprocess;
  }
  const modes = PREPROCESS_MODES.map((m) => `'${m}'`).join(', ');
  throw invalid(
    where,
    `'preprocess' must be one of ${modes}, got ${JSON.stringify(v) ?? 'undefined'}`,
  );
}

/** Validates a `runs:estimate` request's shape, with the bounds of `runs:start`. */
export function parseRunEstimate(p: unknown): RunEstimateRequest {
  const where = 'runs:estimate';
  const o = expectObject(where, p, ['datasetId', 'method', 'params', 'k', 'protocol', 'seeds']);
  const out: { -readonly [K in keyof RunEstimateRequest]: RunEstimateRequest[K] } = {
    datasetId: expectString(where, o, 'datasetId'),
    method: expectString(where, o, 'method'),
    params: parseParams(where, o['params']),
  };
  const k = positiveInteger(where, o, 'k');
  if (k !== undefined) out.k = k;
  const protocol = o['protocol'];
  if (protocol !== undefined) {
    if (protocol !== 'single' && protocol !== 'paper') {
      throw invalid(where, `'protocol' must be 'single' or 'paper'`);
    }
    out.protocol = protocol;
  }
  const seeds = positiveInteger(where, o, 'seeds');
  if (seeds !== undefined) out.seeds = seeds;
  return out;
}

/** A parameter record within the bounds above (absent: empty); values are checked later. */
export function parseParams(where: string, raw: unknown): Record<string, ParamValue> {
  const rawParams = raw ?? {};
  if (typeof rawParams !== 'object' || rawParams === null || Array.isArray(rawParams)) {
    throw invalid(where, "'params' must be an object");
  }
  const entries = Object.entries(rawParams);
  if (entries.length > MAX_PARAMS) {
    throw invalid(
      where,
      `'params' has ${entries.length} parameters; at most ${MAX_PARAMS} are accepted`,
    );
  }
  const params: Record<string, ParamValue> = {};
  for (const [name, value] of entries) {
    // A per-view number list ('numbers' parameters, e.g. kernel widths) or null (its default).
    const list = Array.isArray(value) && value.every((x) => typeof x === 'number');
    if (!list && value !== null && !['number', 'boolean', 'string'].includes(typeof value)) {
      throw invalid(
        where,
        `parameter '${name}' must be a number, boolean, string, list of numbers or null`,
      );
    }
    if (name.length > MAX_PARAM_STRING) {
      throw invalid(where, `a parameter name is longer than ${MAX_PARAM_STRING} characters`);
    }
    if (typeof value === 'string' && value.length > MAX_PARAM_STRING) {
      throw invalid(
        where,
        `parameter '${name}' is a string of ${value.length} characters; at most ${MAX_PARAM_STRING} are accepted`,
      );
    }
    params[name] = value as ParamValue;
  }
  const bytes = JSON.stringify(params).length;
  if (bytes > MAX_PARAMS_BYTES) {
    throw invalid(
      where,
      `'params' takes ${bytes} bytes as JSON; at most ${MAX_PARAMS_BYTES} are accepted`,
    );
  }
  return params;
}

/** An optional positive integer field. */
function positiveInteger(
  where: string,
  o: Readonly<Record<string, unknown>>,
  key: string,
): number | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) {
    throw invalid(where, `'${key}' must be a positive integer`);
  }
  return v;
}

export function expectString(
  where: string,
  o: Readonly<Record<string, unknown>>,
  key: string,
): string {
  const v = o[key];
  if (typeof v !== 'string' || v.trim() === '') {
    throw invalid(where, `'${key}' must be a non-empty string`);
  }
  return v;
}

export function expectId(where: string, p: unknown): string {
  return expectString(where, expectObject(where, p, ['id']), 'id');
}

export function invalid(where: string, what: string): Error {
  const e = new Error(`${where}: ${what}`);
  e.name = 'InvalidRequest';
  return e;
}

export function expectNull(channel: string, p: unknown): null {
  if (p !== null && p !== undefined) throw invalid(channel, 'expects no payload (null)');
  return null;
}

export function expectObject(
  where: string,
  p: unknown,
  allowed: readonly string[],
): Readonly<Record<string, unknown>> {
  if (typeof p !== 'object' || p === null || Array.isArray(p)) {
    throw invalid(where, 'expects an object');
  }
  const o = p as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if (!allowed.includes(key)) throw invalid(where, `unknown field '${key}'`);
  }
  return o;
}
