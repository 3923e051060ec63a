/**
 * `mvstudio info <file>...`: what a dataset holds and every decision taken to read it.
 * Exit 0 on success, 2 on bad input (with a message naming the file and the problem).
 */
import { parseArgs } from 'node:util';
import { summarize, type DatasetSummary } from '../core/dataset';
import { loadDataset } from '../io/load';
import { UsageError, isInputError } from './errors';
import { table } from './format';
import { LOAD_OPTIONS, datasetArgs } from './load-args';

const INFO_OPTIONS = { ...LOAD_OPTIONS, json: { type: 'boolean' } } as const;

export async function runInfo(argv: string[]): Promise<number> {
  try {
    let parsed;
    try {
      parsed = parseArgs({
        args: argv,
        options: INFO_OPTIONS,
        allowPositionals: true,
        strict: true,
      });
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    const { files, options } = datasetArgs(
      parsed.positionals,
      parsed.values,
      'info needs a file: mvstudio info <file> [<file> ...]',
    );
    const ds = await loadDataset(files, options);
    const summary = withRunWarning(summarize(ds));
    if (parsed.values.json) process.stdout.write(JSON.stringify(summary, null, 2) + '\n');
    else process.stdout.write(formatSummary(summary));
    return 0;
  } catch (e) {
    if (isInputError(e)) {
      process.stderr.write(`mvstudio info: ${(e as Error).message}\n`);
      return 2;
    }
    throw e;
  }
}

/**
 * The summary plus a warning when a view holds NaN or Inf: `run` (every method, every host)
 * refuses such data in the evaluation protocol's input check rather than cleaning it, so `info`
 * says so here instead of letting the data look runnable.
 */
export function withRunWarning(s: DatasetSummary): DatasetSummary {
  const bad = s.views.filter((v) => v.nanCount > 0);
  if (!bad.length) return s;
  const list = bad.map((v) => `'${v.name}' (${v.nanCount})`).join(', ');
  const warning =
    `NaN or Inf values in ${bad.length === 1 ? 'view' : 'views'} ${list}: runs refuse such ` +
    'data; remove or impute those values (or mark the samples missing in that view) first';
  return { ...s, warnings: [...s.warnings, warning] };
}

/** The human-readable form of `info`. */
export function formatSummary(s: DatasetSummary): string {
  const out: string[] = [];
  out.push(`file         ${s.file}`);
  out.push(`format       ${s.format}`);
  out.push(`samples (n)  ${s.n}`);
  out.push(`missingness  ${s.missingness}`);
  out.push('');
  out.push(
    table([
      ['view', 'd', 'present', 'storage', 'NaN'],
      ...s.views.map((v) => [
        v.name,
        String(v.d),
        `${v.present}/${s.n}`,
        v.sparse ? 'sparse' : 'dense',
        String(v.nanCount),
      ]),
    ]),
  );
  out.push('');
  if (s.labels) {
    const sizes = s.labels.classes.map((c, i) => `${c}:${s.labels!.sizes[i]}`).join(' ');
    out.push(
      `labels       ${s.labels.classes.length} classes from '${s.labels.source}' (${sizes})`,
    );
  } else out.push('labels       none');
  out.push(
    `views/sample ${s.samplesByViewCount.map((k, i) => `${i + 1} view${i ? 's' : ''}: ${k}`).join(', ')}`,
  );
  out.push('');
  out.push('decisions');
  for (const d of s.decisions) {
    out.push(`  ${d.topic}: ${d.choice}${d.overridden ? ' [forced]' : ''}`);
    out.push(`    because ${d.reason}`);
  }
  if (s.warnings.length) {
    out.push('');
    out.push('warnings');
    for (const w of s.warnings) out.push(`  ${w}`);
  }
  return out.join('\n') + '\n';
}
