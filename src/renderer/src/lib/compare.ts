/**
 * The comparison's model: finished runs grouped by dataset, each group split into cohorts of
 * like runs (same protocol, number of seeds and k) that alone are ranked against each other,
 * the parameters that tell runs of one method apart, and the comparison as CSV. Pure
 * functions of the runs and the methods' schemas, so the table and the file say the same.
 */
import type { MethodInfo, ParamValue, ProtocolKind, RunInfo } from '../../../shared/contract';

/** What the table's heading says about a dataset, from the library's entry. */
export interface DatasetFacts {
  readonly name: string;
  readonly n: number;
  readonly views: number;
  /** The class count, or null for an unlabelled dataset. */
  readonly classes: number | null;
}

export interface CompareRow {
  readonly run: RunInfo;
  readonly metrics: Readonly<Record<string, { mean: number; std: number }>>;
  /** Every parameter of the run's method: the ones it was given, the schema's defaults else. */
  readonly params: Readonly<Record<string, ParamValue>>;
  /** The k it clustered into: the one given, else the class count; null when unknown. */
  readonly k: number | null;
  /** 1-based place among its cohort under the current sort; null when it has no rivals. */
  readonly rank: number | null;
}

/** Runs that may be ranked against each other. */
export interface Cohort {
  readonly protocol: ProtocolKind;
  readonly seeds: number;
  readonly k: number | null;
  readonly rows: readonly CompareRow[];
}

export interface CompareGroup {
  readonly datasetId: string;
  readonly datasetPath: string;
  readonly facts: DatasetFacts | null;
  readonly cohorts: readonly Cohort[];
  /** Method name -> the parameters whose values differ between its runs in this group. */
  readonly differing: Readonly<Record<string, readonly string[]>>;
}

/** The run's parameters with the schema's defaults filled in (hosts store only the given). */
export function effectiveParams(
  run: RunInfo,
  methods: readonly MethodInfo[],
): Record<string, ParamValue> {
  const method = methods.find((m) => m.name === run.method);
  const out: Record<string, ParamValue> = {};
  for (const p of method?.params ?? []) out[p.name] = p.spec.default;
  return { ...out, ...run.params };
}

/** Names of the parameters whose values are not all equal across `rows`, in schema order. */
export function differingParams(rows: readonly Pick<CompareRow, 'params'>[]): string[] {
  const names: string[] = [];
  for (const r of rows)
    for (const p of Object.keys(r.params)) if (!names.includes(p)) names.push(p);
  return names.filter((p) => new Set(rows.map((r) => String(r.params[p]))).size > 1);
}

/** The compact cell "normalize = zscore, anchors = 20" of `names` for one row. */
export function paramText(row: Pick<CompareRow, 'params'>, names: readonly string[]): string {
  return names
    .filter((p) => p in row.params)
    .map((p) => `${p} = ${String(row.params[p])}`)
    .join(', ');
}

/** The seeds a run used (the protocol runs seed, seed + 1, …): "3" or "1..20". */
export function seedRange(run: RunInfo): string {
  return run.seeds <= 1 ? String(run.seed) : `${run.seed}..${run.seed + run.seeds - 1}`;
}

/** The metric names of a set of rows, in first-seen order. */
export function metricNames(rows: readonly CompareRow[]): string[] {
  const names: string[] = [];
  for (const r of rows)
    for (const m of Object.keys(r.metrics)) if (!names.includes(m)) names.push(m);
  return names;
}

function sortRows(rows: CompareRow[], sortBy: string, descending: boolean): CompareRow[] {
  const key = (r: CompareRow): number | string =>
    sortBy === 'method'
      ? r.run.methodTitle
      : sortBy === 'time'
        ? (r.run.seconds ?? Infinity)
        : (r.metrics[sortBy]?.mean ?? -Infinity);
  return rows.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    const c = typeof x === 'string' ? x.localeCompare(String(y)) : x - (y as number);
    return descending ? -c : c;
  });
}

/**
 * The finished runs among `runs`, grouped by dataset (in first-seen order), each group's
 * cohorts with the most seeds first, rows sorted by `sortBy` ('method', 'time' or a metric
 * name) within a cohort and ranked there, unless sorted by method name.
 */
export function compareGroups(
  runs: readonly RunInfo[],
  methods: readonly MethodInfo[],
  facts: (datasetId: string) => DatasetFacts | null,
  sortBy: string,
  descending: boolean,
): CompareGroup[] {
  const byDataset = new Map<string, RunInfo[]>();
  for (const run of runs) {
    if (run.status !== 'done' || !run.metrics) continue;
    const list = byDataset.get(run.datasetId) ?? [];
    list.push(run);
    byDataset.set(run.datasetId, list);
  }
  return [...byDataset].map(([datasetId, list]) => {
    const f = facts(datasetId);
    const rows = list.map((run) => ({
      run,
      metrics: run.metrics!,
      params: effectiveParams(run, methods),
      k: run.k ?? f?.classes ?? null,
    }));
    const cohorts = new Map<string, (typeof rows)[number][]>();
    for (const r of rows) {
      const key = `${r.run.protocol}|${r.run.seeds}|${r.k}`;
      cohorts.set(key, [...(cohorts.get(key) ?? []), r]);
    }
    const differing: Record<string, string[]> = {};
    for (const m of new Set(rows.map((r) => r.run.method))) {
      const names = differingParams(rows.filter((r) => r.run.method === m));
      if (names.length > 0) differing[m] = names;
    }
    return {
      datasetId,
      datasetPath: list[0]!.datasetPath,
      facts: f,
      differing,
      cohorts: [...cohorts.values()]
        .map((members): Cohort => {
          const first = members[0]!;
          const ranked = members.length > 1 && sortBy !== 'method';
          const sorted = sortRows(
            members.map((r) => ({ ...r, rank: null })),
            sortBy,
            descending,
          );
          return {
            protocol: first.run.protocol,
            seeds: first.run.seeds,
            k: first.k,
            rows: sorted.map((r, i) => ({ ...r, rank: ranked ? i + 1 : null })),
          };
        })
        .sort((a, b) => b.seeds - a.seeds || a.protocol.localeCompare(b.protocol)),
    };
  });
}

/** The heading of a cohort: "Paper protocol, 20 seeds, k = 7". */
export function cohortTitle(c: Cohort): string {
  const protocol = c.protocol === 'paper' ? 'Paper protocol' : 'Single run';
  const seeds = c.seeds === 1 ? '1 seed' : `${c.seeds} seeds`;
  return `${protocol}, ${seeds}, k = ${c.k ?? 'the class count'}`;
}

/** Every row of the groups, in table order. */
export function allRows(groups: readonly CompareGroup[]): CompareRow[] {
  return groups.flatMap((g) => g.cohorts.flatMap((c) => c.rows));
}

const FIXED = [
  'dataset',
  'dataset_path',
  'method',
  'run',
  'k',
  'protocol',
  'seeds',
  'seed_range',
  'seed',
  'preprocess',
  'fill_note',
];

/**
 * The comparison as CSV, one line per run in table order: the dataset (name and path), the
 * method and run id, one column per parameter name any run's method has (empty where a
 * method lacks it; named `param_<name>` where a name is one of the fixed columns), k,
 * protocol, the seeds (count, range, first), the preprocessing and the note of the fill rule
 * (empty when no sample was filled), mean and std of every metric, seconds.
 */
export function compareCsv(groups: readonly CompareGroup[]): string {
  const rows = allRows(groups);
  const params: string[] = [];
  for (const r of rows)
    for (const p of Object.keys(r.params)) if (!params.includes(p)) params.push(p);
  const metrics = metricNames(rows);
  const head = [
    ...FIXED.slice(0, 4),
    ...params.map((p) => (FIXED.includes(p) ? `param_${p}` : p)),
    ...FIXED.slice(4),
  ];
  for (const m of metrics) head.push(`${m}_mean`, `${m}_std`);
  head.push('seconds');
  const q = (s: string | number): string => {
    const t = String(s);
    return /[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
  };
  const lines = [head.map(q).join(',')];
  for (const g of groups) {
    const name = g.facts?.name ?? (g.datasetPath.split(/[\\/]/).pop() || g.datasetPath);
    for (const r of g.cohorts.flatMap((c) => c.rows)) {
      const cells: (string | number)[] = [name, r.run.datasetPath, r.run.method, r.run.id];
      for (const p of params) cells.push(p in r.params ? String(r.params[p]) : '');
      cells.push(r.k ?? '', r.run.protocol, r.run.seeds, seedRange(r.run), r.run.seed);
      cells.push(r.run.preprocess, r.run.fill ?? '');
      for (const m of metrics) {
        const v = r.metrics[m];
        cells.push(v ? v.mean : '', v ? v.std : '');
      }
      cells.push(r.run.seconds ?? '');
      lines.push(cells.map(q).join(','));
    }
  }
  return lines.join('\n') + '\n';
}
