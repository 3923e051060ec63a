/**
 * The timer behind a state class that reads a host job's status again every `ms` while the job
 * runs (Choose k, Study): one pending read at a time.
 */
export class PollTimer {
  readonly #ms: number;
  readonly #read: () => void;
  #timer: ReturnType<typeof setTimeout> | null = null;

  constructor(ms: number, read: () => void) {
    this.#ms = ms;
    this.#read = read;
  }

  /** Replaces the pending read with one in `ms` when `running`; else only cancels it. */
  schedule(running: boolean): void {
    this.stop();
    if (running) this.#timer = setTimeout(this.#read, this.#ms);
  }

  /** Cancels the pending read, if any. */
  stop(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
