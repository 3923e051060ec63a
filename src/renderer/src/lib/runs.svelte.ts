/**
 * The renderer's run state: the methods of the registry, the queue (every run of the session,
 * kept current by the host's 'runs:update' events), the selected run and its result, and the
 * comparison. Only this file and datasets.svelte.ts talk to the host; `call` is injected so the
 * class is tested without a DOM or a host (test/renderer/runs.test.ts).
 */
import type {
  Channel,
  MethodInfo,
  ParamValue,
  Preprocess,
  ProtocolKind,
  Request,
  Response,
  RunInfo,
  RunResult,
} from '../../../shared/contract';
import { checkInteger, checkParam, initialValue, type FieldValue } from './params';
import { DEFAULT_SEED } from '../../../shared/defaults';

export type Call = <C extends Channel>(channel: C, request: Request<C>) => Promise<Response<C>>;

/** How far a run has got: a state never goes back to an earlier stage. */
const STAGE: Readonly<Record<RunInfo['status'], number>> = {
  queued: 0,
  running: 1,
  done: 2,
  failed: 2,
  cancelled: 2,
};
const ACTIVE = new Set(['queued', 'running']);

/** How often the elapsed-time clock advances while a run is active (ms). */
export const TICK_MS = 250;

export class RunsState {
  methods = $state.raw<MethodInfo[]>([]);
  /** Every run of the session, oldest first. Replaced on each update: raw state. */
  runs = $state.raw<RunInfo[]>([]);
  selectedId = $state<string | null>(null);
  /** The selected run's result, once loaded. */
  result = $state.raw<RunResult | null>(null);
  /** Results fetched for the comparison, by run id. */
  compared = $state.raw<Record<string, RunResult>>({});
  error = $state.raw<Error | null>(null);
  /**
   * A clock for elapsed times, advanced every TICK_MS while a run is active. The timer is
   * started and stopped here, as runs change status, not by an effect on the run list: an
   * effect re-ran on every progress update and restarted its interval before it ever fired,
   * so the clock stood still for as long as updates came faster than TICK_MS.
   */
  now = $state(Date.now());
  #timer: ReturnType<typeof setInterval> | null = null;

  readonly selected: RunInfo | null = $derived(
    this.runs.find((r) => r.id === this.selectedId) ?? null,
  );
  readonly active: RunInfo[] = $derived(this.runs.filter((r) => ACTIVE.has(r.status)));
  readonly finished: RunInfo[] = $derived(this.runs.filter((r) => r.status === 'done'));

  readonly #call: Call;

  constructor(call: Call) {
    this.#call = call;
  }

  async load(): Promise<void> {
    await this.#guard(async () => {
      const [methods, runs] = await Promise.all([
        this.#call('methods:list', null),
        this.#call('runs:list', null),
      ]);
      this.methods = methods;
      this.runs = runs;
      this.#clock();
    });
  }

  /** A run changed (host event): replaces it in place or appends it. */
  update(run: RunInfo): void {
    const i = this.runs.findIndex((r) => r.id === run.id);
    const was = i < 0 ? undefined : this.runs[i];
    // A run that fails at once is pushed as failed before runs:start answers "queued": an
    // older state never replaces a later one.
    if (was && STAGE[run.status] < STAGE[was.status]) return;
    this.runs = i < 0 ? [...this.runs, run] : this.runs.with(i, run);
    this.#clock();
    // The selected run just finished: fetch its result.
    if (run.status === 'done' && was?.status !== 'done' && this.selectedId === run.id) {
      void this.#loadResult(run.id);
    }
  }

  /** Starts a run; with `follow`, selects it (its result loads when it is done). */
  async start(request: Request<'runs:start'>, follow = true): Promise<RunInfo | null> {
    let info: RunInfo | null = null;
    await this.#guard(async () => {
      info = await this.#call('runs:start', request);
      this.update(info);
      if (follow) this.select(info.id);
    });
    return info;
  }

  /** Cancels a run; without an id, the selected run if active, else the latest active one. */
  async cancel(id?: string): Promise<void> {
    const target =
      id ??
      (this.selected && ACTIVE.has(this.selected.status) ? this.selected.id : undefined) ??
      this.active.at(-1)?.id;
    if (target === undefined) return;
    await this.#guard(() => this.#call('runs:cancel', { id: target }).then(() => undefined));
  }

  /** Reopens a saved run (a bundle folder or its run.json) and selects it; null on failure. */
  async open(path: string): Promise<RunInfo | null> {
    let info: RunInfo | null = null;
    await this.#guard(async () => {
      const opened = await this.#call('runs:open', { path });
      info = opened;
      this.update(opened);
      this.select(opened.id);
    });
    return info;
  }

  select(id: string): void {
    this.selectedId = id;
    this.result = null;
    const run = this.runs.find((r) => r.id === id);
    if (run?.status === 'done') void this.#loadResult(id);
  }

  /** Fetches the results of finished runs for the comparison. */
  async loadCompared(ids: readonly string[]): Promise<void> {
    const missing = ids.filter((id) => !(id in this.compared));
    if (missing.length === 0) return;
    await this.#guard(async () => {
      const got = await Promise.all(missing.map((id) => this.#call('runs:result', { id })));
      const next = { ...this.compared };
      for (const r of got) next[r.id] = r;
      this.compared = next;
    });
  }

  /** Exports the selected run's labels (of `seed`, default the first); returns the rows written. */
  async exportLabels(id: string, path: string, seed?: number): Promise<number | null> {
    let rows: number | null = null;
    await this.#guard(async () => {
      const request = { id, path, ...(seed !== undefined ? { seed } : {}) };
      rows = (await this.#call('runs:exportLabels', request)).rows;
    });
    return rows;
  }

  /** Shows another seed of the selected run: its charts, clusters and labels. */
  async showSeed(seed: number): Promise<void> {
    const id = this.selectedId;
    if (id === null) return;
    await this.#guard(async () => {
      const r = await this.#call('runs:result', { id, seed });
      if (this.selectedId === id) this.result = r;
    });
  }

  /**
   * Queues a run again as it was asked for (dataset, method, parameters, k, seeds,
   * preprocessing); follows it.
   */
  runAgain(run: RunInfo): Promise<RunInfo | null> {
    return this.start({
      datasetId: run.datasetId,
      method: run.method,
      params: run.params,
      ...(run.k !== null ? { k: run.k } : {}),
      seed: run.seed,
      protocol: run.protocol,
      ...(run.protocol === 'paper' ? { seeds: run.seeds } : {}),
      ...(run.preprocess !== 'none' ? { preprocess: run.preprocess } : {}),
    });
  }

  async exportBundle(id: string, path: string): Promise<string | null> {
    let out: string | null = null;
    await this.#guard(async () => {
      out = (await this.#call('runs:exportBundle', { id, path })).path;
    });
    return out;
  }

  tick(now = Date.now()): void {
    this.now = now;
  }

  /** Whether the clock is running (a run is queued or running). */
  get ticking(): boolean {
    return this.#timer !== null;
  }

  /** Stops the clock for good (the state is dropped). */
  dispose(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** Starts the clock when a run became active, stops it when none is left. */
  #clock(): void {
    const active = this.runs.some((r) => ACTIVE.has(r.status));
    if (active && this.#timer === null) {
      this.tick();
      this.#timer = setInterval(() => this.tick(), TICK_MS);
    } else if (!active && this.#timer !== null) {
      this.dispose();
    }
  }

  /** Seconds a run has taken so far (or took). */
  elapsed(run: RunInfo): number {
    if (run.seconds !== null) return run.seconds;
    if (run.startedAt === null) return 0;
    return Math.max(0, ((run.finishedAt ?? this.now) - run.startedAt) / 1000);
  }

  dismissError(): void {
    this.error = null;
  }

  async #loadResult(id: string): Promise<void> {
    await this.#guard(async () => {
      const r = await this.#call('runs:result', { id });
      if (this.selectedId === id) this.result = r;
    });
  }

  async #guard(action: () => Promise<void>): Promise<void> {
    try {
      await action();
    } catch (e) {
      this.error = e instanceof Error ? e : new Error(String(e));
    }
  }
}

/** Fraction done of a run, 0..1, from its latest step: seeds done plus the current seed's share. */
export function progressFraction(run: RunInfo): number {
  if (run.status === 'done') return 1;
  const p = run.progress;
  if (!p) return 0;
  let within = 0;
  if (run.maxIterations && p.stage !== 'kmeans' && p.stage !== 'metrics') {
    within = Math.min(p.iteration / run.maxIterations, 1) * 0.8;
  } else if (p.stage === 'kmeans') within = 0.85;
  else if (p.stage === 'metrics') within = 1;
  return Math.min(1, (p.seedIndex - 1 + within) / Math.max(p.seedCount, 1));
}

/** What the run form needs of the selected dataset: its id, and its class count when labelled. */
export interface FormDataset {
  readonly id: string;
  readonly summary: { readonly labels: { readonly classes: readonly unknown[] } | null };
}

/** The fields the form keeps per dataset, as typed. */
interface DatasetFields {
  seed: string;
  seeds: string;
  /** Empty on a labelled dataset: the number of classes. */
  k: string;
}

/** The first seed of every host when none is given (shared/defaults.ts). */
const FIRST_SEED = String(DEFAULT_SEED);
const DEFAULT_SEEDS = '20';

/** The class count of a labelled dataset, else null. */
export function classCount(dataset: FormDataset | null): number | null {
  return dataset?.summary.labels ? dataset.summary.labels.classes.length : null;
}

/**
 * The run form: a method, its parameters as typed and the protocol, shared by every dataset;
 * seed, seeds and k kept per dataset, since a k typed for one dataset is wrong for the next
 * (selecting another dataset shows its own values; a dataset not yet touched starts with
 * k = its class count when it has labels, else an empty k that must be filled).
 */
export class RunFormState {
  methodName = $state('');
  /** Field values by parameter name, for the current method. */
  values = $state<Record<string, FieldValue>>({});
  protocol = $state<ProtocolKind>('single');
  /** The shared preprocessing of the views; 'none' (the reference's raw features) by default. */
  preprocess = $state<Preprocess>('none');
  /** Typed fields by dataset id; a dataset without an entry shows its defaults. */
  #fields = $state<Record<string, DatasetFields>>({});
  /** The fields while no dataset is selected. */
  #none = $state<DatasetFields>({ seed: FIRST_SEED, seeds: DEFAULT_SEEDS, k: '' });

  #methods: () => readonly MethodInfo[] = () => [];
  #dataset: () => FormDataset | null;

  /** `dataset`: the selected dataset, read whenever a field is read or written. */
  constructor(
    methods: () => readonly MethodInfo[],
    dataset: () => FormDataset | null = () => null,
  ) {
    this.#methods = methods;
    this.#dataset = dataset;
  }

  readonly method: MethodInfo | null = $derived(
    this.#methods().find((m) => m.name === this.methodName) ?? null,
  );

  /** The selected dataset's class count, or null when it has no labels (k is then required). */
  get classes(): number | null {
    return classCount(this.#dataset());
  }

  #defaults(dataset: FormDataset | null): DatasetFields {
    const c = classCount(dataset);
    return { seed: FIRST_SEED, seeds: DEFAULT_SEEDS, k: c === null ? '' : String(c) };
  }

  /**
   * The fields of `datasetId` (default: the selected dataset): as typed, else its defaults; with
   * no dataset selected, the fields typed meanwhile.
   */
  #read(datasetId?: string): DatasetFields {
    const typed = datasetId === undefined ? undefined : this.#fields[datasetId];
    if (typed) return typed;
    const selected = this.#dataset();
    if (selected === null) return this.#none;
    if (datasetId !== undefined && datasetId !== selected.id) return this.#defaults(null);
    return this.#fields[selected.id] ?? this.#defaults(selected);
  }

  #write(key: keyof DatasetFields, value: string): void {
    const selected = this.#dataset();
    if (selected === null) {
      this.#none[key] = value;
      return;
    }
    const current = this.#fields[selected.id] ?? this.#defaults(selected);
    this.#fields[selected.id] = { ...current, [key]: value };
  }

  get seed(): string {
    return this.#read().seed;
  }
  set seed(value: string) {
    this.#write('seed', value);
  }
  get seeds(): string {
    return this.#read().seeds;
  }
  set seeds(value: string) {
    this.#write('seeds', value);
  }
  /** k as typed for the selected dataset. */
  get k(): string {
    return this.#read().k;
  }
  set k(value: string) {
    this.#write('k', value);
  }

  /** Message per parameter (and 'seed', 'seeds', 'k'); absent when valid. */
  readonly errors: Record<string, string> = $derived.by(() => {
    const out: Record<string, string> = {};
    for (const p of this.method?.params ?? []) {
      const c = checkParam(p, this.values[p.name] ?? initialValue(p));
      if (!c.ok) out[p.name] = c.message;
    }
    const seed = checkInteger('the seed', this.seed, 0);
    if (!seed.ok) out['seed'] = seed.message;
    if (this.protocol === 'paper') {
      const seeds = checkInteger('the number of seeds', this.seeds, 1, 1000);
      if (!seeds.ok) out['seeds'] = seeds.message;
    }
    if (this.k.trim() !== '') {
      const k = checkInteger('k', this.k, 1);
      if (!k.ok) out['k'] = k.message;
    } else if (this.#dataset() !== null && this.classes === null) {
      out['k'] = K_REQUIRED;
    }
    return out;
  });

  readonly valid: boolean = $derived(this.method !== null && Object.keys(this.errors).length === 0);

  /**
   * The sentence saying k differs from the class count, or null (no labels, k empty or equal):
   * the metrics then compare k clusters with fewer or more classes.
   */
  readonly kNote: string | null = $derived.by(() => {
    const c = this.classes;
    const k = Number(this.k.trim());
    if (c === null || this.k.trim() === '' || !Number.isSafeInteger(k) || k === c) return null;
    return `k = ${k} differs from the ${c} classes of the labels: the metrics compare ${k} clusters with ${c} classes`;
  });

  /**
   * The method, its parameters and the seed for `datasetId`, or null while one of them has an
   * error: what a choose-k sweep runs, whatever k says (the sweep chooses it).
   */
  sweep(datasetId: string): {
    datasetId: string;
    method: string;
    params: Record<string, ParamValue>;
    seed: number;
  } | null {
    const m = this.method;
    if (!m || Object.keys(this.errors).some((key) => key !== 'k' && key !== 'seeds')) return null;
    const params: Record<string, ParamValue> = {};
    for (const p of m.params) {
      const c = checkParam(p, this.values[p.name] ?? initialValue(p));
      if (c.ok && c.value !== p.spec.default) params[p.name] = c.value;
    }
    return { datasetId, method: m.name, params, seed: Number(this.#read(datasetId).seed.trim()) };
  }

  /** Chooses a method and resets its fields to the schema's defaults. */
  choose(name: string): void {
    this.methodName = name;
    const m = this.#methods().find((x) => x.name === name);
    this.values = Object.fromEntries((m?.params ?? []).map((p) => [p.name, initialValue(p)]));
  }

  /** The request for `datasetId` with that dataset's own fields, or null while the form has an error. */
  request(datasetId: string, batch?: string): Request<'runs:start'> | null {
    const base = this.valid ? this.sweep(datasetId) : null;
    if (!base) return null;
    const f = this.#read(datasetId);
    return {
      ...base,
      protocol: this.protocol,
      ...(this.protocol === 'paper' ? { seeds: Number(f.seeds.trim()) } : {}),
      ...(f.k.trim() !== '' ? { k: Number(f.k.trim()) } : {}),
      ...(batch !== undefined ? { batch } : {}),
      ...(this.preprocess !== 'none' ? { preprocess: this.preprocess } : {}),
    };
  }
}

/** The form's message for an empty k on a dataset without labels. */
export const K_REQUIRED =
  'k is required: this dataset has no labels to count classes from (enter the number of clusters)';

/** Columns of the comparison table, and its sort. */
export interface CompareRow {
  readonly run: RunInfo;
  readonly metrics: Readonly<Record<string, { mean: number; std: number }>>;
}

export function compareRows(
  runs: readonly RunInfo[],
  sortBy: string,
  descending: boolean,
): CompareRow[] {
  const rows = runs
    .filter((r) => r.status === 'done' && r.metrics)
    .map((run) => ({ run, metrics: run.metrics! }));
  const key = (r: CompareRow): number | string =>
    sortBy === 'method'
      ? r.run.methodTitle
      : sortBy === 'time'
        ? (r.run.seconds ?? Infinity)
        : (r.metrics[sortBy]?.mean ?? -Infinity);
  rows.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    const c = typeof x === 'string' ? x.localeCompare(String(y)) : x - (y as number);
    return descending ? -c : c;
  });
  return rows;
}

/** The metric names of a set of rows, in first-seen order. */
export function metricNames(rows: readonly CompareRow[]): string[] {
  const names: string[] = [];
  for (const r of rows)
    for (const m of Object.keys(r.metrics)) if (!names.includes(m)) names.push(m);
  return names;
}

/** The comparison as CSV: one row per run, mean and std of every metric, seconds. */
export function compareCsv(rows: readonly CompareRow[]): string {
  const names = metricNames(rows);
  const head = ['run', 'method', 'dataset', 'protocol', 'seeds', 'seed'];
  for (const m of names) head.push(`${m}_mean`, `${m}_std`);
  head.push('seconds');
  const q = (s: string | number): string => {
    const t = String(s);
    return /[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
  };
  const lines = [head.join(',')];
  for (const r of rows) {
    const cells: (string | number)[] = [
      r.run.id,
      r.run.method,
      r.run.datasetPath,
      r.run.protocol,
      r.run.seeds,
      r.run.seed,
    ];
    for (const m of names) {
      const v = r.metrics[m];
      cells.push(v ? v.mean : '', v ? v.std : '');
    }
    cells.push(r.run.seconds ?? '');
    lines.push(cells.map(q).join(','));
  }
  return lines.join('\n') + '\n';
}
