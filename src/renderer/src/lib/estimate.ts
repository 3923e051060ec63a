/**
 * The estimate shown before a run starts, as the host answers it (`runs:estimate`): memory from
 * the solver's declared footprint, with the warning and the refusal the host decides, and time
 * from its declared cost at this machine's measured speed, as a range with how it was
 * calibrated. Shown as given; the renderer invents no figure.
 */
import type { RunEstimate, TimeEstimate } from '../../../shared/contract';

export interface Estimate {
  /** The host's answer for the form's run; null until it came (or when it failed). */
  readonly memory: RunEstimate | null;
}

/** Two significant digits in a unit that suits `s`: [value, unit]. */
function inUnit(s: number): [string, string] {
  const sig = (x: number): string => String(Number(x.toPrecision(2)));
  if (s < 1) return [sig(s * 1000), 'ms'];
  if (s < 60) return [sig(s), 's'];
  if (s < 3600) return [sig(s / 60), 'min'];
  return [sig(s / 3600), 'h'];
}

/** A time range as people say it: 'about 20–40 s', 'about 40 s – 2 min'. */
export function fmtTimeRange(t: Pick<TimeEstimate, 'low' | 'high'>): string {
  const [a, ua] = inUnit(t.low);
  const [b, ub] = inUnit(t.high);
  if (ua === ub) return a === b ? `about ${a} ${ua}` : `about ${a}–${b} ${ua}`;
  return `about ${a} ${ua} – ${b} ${ub}`;
}
