/**
 * `mvstudio show <bundle>`: a saved run printed again from its run.json, as `mvstudio run`
 * printed it (dataset, method, parameters, metrics, timings, notes), so work survives a
 * restart. Exit 0 on success, 2 when the bundle cannot be read (the message names the file).
 */
import { parseArgs } from 'node:util';
import { bundleFolder, readRunBundle, type RunRecord } from '../io/bundle';
import { UsageError, isInputError } from './errors';
import { formatRun, scoresOf, type RunSummary } from './run-format';

/** The summary `run` printed, rebuilt from the record of its bundle in `dir`. */
export function summaryOfRecord(record: RunRecord, dir: string): RunSummary {
  const ds = record.dataset;
  // Runs without ground truth report the silhouette alone (core/protocol.ts).
  const labelled = record.metrics['Silhouette'] === undefined;
  return {
    method: record.method,
    file: ds.path,
    files: ds.files.map((f) => f.path),
    n: ds.missing.n,
    V: ds.missing.presentPerView.length,
    params: record.params,
    k: record.k,
    protocol: record.protocol,
    seeds: record.seeds,
    ...scoresOf(record.metrics, labelled),
    timings: record.timings,
    iterations: record.iterations,
    converged: record.converged,
    notes: record.notes,
    bundle: dir,
  };
}

export async function runShow(argv: string[]): Promise<number> {
  try {
    let parsed;
    try {
      parsed = parseArgs({
        args: argv,
        options: { json: { type: 'boolean' } },
        allowPositionals: true,
        strict: true,
      });
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    const [target, ...extra] = parsed.positionals;
    if (target === undefined) throw new UsageError('show needs a bundle: mvstudio show <bundle>');
    if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'`);
    const dir = await bundleFolder(target);
    const record = await readRunBundle(dir);
    const summary = summaryOfRecord(record, dir);
    if (parsed.values.json) {
      process.stdout.write(JSON.stringify({ ...summary, createdAt: record.createdAt }) + '\n');
    } else {
      process.stdout.write(formatRun(summary) + `saved       ${record.createdAt}\n`);
    }
    return 0;
  } catch (e) {
    if (isInputError(e)) {
      process.stderr.write(`mvstudio show: ${(e as Error).message}\n`);
      return 2;
    }
    throw e;
  }
}
