/**
 * The study channels' types and payload checks (docs/studies.md). The renderer starts a study
 * (`studies:start`: a spec as its JSON file holds it, and the study folder the user chose in a
 * save field), reads its state (`studies:status`) until it ends, may cancel it
 * (`studies:cancel`), reopens a study folder from disk (`studies:open`) and asks for the report
 * of one it started or opened (`studies:report`). The study runs in the solver worker like a run.
 */
import { STUDY_METRICS, type StudyMetric } from '../core/study/types';
import type { RunStatus, SerializedError } from './contract';
import { expectObject, expectString, invalid } from './requests';

export type { StudyMetric };
export { STUDY_METRICS };

/** What `studies:start` asks: a spec (parsed JSON, as `mvstudio study run` reads it) and a folder. */
export interface StudyStart {
  readonly spec: unknown;
  /** The study folder: granted by `dialog:saveFile` (an existing one resumes the same spec). */
  readonly dir: string;
}

/** A study as the renderer sees it. */
export interface StudyInfo {
  readonly id: string;
  readonly name: string;
  readonly dir: string;
  readonly status: RunStatus;
  /** Cells with a record, and all cells (null until the folder is opened). */
  readonly done: number;
  readonly total: number | null;
  /** Seconds left at this run's mean seconds per cell; null before a cell ends. */
  readonly etaSeconds: number | null;
  readonly error: SerializedError | null;
}

/** The rule that picks each grid's point for the table: never mixed. */
export type StudyRule = 'oracle' | 'label-free';

/** What `studies:report` answers: what `study report --format html` shows, in parts. */
export interface StudyReport {
  readonly name: string;
  readonly metric: StudyMetric;
  readonly rule: StudyRule;
  /** Each table as HTML (`<table>` with bold best and underlined second, the notes after). */
  readonly tables: readonly string[];
  /** The heatmaps and line plots, each a standalone SVG document. */
  readonly charts: readonly { readonly title: string; readonly svg: string }[];
  /** Failed cells with their reason. */
  readonly failures: readonly string[];
}

export function parseStudyStart(p: unknown): StudyStart {
  const where = 'studies:start';
  const o = expectObject(where, p, ['spec', 'dir']);
  const spec = o['spec'];
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) {
    throw invalid(where, "'spec' must be an object (the spec file's JSON)");
  }
  return { spec, dir: expectString(where, o, 'dir') };
}

/** What `studies:report` asks: a study of this session, its metric and rule (default the spec's). */
export interface StudyReportRequest {
  readonly id: string;
  readonly metric?: StudyMetric;
  readonly rule?: StudyRule;
}

export function parseStudyReport(p: unknown): StudyReportRequest {
  const where = 'studies:report';
  const o = expectObject(where, p, ['id', 'metric', 'rule']);
  const out: { id: string; metric?: StudyMetric; rule?: StudyRule } = {
    id: expectString(where, o, 'id'),
  };
  const metric = o['metric'];
  if (metric !== undefined) {
    if (!(STUDY_METRICS as readonly unknown[]).includes(metric)) {
      throw invalid(where, `'metric' must be one of ${STUDY_METRICS.join(', ')}`);
    }
    out.metric = metric as StudyMetric;
  }
  const rule = o['rule'];
  if (rule !== undefined) {
    if (rule !== 'oracle' && rule !== 'label-free') {
      throw invalid(where, "'rule' must be 'oracle' or 'label-free'");
    }
    out.rule = rule;
  }
  return out;
}

/** A `{path}` payload (`runs:open`, `studies:open`): a non-empty string. */
export function parsePathRequest(where: string, p: unknown): { path: string } {
  const o = expectObject(where, p, ['path']);
  const path = o['path'];
  if (typeof path !== 'string' || path.trim() === '') {
    throw invalid(where, "'path' must be a non-empty string");
  }
  return { path };
}
