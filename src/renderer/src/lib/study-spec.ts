/**
 * The Study screen's spec draft and its JSON, the file `mvstudio study run` reads
 * (docs/studies.md). The draft is the spec's own shape, so a spec written for the CLI loads
 * unchanged (`draftFromJson`) and a draft saves as a file the CLI accepts (`draftToJson`); the
 * host validates it when the study starts, with messages naming the field. Nothing here checks
 * bounds or computes: the grid text is only split into values of the parameter's type.
 */
import type { DatasetEntry, ParamInfo, ParamValue, Preprocess } from '../../../shared/contract';
import { STUDY_METRICS, type StudyMetric } from '../../../shared/study';

export type LabelFreeRule = 'auto' | 'silhouette' | 'stability';

export { STUDY_METRICS };

/** The seeds a spec file without `seeds` runs (core/study/spec.ts); a new draft has fewer. */
const SPEC_DEFAULT_SEEDS = 20;

/** One method entry: a registered method, its label in the tables, fixed parameters. */
export interface DraftMethod {
  method: string;
  label: string;
  params: Record<string, ParamValue>;
}

/** A dataset entry as the spec holds it: `{file}` or `{files}`, load options, a label. */
export type DraftDataset = Record<string, unknown>;

export interface StudyDraft {
  name: string;
  methods: DraftMethod[];
  datasets: DraftDataset[];
  /** Method label → parameter → values (`k`-relative strings for integer parameters). */
  grid: Record<string, Record<string, ParamValue[]>>;
  /** A count n (seeds 1..n) or a list of seeds. */
  seeds: number | number[];
  protocol: { k?: number; preprocess: Preprocess; replicates: number };
  metrics: StudyMetric[];
  selection: { oracle: StudyMetric; labelFree: LabelFreeRule };
}

export function emptyDraft(): StudyDraft {
  return {
    name: 'study',
    methods: [],
    datasets: [],
    grid: {},
    seeds: 5,
    protocol: { preprocess: 'none', replicates: 20 },
    metrics: [...STUDY_METRICS],
    selection: { oracle: 'acc', labelFree: 'auto' },
  };
}

/** The spec file's JSON of a draft: every field written out, so the file says what runs. */
export function draftToJson(d: StudyDraft): Record<string, unknown> {
  const grid: Record<string, Record<string, ParamValue[]>> = {};
  for (const m of d.methods) {
    const g = Object.entries(d.grid[m.label] ?? {}).filter(([, values]) => values.length > 0);
    if (g.length > 0) grid[m.label] = Object.fromEntries(g);
  }
  return {
    name: d.name,
    methods: d.methods.map((m) => ({ method: m.method, label: m.label, params: { ...m.params } })),
    datasets: d.datasets.map((x) => ({ ...x })),
    grid,
    seeds: Array.isArray(d.seeds) ? [...d.seeds] : d.seeds,
    protocol: {
      ...(d.protocol.k !== undefined ? { k: d.protocol.k } : {}),
      preprocess: d.protocol.preprocess,
      replicates: d.protocol.replicates,
    },
    metrics: [...d.metrics],
    selection: { ...d.selection },
  };
}

export class SpecFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SpecFileError';
  }
}

const isRecord = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * A draft from a spec file's JSON. Only the shape the screen needs is checked here (a field
 * of the wrong kind is named); the values are the host's to validate, so a spec the CLI
 * accepts loads as it is and saves back to the same spec.
 */
export function draftFromJson(raw: unknown): StudyDraft {
  if (!isRecord(raw)) throw new SpecFileError('the spec file holds no JSON object');
  const d = emptyDraft();
  if (typeof raw['name'] === 'string') d.name = raw['name'];
  const methods = raw['methods'] ?? [];
  if (!Array.isArray(methods)) throw new SpecFileError("'methods' is not a list");
  d.methods = methods.map((m: unknown, i) => {
    if (!isRecord(m) || typeof m['method'] !== 'string') {
      throw new SpecFileError(`methods[${i}]: expected {method, label?, params?}`);
    }
    const params = m['params'] ?? {};
    if (!isRecord(params)) throw new SpecFileError(`methods[${i}].params is not an object`);
    const label = typeof m['label'] === 'string' ? m['label'] : m['method'];
    return { method: m['method'], label, params: { ...(params as Record<string, ParamValue>) } };
  });
  const datasets = raw['datasets'] ?? [];
  if (!Array.isArray(datasets) || !datasets.every(isRecord)) {
    throw new SpecFileError("'datasets' is not a list of objects");
  }
  d.datasets = datasets.map((x) => ({ ...x }));
  const grid = raw['grid'] ?? {};
  if (!isRecord(grid)) throw new SpecFileError("'grid' is not an object");
  for (const [label, g] of Object.entries(grid)) {
    if (!isRecord(g) || !Object.values(g).every(Array.isArray)) {
      throw new SpecFileError(`grid.${label}: expected parameter → list of values`);
    }
    d.grid[label] = Object.fromEntries(
      Object.entries(g).map(([k, v]) => [k, [...(v as ParamValue[])]]),
    );
  }
  const seeds = raw['seeds'];
  // A spec without seeds runs the validator's default, not the new draft's.
  d.seeds = SPEC_DEFAULT_SEEDS;
  if (typeof seeds === 'number') d.seeds = seeds;
  else if (Array.isArray(seeds)) d.seeds = seeds.filter((s): s is number => typeof s === 'number');
  const p = raw['protocol'];
  if (isRecord(p)) {
    if (typeof p['k'] === 'number') d.protocol.k = p['k'];
    if (typeof p['preprocess'] === 'string') d.protocol.preprocess = p['preprocess'] as Preprocess;
    if (typeof p['replicates'] === 'number') d.protocol.replicates = p['replicates'];
  }
  if (Array.isArray(raw['metrics'])) d.metrics = raw['metrics'] as StudyMetric[];
  const s = raw['selection'];
  if (isRecord(s)) {
    if (typeof s['oracle'] === 'string') d.selection.oracle = s['oracle'] as StudyMetric;
    if (typeof s['labelFree'] === 'string') {
      d.selection.labelFree = s['labelFree'] as LabelFreeRule;
    }
  }
  return d;
}

/** The spec entry of an open dataset: its files, the options it was read with, a label. */
export function datasetEntry(e: DatasetEntry, label: string): DraftDataset {
  const out: DraftDataset = e.files.length > 1 ? { files: [...e.files] } : { file: e.path };
  out['label'] = label;
  const o = e.options;
  if (o.mask !== undefined) out['mask'] = o.mask;
  if (o.fold !== undefined) out['fold'] = o.fold;
  if (o.views !== undefined) out['views'] = o.views;
  if (o.labels !== undefined) out['labels'] = o.labels;
  if (o.labelsFile !== undefined) out['labelsFile'] = o.labelsFile;
  return out;
}

/** The files of a dataset entry, for display and for matching an open dataset. */
export function entryFiles(d: DraftDataset): string[] {
  if (typeof d['file'] === 'string') return [d['file']];
  const files = d['files'];
  return Array.isArray(files) ? files.filter((f): f is string => typeof f === 'string') : [];
}

/** Whether a parameter can be put on a grid (per-view number lists cannot). */
export const griddable = (p: ParamInfo): boolean => p.spec.type !== 'numbers';

const K_RELATIVE = /^([0-9]*\.?[0-9]*)k$/;

/**
 * The grid values typed for a parameter, comma-separated: numbers for a number, whole numbers
 * or `k`-relative values ('k', '2k', '0.5k') for an integer, true/false for a boolean, the
 * schema's words for an enum. Returns the values, or the first problem in words.
 */
export function parseGridText(
  p: ParamInfo,
  text: string,
): { values: ParamValue[]; problem: string | null } {
  const tokens = text
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  const values: ParamValue[] = [];
  for (const t of tokens) {
    const s = p.spec;
    if (s.type === 'int') {
      if (K_RELATIVE.test(t)) values.push(t);
      else if (/^-?[0-9]+$/.test(t)) values.push(Number(t));
      else return { values, problem: `${p.name}: '${t}' is not a whole number or k, 2k, …` };
    } else if (s.type === 'number') {
      const v = Number(t);
      if (!Number.isFinite(v)) return { values, problem: `${p.name}: '${t}' is not a number` };
      values.push(v);
    } else if (s.type === 'boolean') {
      if (t !== 'true' && t !== 'false') {
        return { values, problem: `${p.name}: '${t}' is not true or false` };
      }
      values.push(t === 'true');
    } else if (s.type === 'enum') {
      if (!s.values.includes(t)) {
        return { values, problem: `${p.name}: '${t}' is not one of ${s.values.join(', ')}` };
      }
      values.push(t);
    } else {
      return { values, problem: `${p.name}: a per-view list cannot be put on a grid` };
    }
  }
  return { values, problem: null };
}

/** The text of a parameter's grid values, as the field shows it. */
export const gridText = (values: readonly ParamValue[]): string =>
  values.map((v) => String(v)).join(', ');

/** How many datasets an entry makes (a missing-rate series makes one per rate). */
function entryCount(d: DraftDataset): number {
  const rates = d['missingRates'];
  return Array.isArray(rates) ? rates.length : 1;
}

/** The cells a draft makes: each method entry × each dataset × its grid points. */
export function cellCount(d: StudyDraft): number {
  const datasets = d.datasets.reduce((n, x) => n + entryCount(x), 0);
  return d.methods.reduce((n, m) => {
    const points = Object.values(d.grid[m.label] ?? {})
      .filter((v) => v.length > 0)
      .reduce((p, v) => p * v.length, 1);
    return n + points * datasets;
  }, 0);
}

/** The number of seeds of a draft. */
export const seedCount = (d: StudyDraft): number =>
  Array.isArray(d.seeds) ? d.seeds.length : d.seeds;

/** A label not yet used by the draft's method entries: `base`, else `base 2`, `base 3`, … */
export function freeLabel(d: StudyDraft, base: string): string {
  const used = new Set(d.methods.map((m) => m.label));
  if (!used.has(base)) return base;
  let i = 2;
  while (used.has(`${base} ${i}`)) i++;
  return `${base} ${i}`;
}

/** What tells two dataset entries apart: everything but the label. */
export function datasetKey(d: DraftDataset): string {
  const { label: _label, ...rest } = d;
  return JSON.stringify(Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The label an open dataset gets in a draft: its file name, numbered when already used. */
export function datasetLabel(d: StudyDraft, e: DatasetEntry): string {
  const base = (e.path.split(/[\\/]/).pop() ?? e.path).replace(/\.[^.]*$/, '') || 'dataset';
  const used = new Set(d.datasets.map((x) => x['label']));
  if (!used.has(base)) return base;
  let i = 2;
  while (used.has(`${base}-${i}`)) i++;
  return `${base}-${i}`;
}
