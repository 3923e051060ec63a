/**
 * The study spec (docs/studies.md): methods × datasets × parameter grid × seeds under one
 * protocol, as a JSON document. `validateStudySpec` turns raw JSON into a typed spec or throws a
 * StudySpecError listing every problem, each naming its field path
 * (`methods[2].params.lambda: expected a number from 0 to 1000000, got "x"`); `expandCells`
 * turns a valid spec into cells with stable ids, `k`-relative grid values resolved against each
 * dataset's k.
 *
 * A cell is one method entry × one dataset × one grid point; its seeds run inside it. Cell ids
 * ('c0001', ...) follow the expansion order (method entries, then datasets, then grid points with
 * the last parameter varying fastest), so the same spec gives the same ids on every restart.
 *
 * Pure: no IO. File paths are kept as given; hosts resolve them.
 */
import { MAX_SEEDS } from '../limits';
import { describeSpec, validateParams, ParamError } from '../solvers/params';
import { listSolvers } from '../solvers/registry';
import type { ParamSpec, ParamValue, Params, Solver } from '../solvers/types';
import { PREPROCESS_MODES, type Preprocess } from '../views/preprocess';
import { STUDY_METRICS, type StudyMetric } from './types';

export { STUDY_METRICS };

/** The first seed when the spec gives a count (the hosts' default seed, shared/defaults.ts). */
export const FIRST_SEED = 1;

/** Label-free selection rules: 'auto' takes silhouette when scored, else stability. */
export type LabelFreeRule = 'auto' | 'silhouette' | 'stability';

export interface StudyMethod {
  readonly method: string;
  /** Unique among the entries; defaults to `method`. */
  readonly label: string;
  /** Fixed parameters, as given (validated against the schema). */
  readonly params: Readonly<Record<string, ParamValue>>;
}

/** How a dataset's files are read (the loader's options, as the CLI's load flags). */
export interface StudyLoad {
  readonly mask?: string;
  readonly fold?: number;
  readonly views?: string;
  readonly labels?: string;
  readonly labelsFile?: string;
}

export interface StudyDataset {
  /** Unique among the entries; defaults to the first file's name without its extension. */
  readonly label: string;
  /** One MAT/NPZ file, or one CSV/NPY file per view. */
  readonly files: readonly string[];
  readonly load: StudyLoad;
  /**
   * A generated missing-rate series' entry: the fraction of samples that lose views (the mask
   * keeps 1 − rate of the samples complete, backend/missing.ts), else null.
   */
  readonly missingRate: number | null;
  /** The seed of the generated mask (series entries), else null. */
  readonly maskSeed: number | null;
}

/** A grid value: a parameter value, or for an integer parameter a `k`-relative 'k', '2k', ... */
export type GridValue = ParamValue;

export interface StudyProtocol {
  /** Clusters; null: each dataset's number of classes. */
  readonly k: number | null;
  readonly preprocess: Preprocess;
  /** k-means starts per seed (the paper protocol's 20 by default). */
  readonly replicates: number;
}

export interface StudySelection {
  /** The metric the oracle choice maximises (needs labels). */
  readonly oracle: StudyMetric;
  readonly labelFree: LabelFreeRule;
}

export interface StudySpec {
  readonly name: string;
  readonly methods: readonly StudyMethod[];
  readonly datasets: readonly StudyDataset[];
  /** Method label -> parameter -> values. */
  readonly grid: Readonly<Record<string, Readonly<Record<string, readonly GridValue[]>>>>;
  readonly seeds: readonly number[];
  readonly protocol: StudyProtocol;
  readonly metrics: readonly StudyMetric[];
  readonly selection: StudySelection;
}

/** One unit of work: a method entry on a dataset at one grid point, for every seed. */
export interface StudyCell {
  readonly id: string;
  readonly method: string;
  readonly label: string;
  readonly dataset: string;
  /** The dataset entry's missing rate (a generated series), else null. */
  readonly missingRate: number | null;
  /** The grid point alone ({} without a grid). */
  readonly grid: Readonly<Record<string, ParamValue>>;
  /** Every parameter of the run: fixed ∪ grid, validated, `k`-relative values resolved. */
  readonly params: Params;
}

export class StudySpecError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid study spec:\n  ${problems.join('\n  ')}`);
    this.name = 'StudySpecError';
  }
}

const KREL = /^([0-9]*\.?[0-9]*)k$/;

/** The multiple of k a grid string means ('k' → 1, '2k' → 2), or null when it is not one. */
export function kMultiple(v: ParamValue): number | null {
  if (typeof v !== 'string') return null;
  const m = KREL.exec(v.trim());
  if (!m) return null;
  const f = m[1] === '' ? 1 : Number(m[1]);
  return Number.isFinite(f) && f > 0 ? f : null;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const show = (v: unknown): string => JSON.stringify(v) ?? String(v);

/** The problem with `value` for parameter `spec` (null when it is valid). */
function paramProblem(spec: ParamSpec, value: ParamValue): string | null {
  try {
    validateParams({ p: spec }, { p: value });
    return null;
  } catch (e) {
    if (e instanceof ParamError) return `expected ${describeSpec(spec)}, got ${show(value)}`;
    throw e;
  }
}

/** Collects problems while reading one spec. */
class Reader {
  readonly problems: string[] = [];
  fail(path: string, msg: string): void {
    this.problems.push(`${path}: ${msg}`);
  }
  string(path: string, v: unknown, fallback?: string): string {
    if (v === undefined && fallback !== undefined) return fallback;
    if (typeof v === 'string' && v.trim() !== '') return v;
    this.fail(path, `expected a non-empty string, got ${show(v)}`);
    return '';
  }
  int(path: string, v: unknown, min: number, max: number): number {
    if (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max) return v;
    this.fail(path, `expected an integer from ${min} to ${max}, got ${show(v)}`);
    return min;
  }
  keys(path: string, o: Record<string, unknown>, known: readonly string[]): void {
    for (const key of Object.keys(o)) {
      if (!known.includes(key))
        this.fail(`${path}${key}`, `unknown field; fields: ${known.join(', ')}`);
    }
  }
}

function readMethods(r: Reader, raw: unknown): StudyMethod[] {
  if (!Array.isArray(raw) || raw.length === 0) {
    r.fail('methods', `expected a non-empty list of {method, label?, params?}, got ${show(raw)}`);
    return [];
  }
  const solvers = new Map(listSolvers().map((s) => [s.name, s] as const));
  const out: StudyMethod[] = [];
  raw.forEach((m: unknown, i) => {
    const path = `methods[${i}]`;
    if (!isRecord(m)) return r.fail(path, `expected {method, label?, params?}, got ${show(m)}`);
    r.keys(`${path}.`, m, ['method', 'label', 'params']);
    const method = r.string(`${path}.method`, m['method']);
    const solver = solvers.get(method);
    if (method !== '' && !solver) {
      r.fail(
        `${path}.method`,
        `unknown method ${show(method)}; methods: ${[...solvers.keys()].join(', ')}`,
      );
    }
    const label = r.string(`${path}.label`, m['label'], method);
    if (out.some((o) => o.label === label)) {
      r.fail(`${path}.label`, `${show(label)} is already used: give each entry its own label`);
    }
    const params = m['params'] ?? {};
    if (!isRecord(params)) r.fail(`${path}.params`, `expected an object, got ${show(params)}`);
    else if (solver) checkParams(r, `${path}.params`, solver, params);
    out.push({
      method,
      label,
      params: isRecord(params) ? (params as Record<string, ParamValue>) : {},
    });
  });
  return out;
}

/** Each fixed parameter against the method's schema. */
function checkParams(
  r: Reader,
  path: string,
  solver: Solver,
  params: Record<string, unknown>,
): void {
  for (const [name, value] of Object.entries(params)) {
    const spec = solver.schema[name];
    if (!spec) {
      r.fail(
        `${path}.${name}`,
        `unknown parameter; parameters: ${Object.keys(solver.schema).join(', ')}`,
      );
      continue;
    }
    const problem = paramProblem(spec, value as ParamValue);
    if (problem) r.fail(`${path}.${name}`, problem);
  }
}

function fileLabel(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? file;
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

function readDatasets(r: Reader, raw: unknown): StudyDataset[] {
  if (!Array.isArray(raw) || raw.length === 0) {
    r.fail('datasets', `expected a non-empty list of {file | files, label?}, got ${show(raw)}`);
    return [];
  }
  const out: StudyDataset[] = [];
  raw.forEach((d: unknown, i) => {
    const path = `datasets[${i}]`;
    if (!isRecord(d)) return r.fail(path, `expected {file | files, label?}, got ${show(d)}`);
    const fields = ['file', 'files', 'label', 'mask', 'fold', 'views', 'labels', 'labelsFile'];
    r.keys(`${path}.`, d, [...fields, 'missingRates', 'maskSeed']);
    let files: string[] = [];
    if (d['file'] !== undefined && d['files'] !== undefined) {
      r.fail(path, 'give either file or files, not both');
    } else if (d['files'] !== undefined) {
      const f = d['files'];
      if (!Array.isArray(f) || f.length === 0) {
        r.fail(`${path}.files`, `expected a non-empty list of paths, got ${show(f)}`);
      } else files = f.map((x: unknown, j) => r.string(`${path}.files[${j}]`, x));
    } else files = [r.string(`${path}.file`, d['file'])];
    const label = r.string(`${path}.label`, d['label'], fileLabel(files[0] ?? ''));
    if (out.some((o) => o.label === label)) {
      r.fail(`${path}.label`, `${show(label)} is already used: give each dataset its own label`);
    }
    const load: { -readonly [K in keyof StudyLoad]: StudyLoad[K] } = {};
    for (const key of ['mask', 'views', 'labels', 'labelsFile'] as const) {
      if (d[key] !== undefined) load[key] = r.string(`${path}.${key}`, d[key]);
    }
    if (d['fold'] !== undefined) {
      load.fold = r.int(`${path}.fold`, d['fold'], 1, Number.MAX_SAFE_INTEGER);
      if (load.mask === undefined) r.fail(`${path}.fold`, 'a fold needs a mask');
    }
    if (d['missingRates'] === undefined) {
      if (d['maskSeed'] !== undefined)
        r.fail(`${path}.maskSeed`, 'a mask seed goes with missingRates');
      out.push({ label, files, load, missingRate: null, maskSeed: null });
      return;
    }
    if (load.mask !== undefined)
      r.fail(
        `${path}.mask`,
        'a missing-rate series makes its own masks: give mask or missingRates, not both',
      );
    const maskSeed =
      d['maskSeed'] === undefined
        ? FIRST_SEED
        : r.int(`${path}.maskSeed`, d['maskSeed'], 0, Number.MAX_SAFE_INTEGER);
    for (const rate of readRates(r, `${path}.missingRates`, d['missingRates'])) {
      const entry = `${label}@${rate}`;
      if (out.some((o) => o.label === entry))
        r.fail(`${path}.label`, `${show(entry)} is already used`);
      out.push({ label: entry, files, load, missingRate: rate, maskSeed });
    }
  });
  return out;
}

/** A series' missing rates: distinct numbers from 0 (included) to 1 (excluded). */
function readRates(r: Reader, path: string, raw: unknown): number[] {
  if (!Array.isArray(raw) || raw.length === 0) {
    r.fail(path, `expected a non-empty list of rates from 0 to 1 (excluded), got ${show(raw)}`);
    return [];
  }
  const rates = raw.filter((x: unknown, j): x is number => {
    const ok = typeof x === 'number' && x >= 0 && x < 1;
    if (!ok) r.fail(`${path}[${j}]`, `expected a number from 0 to 1 (excluded), got ${show(x)}`);
    return ok;
  });
  if (new Set(rates).size !== rates.length) r.fail(path, 'a rate appears twice');
  return rates;
}

function readGrid(
  r: Reader,
  raw: unknown,
  methods: readonly StudyMethod[],
): Record<string, Record<string, GridValue[]>> {
  if (raw === undefined) return {};
  if (!isRecord(raw)) {
    r.fail('grid', `expected {methodLabel: {param: [values]}}, got ${show(raw)}`);
    return {};
  }
  const solvers = new Map(listSolvers().map((s) => [s.name, s] as const));
  const out: Record<string, Record<string, GridValue[]>> = {};
  for (const [label, params] of Object.entries(raw)) {
    const path = `grid.${label}`;
    const entry = methods.find((m) => m.label === label);
    if (!entry) {
      r.fail(
        path,
        `no method entry has this label; labels: ${methods.map((m) => m.label).join(', ')}`,
      );
      continue;
    }
    if (!isRecord(params)) {
      r.fail(path, `expected {param: [values]}, got ${show(params)}`);
      continue;
    }
    const solver = solvers.get(entry.method);
    const grid: Record<string, GridValue[]> = {};
    for (const [name, values] of Object.entries(params)) {
      const p = `${path}.${name}`;
      const spec = solver?.schema[name];
      if (solver && !spec) {
        r.fail(p, `unknown parameter; parameters: ${Object.keys(solver.schema).join(', ')}`);
        continue;
      }
      if (Object.hasOwn(entry.params, name)) {
        r.fail(p, `also fixed in the entry's params: give it in one place`);
      }
      if (!Array.isArray(values) || values.length === 0) {
        r.fail(p, `expected a non-empty list of values, got ${show(values)}`);
        continue;
      }
      values.forEach((v: unknown, j) => {
        if (!spec) return;
        if (kMultiple(v as ParamValue) !== null) {
          if (spec.type !== 'int')
            r.fail(`${p}[${j}]`, `${show(v)}: only integer parameters take k-relative values`);
          return;
        }
        const problem = paramProblem(spec, v as ParamValue);
        if (problem) r.fail(`${p}[${j}]`, problem);
      });
      grid[name] = values as GridValue[];
    }
    out[label] = grid;
  }
  return out;
}

function readSeeds(r: Reader, raw: unknown): number[] {
  if (raw === undefined) raw = 20;
  if (typeof raw === 'number') {
    const n = r.int('seeds', raw, 1, MAX_SEEDS);
    return Array.from({ length: n }, (_, i) => FIRST_SEED + i);
  }
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_SEEDS) {
    r.fail('seeds', `expected a count from 1 to ${MAX_SEEDS} or a list of seeds, got ${show(raw)}`);
    return [FIRST_SEED];
  }
  const seeds = raw.map((s: unknown, i) => r.int(`seeds[${i}]`, s, 0, Number.MAX_SAFE_INTEGER));
  if (new Set(seeds).size !== seeds.length) r.fail('seeds', 'a seed appears twice');
  return seeds;
}

function readProtocol(r: Reader, raw: unknown): StudyProtocol {
  const o = raw ?? {};
  if (!isRecord(o)) {
    r.fail('protocol', `expected {k?, preprocess?, replicates?}, got ${show(raw)}`);
    return { k: null, preprocess: 'none', replicates: 20 };
  }
  r.keys('protocol.', o, ['k', 'preprocess', 'replicates']);
  const k = o['k'] === undefined ? null : r.int('protocol.k', o['k'], 2, Number.MAX_SAFE_INTEGER);
  let preprocess: Preprocess = 'none';
  if (o['preprocess'] !== undefined) {
    if ((PREPROCESS_MODES as readonly unknown[]).includes(o['preprocess'])) {
      preprocess = o['preprocess'] as Preprocess;
    } else {
      r.fail(
        'protocol.preprocess',
        `expected one of ${PREPROCESS_MODES.join(', ')}, got ${show(o['preprocess'])}`,
      );
    }
  }
  const replicates =
    o['replicates'] === undefined ? 20 : r.int('protocol.replicates', o['replicates'], 1, 1000);
  return { k, preprocess, replicates };
}

function readMetrics(r: Reader, raw: unknown): StudyMetric[] {
  if (raw === undefined) return [...STUDY_METRICS];
  const known = STUDY_METRICS as readonly unknown[];
  if (!Array.isArray(raw) || raw.length === 0) {
    r.fail('metrics', `expected a non-empty list of ${STUDY_METRICS.join(', ')}, got ${show(raw)}`);
    return [...STUDY_METRICS];
  }
  raw.forEach((m: unknown, i) => {
    if (!known.includes(m))
      r.fail(`metrics[${i}]`, `expected one of ${STUDY_METRICS.join(', ')}, got ${show(m)}`);
  });
  return STUDY_METRICS.filter((m) => raw.includes(m));
}

function readSelection(r: Reader, raw: unknown): StudySelection {
  const o = raw ?? {};
  const fallback: StudySelection = { oracle: 'acc', labelFree: 'auto' };
  if (!isRecord(o)) {
    r.fail('selection', `expected {oracle?, labelFree?}, got ${show(raw)}`);
    return fallback;
  }
  r.keys('selection.', o, ['oracle', 'labelFree']);
  const oracle = o['oracle'] ?? 'acc';
  const labelFree = o['labelFree'] ?? 'auto';
  const oracles = STUDY_METRICS.filter((m) => m !== 'silhouette');
  const rules: readonly LabelFreeRule[] = ['auto', 'silhouette', 'stability'];
  if (!(oracles as readonly unknown[]).includes(oracle)) {
    r.fail('selection.oracle', `expected one of ${oracles.join(', ')}, got ${show(oracle)}`);
  }
  if (!(rules as readonly unknown[]).includes(labelFree)) {
    r.fail('selection.labelFree', `expected one of ${rules.join(', ')}, got ${show(labelFree)}`);
  }
  return {
    oracle: (oracles as readonly unknown[]).includes(oracle) ? (oracle as StudyMetric) : 'acc',
    labelFree: (rules as readonly unknown[]).includes(labelFree)
      ? (labelFree as LabelFreeRule)
      : 'auto',
  };
}

/** The typed spec of `raw` (parsed JSON), or a StudySpecError listing every problem. */
export function validateStudySpec(raw: unknown): StudySpec {
  const r = new Reader();
  if (!isRecord(raw)) throw new StudySpecError([`(top): expected an object, got ${show(raw)}`]);
  r.keys('', raw, [
    'name',
    'methods',
    'datasets',
    'grid',
    'seeds',
    'protocol',
    'metrics',
    'selection',
  ]);
  const name = r.string('name', raw['name'], 'study');
  const methods = readMethods(r, raw['methods']);
  const spec: StudySpec = {
    name,
    methods,
    datasets: readDatasets(r, raw['datasets']),
    grid: readGrid(r, raw['grid'], methods),
    seeds: readSeeds(r, raw['seeds']),
    protocol: readProtocol(r, raw['protocol']),
    metrics: readMetrics(r, raw['metrics']),
    selection: readSelection(r, raw['selection']),
  };
  if (r.problems.length > 0) throw new StudySpecError(r.problems);
  return spec;
}

/** Every combination of the grid's values, the last parameter varying fastest. */
function gridPoints(
  grid: Readonly<Record<string, readonly GridValue[]>>,
): Record<string, GridValue>[] {
  let points: Record<string, GridValue>[] = [{}];
  for (const [name, values] of Object.entries(grid)) {
    points = points.flatMap((p) => values.map((v) => ({ ...p, [name]: v })));
  }
  return points;
}

/**
 * The cells of a valid spec, in the stable order above. `kOf(datasetLabel)` gives the k each
 * dataset runs with (`k`-relative values resolve against it: '2k' with k = 10 is 20, rounded);
 * a resolved value out of the parameter's bounds is a StudySpecError naming the grid path.
 */
export function expandCells(spec: StudySpec, kOf: (dataset: string) => number): StudyCell[] {
  const cells: StudyCell[] = [];
  const problems: string[] = [];
  for (const m of spec.methods) {
    const solver = listSolvers().find((s) => s.name === m.method)!;
    const points = gridPoints(spec.grid[m.label] ?? {});
    for (const d of spec.datasets) {
      const k = kOf(d.label);
      for (const point of points) {
        const grid: Record<string, ParamValue> = {};
        for (const [name, v] of Object.entries(point)) {
          const f = kMultiple(v);
          grid[name] = f === null ? v : Math.round(f * k);
          const spec = solver.schema[name]!;
          const problem = f === null ? null : paramProblem(spec, grid[name]);
          if (problem)
            problems.push(
              `grid.${m.label}.${name}: ${show(v)} with k = ${k} (${d.label}): ${problem}`,
            );
        }
        const id = `c${String(cells.length + 1).padStart(4, '0')}`;
        if (problems.length > 0) continue;
        const params = validateParams(solver.schema, { ...m.params, ...grid });
        // The grid point as the run used it (a string '0.1' from a command line becomes 0.1).
        for (const name of Object.keys(grid)) grid[name] = params[name]!;
        cells.push({
          id,
          method: m.method,
          label: m.label,
          dataset: d.label,
          missingRate: d.missingRate,
          grid,
          params,
        });
      }
    }
  }
  if (problems.length > 0) throw new StudySpecError([...new Set(problems)]);
  return cells;
}
