/**
 * The Study screen's state: the spec draft (lib/study-spec.ts), the study the host runs or
 * opened (`studies:start` / `studies:open`; its state pushed by `studies:update` and also read
 * with `studies:status` every POLL_MS while it runs), its cancel, and its report
 * (`studies:report`). `call` is injected so the class is tested without a DOM or a host.
 */
import type { MethodInfo, ParamValue } from '../../../shared/contract';
import type { StudyInfo, StudyMetric, StudyReport, StudyRule } from '../../../shared/study';
import {
  draftFromJson,
  draftToJson,
  emptyDraft,
  freeLabel,
  parseGridText,
  type DraftDataset,
  type StudyDraft,
} from './study-spec';
import { PollTimer } from './poll';
import type { Call } from './runs.svelte';

/** Between two status reads of a running study. */
export const POLL_MS = 300;

export class StudyState {
  draft = $state<StudyDraft>(emptyDraft());
  /** The grid fields as typed, by method label and parameter. */
  gridText = $state<Record<string, Record<string, string>>>({});
  info = $state.raw<StudyInfo | null>(null);
  report = $state.raw<StudyReport | null>(null);
  metric = $state<StudyMetric | null>(null);
  rule = $state<StudyRule>('oracle');
  error = $state.raw<Error | null>(null);

  readonly #call: Call;
  readonly #poller = new PollTimer(POLL_MS, () => void this.poll());

  constructor(call: Call) {
    this.#call = call;
  }

  get running(): boolean {
    const s = this.info?.status;
    return s === 'queued' || s === 'running';
  }

  /** The first problem of the grid fields as typed, or null. */
  gridProblem(methods: readonly MethodInfo[]): string | null {
    for (const m of this.draft.methods) {
      const info = methods.find((x) => x.name === m.method);
      for (const [name, text] of Object.entries(this.gridText[m.label] ?? {})) {
        const p = info?.params.find((x) => x.name === name);
        if (!p) continue;
        const { problem } = parseGridText(p, text);
        if (problem) return `${m.label}: ${problem}`;
      }
    }
    return null;
  }

  addMethod(method: MethodInfo): void {
    const label = freeLabel(this.draft, method.name);
    this.draft.methods.push({ method: method.name, label, params: {} });
  }

  removeMethod(index: number): void {
    const [m] = this.draft.methods.splice(index, 1);
    if (!m) return;
    delete this.draft.grid[m.label];
    delete this.gridText[m.label];
  }

  /** Sets a parameter's grid from its text (kept as typed; an empty text removes it). */
  setGrid(label: string, p: MethodInfo['params'][number], text: string): void {
    this.gridText[label] = { ...(this.gridText[label] ?? {}), [p.name]: text };
    const { values } = parseGridText(p, text);
    const g = { ...(this.draft.grid[label] ?? {}) };
    if (values.length > 0) g[p.name] = values;
    else delete g[p.name];
    this.draft.grid[label] = g;
  }

  setFixed(index: number, name: string, value: ParamValue | undefined): void {
    const m = this.draft.methods[index];
    if (!m) return;
    if (value === undefined) delete m.params[name];
    else m.params[name] = value;
  }

  toggleDataset(entry: DraftDataset, on: boolean, key: (d: DraftDataset) => string): void {
    const k = key(entry);
    const at = this.draft.datasets.findIndex((d) => key(d) === k);
    if (on && at < 0) this.draft.datasets.push(entry);
    if (!on && at >= 0) this.draft.datasets.splice(at, 1);
  }

  /** The spec file's text of the draft. */
  specText(): string {
    return JSON.stringify(draftToJson($state.snapshot(this.draft) as StudyDraft), null, 2) + '\n';
  }

  /** Loads a spec file's text (as the CLI reads it); a bad file sets `error`. */
  loadSpec(text: string): void {
    try {
      const d = draftFromJson(JSON.parse(text) as unknown);
      this.draft = d;
      this.gridText = Object.fromEntries(
        Object.entries(d.grid).map(([label, g]) => [
          label,
          Object.fromEntries(Object.entries(g).map(([k, v]) => [k, v.map(String).join(', ')])),
        ]),
      );
      this.error = null;
    } catch (e) {
      this.error =
        e instanceof SyntaxError ? new Error('the spec file is not valid JSON') : asError(e);
    }
  }

  /**
   * Starts the draft into a folder the user chose: under Electron the save dialog's answer
   * (`typed` null), in a browser a typed path the host grants; an existing folder is used only
   * when `resume` confirms it (the study there resumes; a folder of another spec is refused).
   */
  async start(typed: string | null, resume: (path: string) => boolean): Promise<void> {
    this.stop();
    this.error = null;
    this.report = null;
    try {
      const dir = await this.#grantFolder(typed, resume);
      if (dir === null) return;
      const spec = draftToJson($state.snapshot(this.draft) as StudyDraft);
      this.info = await this.#call('studies:start', { spec, dir });
      this.#schedule();
    } catch (e) {
      this.error = asError(e);
    }
  }

  async #grantFolder(
    typed: string | null,
    resume: (path: string) => boolean,
  ): Promise<string | null> {
    const defaultName = `${this.draft.name || 'study'}`;
    if (typed === null) return this.#call('dialog:saveFile', { defaultName });
    try {
      return await this.#call('dialog:saveFile', { defaultName, path: typed });
    } catch (e) {
      if (!(e instanceof Error) || e.name !== 'Exists') throw e;
      if (!resume(typed)) return null;
      return this.#call('dialog:saveFile', { defaultName, path: typed, overwrite: true });
    }
  }

  /** Opens a study folder from disk and shows its report. */
  async open(path: string): Promise<void> {
    this.stop();
    this.error = null;
    this.report = null;
    try {
      this.info = await this.#call('studies:open', { path });
      await this.loadReport();
    } catch (e) {
      this.error = asError(e);
    }
  }

  async cancel(): Promise<void> {
    if (!this.info || !this.running) return;
    try {
      await this.#call('studies:cancel', { id: this.info.id });
    } catch (e) {
      this.error = asError(e);
    }
  }

  /** Reads the study's state once; schedules the next read while it runs, else the report. */
  async poll(): Promise<void> {
    const id = this.info?.id;
    if (id === undefined) return;
    try {
      const info = await this.#call('studies:status', { id });
      if (this.info?.id !== id) return; // a newer study replaced it
      this.info = info;
      if (this.running) this.#schedule();
      else await this.loadReport();
    } catch (e) {
      this.error = asError(e);
    }
  }

  /**
   * A study's new state pushed by the host (`studies:update`): shown when it is the study on
   * screen; once it ends, the polling stops and the report is read.
   */
  follow(info: StudyInfo): void {
    if (this.info?.id !== info.id) return;
    this.info = info;
    if (!this.running) {
      this.stop();
      void this.loadReport();
    }
  }

  /** The report of the study shown, under the metric and rule chosen. */
  async loadReport(): Promise<void> {
    const id = this.info?.id;
    if (id === undefined) return;
    try {
      const report = await this.#call('studies:report', {
        id,
        rule: this.rule,
        ...(this.metric !== null ? { metric: this.metric } : {}),
      });
      if (this.info?.id === id) this.report = report;
    } catch (e) {
      this.error = asError(e);
    }
  }

  stop(): void {
    this.#poller.stop();
  }

  #schedule(): void {
    this.#poller.schedule(this.running);
  }
}

const asError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)));
