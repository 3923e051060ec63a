/**
 * The state of the Run form's "Choose k" panel: a k range as typed, the sweep the host runs
 * (`runs:chooseK`, read back with `runs:chooseKStatus` every POLL_MS while it runs, since the
 * host pushes no event for it) and its cancel. `call` is injected so the class is tested
 * without a DOM or a host.
 */
import type { ChooseKInfo } from '../../../shared/choose-k';
import type { ParamValue } from '../../../shared/contract';
import { checkInteger } from './params';
import { PollTimer } from './poll';
import type { Call } from './runs.svelte';

/** Between two status reads of a running sweep. */
export const POLL_MS = 250;

/** What a sweep needs of the Run form. */
export interface SweepSettings {
  readonly datasetId: string;
  readonly method: string;
  readonly params: Readonly<Record<string, ParamValue>>;
  readonly seed: number;
}

export class ChooseKState {
  from = $state('2');
  to = $state('10');
  info = $state.raw<ChooseKInfo | null>(null);
  error = $state.raw<Error | null>(null);

  readonly #call: Call;
  readonly #poller = new PollTimer(POLL_MS, () => void this.poll());

  constructor(call: Call) {
    this.#call = call;
  }

  /** A message for a bad range (at most `max` = n − 1), else null. */
  rangeError(max: number): string | null {
    const from = checkInteger('From', this.from.trim(), 2, max);
    if (!from.ok) return from.message;
    const to = checkInteger('To', this.to.trim(), from.value, max);
    return to.ok ? null : to.message;
  }

  /** Brings the range's ends within 2..max (a dataset of few samples). */
  fit(max: number): void {
    for (const end of ['from', 'to'] as const) {
      const v = Number(this[end].trim());
      if (Number.isSafeInteger(v) && v > max) this[end] = String(Math.max(2, max));
    }
  }

  get running(): boolean {
    const s = this.info?.status;
    return s === 'queued' || s === 'running';
  }

  async start(settings: SweepSettings): Promise<void> {
    this.stop();
    this.error = null;
    try {
      this.info = await this.#call('runs:chooseK', {
        ...settings,
        from: Number(this.from.trim()),
        to: Number(this.to.trim()),
      });
      this.#schedule();
    } catch (e) {
      this.error = e instanceof Error ? e : new Error(String(e));
    }
  }

  async cancel(): Promise<void> {
    if (!this.info || !this.running) return;
    try {
      await this.#call('runs:chooseKCancel', { id: this.info.id });
    } catch (e) {
      this.error = e instanceof Error ? e : new Error(String(e));
    }
  }

  /** Reads the sweep's state once; schedules the next read while it runs. */
  async poll(): Promise<void> {
    const id = this.info?.id;
    if (id === undefined) return;
    try {
      const info = await this.#call('runs:chooseKStatus', { id });
      if (this.info?.id !== id) return; // a newer sweep replaced it
      this.info = info;
      this.#schedule();
    } catch (e) {
      this.error = e instanceof Error ? e : new Error(String(e));
    }
  }

  /** Stops reading the sweep's state (the component went away). */
  stop(): void {
    this.#poller.stop();
  }

  #schedule(): void {
    this.#poller.schedule(this.running);
  }
}
