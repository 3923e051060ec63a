/**
 * The studies of a session (shared/study.ts), on the run manager's worker host: a study is one
 * job of the solver worker (worker/study.ts runs its missing cells through the engine), queued
 * like a run, reporting cells done / total and the ETA, cancelled at the next step. Study
 * folders are read here (study.json and the cell records: JSON, never a dataset), for the
 * status of a folder opened from disk and for the report.
 *
 * Paths: the spec's dataset files pass `readable` (the host's rule for `datasets:open`: under
 * Electron only files the user chose, in the web host full paths); the folder a study writes is
 * the one `dialog:saveFile` granted for this one start.
 */
import { mkdir } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { tableHtml } from '../../core/study/report';
import { selectGrid } from '../../core/study/select';
import { validateStudySpec } from '../../core/study/spec';
import type { SerializedError } from '../../shared/contract';
import type { StudyInfo, StudyReport, StudyReportRequest, StudyStart } from '../../shared/study';
import { maskIsPath } from '../grants';
import { forgetFinished } from '../jobs';
import type { WorkerHost } from '../worker-host';
import { readCellRecords, readStudyFile } from './folder';
import { reportCharts, reportParts } from './report';

/** Studies whose state is kept (the oldest finished ones are forgotten first). */
export const KEEP = 20;

function named(name: string, message: string): Error {
  const e = new Error(message);
  e.name = name;
  return e;
}

/** A path of the spec made usable by the host, or an error naming its field. */
export type PathRule = (field: string, path: string) => string;

const isRecord = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * A copy of a raw spec with every file path of its datasets passed through `rule` (which
 * expands `~`, refuses what the host may not read), so the worker gets absolute paths. Fields
 * that are not strings are left for the validator to name.
 */
export function specWithPaths(raw: Readonly<Record<string, unknown>>, rule: PathRule): unknown {
  const datasets = raw['datasets'];
  if (!Array.isArray(datasets)) return raw;
  const mapped = datasets.map((d: unknown, i) => {
    if (!isRecord(d)) return d;
    const out: Record<string, unknown> = { ...d };
    const at = (key: string): void => {
      const v = d[key];
      if (typeof v === 'string') out[key] = rule(`datasets[${i}].${key}`, v);
    };
    at('file');
    at('labelsFile');
    if (typeof d['mask'] === 'string' && maskIsPath(d['mask'])) at('mask');
    const files = d['files'];
    if (Array.isArray(files)) {
      out['files'] = files.map((f: unknown, j) =>
        typeof f === 'string' ? rule(`datasets[${i}].files[${j}]`, f) : f,
      );
    }
    return out;
  });
  return { ...raw, datasets: mapped };
}

interface Job {
  info: StudyInfo;
  cancel: () => void;
}

export class StudyManager {
  readonly #host: WorkerHost;
  readonly #jobs = new Map<string, Job>();
  #counter = 0;

  readonly #onUpdate: (info: StudyInfo) => void;

  /** `onUpdate` hears every change of a study's state (the host pushes it as an event). */
  constructor(host: WorkerHost, onUpdate: (info: StudyInfo) => void = () => {}) {
    this.#host = host;
    this.#onUpdate = onUpdate;
  }

  /**
   * Queues the study of `req.spec`; the spec is validated first, its paths through `rule`, so a
   * bad one fails here naming the field, before `grantedDir` spends the folder's grant.
   */
  async start(req: StudyStart, rule: PathRule, grantedDir: () => string): Promise<StudyInfo> {
    if (!isRecord(req.spec)) throw named('InvalidRequest', "studies:start: 'spec' is no object");
    const spec = specWithPaths(req.spec, rule);
    const typed = validateStudySpec(spec);
    const dir = grantedDir();
    await mkdir(dir, { recursive: true });
    const id = `s${++this.#counter}`;
    const info: StudyInfo = {
      id,
      name: typed.name,
      dir,
      status: 'queued',
      done: 0,
      total: null,
      etaSeconds: null,
      error: null,
    };
    const handle = this.#host.run(
      {
        datasetPath: dir,
        loadOptions: {},
        method: '',
        params: {},
        seed: typed.seeds[0] ?? 1,
        protocol: 'paper',
        study: { dir, spec },
      },
      (p) =>
        this.#update(id, {
          status: 'running',
          done: p.seedIndex,
          total: p.seedCount,
          etaSeconds: p.step.values?.['eta'] ?? null,
        }),
    );
    this.#jobs.set(id, { info, cancel: () => this.#host.cancel(handle.runId) });
    forgetFinished(this.#jobs, KEEP);
    void handle.outcome.then(async (o) => {
      const error: SerializedError | null = o.status === 'failed' ? o.error : null;
      const counted = await this.#count(dir).catch(() => null);
      this.#update(id, {
        status: o.status,
        error,
        etaSeconds: null,
        ...(counted ?? {}),
      });
    });
    return info;
  }

  /** Opens a study folder from disk (its state as its records say); `dir` is checked by the caller. */
  async open(dir: string): Promise<StudyInfo> {
    if (!isAbsolute(dir)) throw named('InvalidPath', `'${dir}' is not a full path`);
    const f = await readStudyFile(dir);
    const counted = await this.#count(dir);
    const id = `s${++this.#counter}`;
    const info: StudyInfo = {
      id,
      name: f.spec.name,
      dir,
      // A folder whose cells have not all ended was stopped; starting its spec again resumes it.
      status: counted.done === counted.total ? 'done' : 'cancelled',
      ...counted,
      etaSeconds: null,
      error: null,
    };
    this.#jobs.set(id, { info, cancel: () => {} });
    forgetFinished(this.#jobs, KEEP);
    return info;
  }

  status(id: string): StudyInfo {
    return this.#job(id).info;
  }

  cancel(id: string): void {
    const job = this.#job(id);
    if (job.info.status === 'queued' || job.info.status === 'running') job.cancel();
  }

  /** The report of a study of this session, as `study report --format html` shows it. */
  async report(req: StudyReportRequest): Promise<StudyReport> {
    const { dir } = this.#job(req.id).info;
    const f = await readStudyFile(dir);
    const records = await readCellRecords(dir, f);
    const rows = f.cells.flatMap((c) => records.get(c.id)?.rows ?? []);
    const metric = req.metric ?? f.spec.selection.oracle;
    const rule = req.rule ?? 'oracle';
    const failures = f.cells.flatMap((c) => {
      const r = records.get(c.id);
      return r?.status === 'failed' ? [`${c.id} (${c.label} on ${c.dataset}): ${r.error}`] : [];
    });
    if (rows.length === 0) {
      return { name: f.spec.name, metric, rule, tables: [], charts: [], failures };
    }
    const selections = selectGrid(rows, f.spec.selection.oracle, f.spec.selection.labelFree);
    const { tables, chosen } = reportParts(rows, selections, metric, rule);
    return {
      name: f.spec.name,
      metric,
      rule,
      tables: tables.map(tableHtml),
      charts: reportCharts(rows, chosen, selections, metric),
      failures,
    };
  }

  async #count(dir: string): Promise<{ done: number; total: number }> {
    const f = await readStudyFile(dir);
    const records = await readCellRecords(dir, f);
    return { done: records.size, total: f.cells.length };
  }

  #job(id: string): Job {
    const job = this.#jobs.get(id);
    if (!job) throw named('NotFound', `no study has the id '${id}'`);
    return job;
  }

  #update(id: string, change: Partial<StudyInfo>): void {
    const job = this.#jobs.get(id);
    if (!job) return;
    job.info = { ...job.info, ...change };
    this.#onUpdate(job.info);
  }
}
