/**
 * The host's estimate of the run the form describes (`runs:estimate`: memory and time), asked
 * again a short while after the form stops changing, so that typing in a field sends one
 * request, not one per key, and after each finished run (the host's speed calibration moved). Only the answer to the latest question is kept; a failed one is no answer (the
 * form shows its own errors, and `runs:start` reports the host's).
 */
import type { Request, Response, RunEstimate, RunEstimateRequest } from '../../../shared/contract';

type Call = (
  channel: 'runs:estimate',
  request: Request<'runs:estimate'>,
) => Promise<Response<'runs:estimate'>>;

/** Wait after the last change before asking (ms). */
export const ESTIMATE_DEBOUNCE_MS = 250;

export class MemoryEstimateState {
  /** The answer to the latest question; null while none came. */
  answer = $state.raw<RunEstimate | null>(null);

  readonly #call: Call;
  readonly #delayMs: number;
  #key = '';
  #asked = 0;
  #timer: ReturnType<typeof setTimeout> | null = null;

  constructor(call: Call, delayMs = ESTIMATE_DEBOUNCE_MS) {
    this.#call = call;
    this.#delayMs = delayMs;
  }

  /**
   * The form's run changed (null: no run to estimate), or `finished` runs are done now; an
   * unchanged question is not re-asked.
   */
  ask(request: RunEstimateRequest | null, finished = 0): void {
    const key = request === null ? '' : `${finished}:${JSON.stringify(request)}`;
    if (key === this.#key) return;
    this.#key = key;
    const asked = ++this.#asked;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.answer = null;
    if (request === null) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#call('runs:estimate', request).then(
        (answer) => {
          if (asked === this.#asked) this.answer = answer;
        },
        () => {},
      );
    }, this.#delayMs);
  }
}
