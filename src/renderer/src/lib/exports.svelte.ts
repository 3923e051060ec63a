/**
 * The shell's exports: where each file goes (the save dialog under Electron, a typed path
 * granted by the host in a browser) and the one-line message saying what was written.
 * Errors go to the runs' error banner, as every other failed action does.
 */
import { call, hasNativeDialog } from './api';
import { chartSvg, titledPng } from '../charts/svg';
import type { RunsState } from './runs.svelte';

export type ChartFormat = 'png' | 'svg';
/** Saves the chart drawn on `canvas` as `name`, headed by `title`. */
export type SaveChart = (
  canvas: HTMLCanvasElement,
  name: string,
  title: string,
  format: ChartFormat,
) => void;

export class ExportsState {
  /** What the last Results export wrote, until what it describes changes. */
  message = $state<string | null>(null);
  /** What the last Compare export wrote, until the table changes. */
  compareMessage = $state<string | null>(null);

  readonly #runs: RunsState;
  #runId: string | null = null;
  #comparedKey = '';

  constructor(runs: RunsState) {
    this.#runs = runs;
  }

  /**
   * Clears each message once what it describes changes: the run the Results screen shows, or
   * the finished runs the comparison is made of (`comparedKey` names them).
   */
  follow(runId: string | null, comparedKey: string): void {
    if (runId !== this.#runId) {
      this.#runId = runId;
      this.message = null;
    }
    if (comparedKey !== this.#comparedKey) {
      this.#comparedKey = comparedKey;
      this.compareMessage = null;
    }
  }

  #fail(e: unknown): void {
    this.#runs.error = e instanceof Error ? e : new Error(String(e));
  }

  /** Under Electron, the save dialog; null on cancel. */
  pickSave = (defaultName: string): Promise<string | null> =>
    call('dialog:saveFile', { defaultName });

  /**
   * The path to write one export to. Under Electron `chosen` came from the save dialog, which
   * granted it already. In a browser it was typed: the host checks it and grants it for one
   * write, and when the file exists the user is asked before it is replaced. Null when the
   * user declines; errors (a relative path, a missing folder) go to the error banner.
   */
  async grantPath(chosen: string, defaultName: string, canReplace = true): Promise<string | null> {
    if (hasNativeDialog) return chosen;
    try {
      try {
        return await call('dialog:saveFile', { defaultName, path: chosen });
      } catch (e) {
        if (!(e instanceof Error) || e.name !== 'Exists' || !canReplace) throw e;
        if (!window.confirm(`${chosen} already exists. Replace it?`)) return null;
        return await call('dialog:saveFile', { defaultName, path: chosen, overwrite: true });
      }
    } catch (e) {
      this.#fail(e);
      return null;
    }
  }

  async exportLabels(chosen: string): Promise<void> {
    const id = this.#runs.selectedId;
    if (id === null) return;
    this.message = null;
    const path = await this.grantPath(chosen, 'labels.csv');
    if (path === null) return;
    const result = this.#runs.result;
    const seed = result?.id === id ? result.seed : undefined;
    const rows = await this.#runs.exportLabels(id, path, seed);
    const of = seed !== undefined ? ` of seed ${seed}` : '';
    if (rows !== null) this.message = `Wrote ${rows} rows${of} to ${path}`;
  }

  async exportBundle(chosen: string): Promise<void> {
    const id = this.#runs.selectedId;
    if (id === null) return;
    this.message = null;
    // A bundle is a new folder: an existing one is never replaced.
    const path = await this.grantPath(chosen, 'bundle', false);
    if (path === null) return;
    const out = await this.#runs.exportBundle(id, path);
    if (out !== null) this.message = `Copied the run bundle to ${out}`;
  }

  /**
   * A chart as PNG or SVG, with its title: under Electron to the file the save dialog gives,
   * in a browser through the browser's download.
   */
  async saveChart(
    canvas: HTMLCanvasElement,
    name: string,
    title: string,
    format: ChartFormat,
  ): Promise<void> {
    try {
      const svg = format === 'svg' ? chartSvg(canvas, title) : null;
      const dataUrl =
        svg === null
          ? titledPng(canvas, title)
          : `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
      if (hasNativeDialog) {
        const path = await this.pickSave(name);
        if (!path) return;
        if (svg === null) await call('files:savePng', { path, dataUrl });
        else await call('files:saveText', { path, text: svg });
        this.message = `Saved ${path}`;
        return;
      }
      const a = document.createElement('a');
      a.href = dataUrl;
      a.download = name;
      a.click();
    } catch (e) {
      this.#fail(e);
    }
  }

  /** `saveChart` as a prop (bound to this state). */
  readonly onSaveChart: SaveChart = (canvas, name, title, format) =>
    void this.saveChart(canvas, name, title, format);

  async exportCompare(chosen: string, csv: string): Promise<void> {
    this.compareMessage = null;
    const path = await this.grantPath(chosen, 'comparison.csv');
    if (path === null) return;
    try {
      await call('files:saveText', { path, text: csv });
      this.compareMessage = `Wrote ${csv.trimEnd().split('\n').length - 1} rows to ${path}`;
    } catch (e) {
      this.#fail(e);
    }
  }
}
