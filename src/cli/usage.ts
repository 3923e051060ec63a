/**
 * The usage of each command, printed by `mvstudio <command> --help` (or `-h`), and the overview
 * `mvstudio help` prints. Each command's text is complete on its own: a user reading
 * `mvstudio run --help` needs no other page.
 */
import { MAX_SEEDS } from '../core/limits';
import { DEFAULT_SEED } from '../shared/defaults';
import { LOAD_USAGE } from './load-args';

const RUN = `usage: mvstudio run <method> <dataset> [--<param> value ...] [options]

Clusters a dataset with one method and saves a run bundle (run.json, labels.csv).

${LOAD_USAGE}
options:
  --<param> value        a parameter of the method (mvstudio methods lists them)
  --k n                  the number of clusters; default the number of classes of the labels
  --seed n               the first seed (default ${DEFAULT_SEED})
  --protocol single|paper
                         single: one run; paper: mean ± std over --seeds seeds
  --seeds n              paper protocol: how many seeds, 1 to ${MAX_SEEDS} (default 20)
  --preprocess none|l2-rows|zscore
                         per-view preprocessing before the method (default none: raw features)
  --out dir              where the bundle goes (default ./mvstudio-runs)
  --json                 print the run summary as JSON
  -h, --help             this text

example: mvstudio run bsv view1.csv view2.csv --labels-file labels.csv --k 3`;

const COMPARE = `usage: mvstudio compare <dataset> --methods a,b,... [options]

Runs each method under the paper protocol (mean ± std over seeds) and prints one row per method;
saves a run bundle per method.

${LOAD_USAGE}
options:
  --methods a,b,...      the methods (mvstudio methods lists them)
  --seeds n              how many seeds, 1 to ${MAX_SEEDS} (default 20)
  --seed n               the first seed (default ${DEFAULT_SEED})
  --k n                  the number of clusters; default the number of classes of the labels
  --preprocess none|l2-rows|zscore
                         per-view preprocessing before the method (default none: raw features)
  --out dir              where the bundles go (default ./mvstudio-runs)
  --json                 print the run summaries as a JSON array
  -h, --help             this text`;

const INFO = `usage: mvstudio info <dataset> [options]

Describes a dataset (samples, views, labels, missing views) and every decision taken to read it.

${LOAD_USAGE}
options:
  --json                 print the summary as JSON
  -h, --help             this text`;

const SHOW = `usage: mvstudio show <bundle> [--json]

Prints a saved run (a bundle folder, or its run.json) as \`mvstudio run\` printed it: dataset,
method, parameters, metrics, timings and notes.

options:
  --json                 print the run summary as JSON
  -h, --help             this text`;

const METHODS = `usage: mvstudio methods [--json]

Lists the clustering methods and their parameters (type, bounds, default, meaning).

options:
  --json                 print the list as JSON
  -h, --help             this text`;

const SYNTH = `usage: mvstudio synth --n N --k K --dims d1,d2,... --out file.npz [options]

Writes a synthetic multi-view dataset (a Gaussian mixture); a fraction p of the samples is in
every view, the rest miss 1..V-1 views.

options:
  --complete p           the fraction of samples in every view (default 1)
  --seed s               the seed (default ${DEFAULT_SEED})
  --separation x         how far apart the clusters are
  --noise x              the noise level
  --latent r             the dimension of the shared latent space
  --json                 print what was written as JSON
  -h, --help             this text`;

const SERVE = `usage: mvstudio serve [--port p]

Serves the app on http://127.0.0.1:p (default 5173; 0 picks a free port), building the web
interface first when it is missing or older than its sources.

options:
  --port p               the port, 0 to 65535
  -h, --help             this text`;

const STUDY = `usage: mvstudio study run <spec.json> [--out dir] [--executor local|slurm] [slurm options]
       mvstudio study status <dir> [--json]
       mvstudio study cell <dir> <cellId>
       mvstudio study report <dir> [--format md|tex|html|csv] [--metric m] [--select oracle|label-free]

A study is methods × datasets × parameter grid × seeds under one protocol, written as a JSON
spec (docs/studies.md). Each cell (a method entry on a dataset at one grid point, all seeds)
is saved as a run bundle in <dir>/cells/<cellId>/; <dir>/results.csv has one line per cell and
seed. Stopping (Ctrl-C, a crash) loses only the running cell: run again to resume.

  run                    create or resume the study in --out (default ./mvstudio-studies/<spec>)
  status                 cells done, failed (with the reason, a Slurm task's too) and still
                         to run; the Slurm tasks' states
  cell                   run one cell into the folder (what a cluster's array task runs)
  report                 the results table (mean ± std over the seeds, best in bold, second
                         underlined, ties noted, average rank) at the grid points chosen by
                         --select (default oracle: the best mean of the spec's oracle metric
                         against the labels); with 3 datasets or more the Friedman/Nemenyi
                         and Wilcoxon–Holm comparison. md, tex (booktabs), csv (the table),
                         or html: one self-contained page adding heatmaps of 2-parameter
                         grids, line plots of 1-parameter grids and missing-rate series, the
                         spec, the versions and the dataset hashes. The rows: results.csv

options:
  --out dir              study run: the study folder
  --executor local|slurm
                         study run: run the cells here, one after the other (default), or
                         as a Slurm job array of \`mvstudio study cell\` tasks, waiting for
                         them; a task that ends without its cell (cancelled, out of time)
                         leaves it to run: study run again submits what is missing
  --partition p          slurm: the partition
  --time t               slurm: the time limit per cell ("30", "2:00:00")
  --mem MB               slurm: memory per cell (default: from the method's declared
                         footprint on the dataset, rounded up to a power of two)
  --cpus n               slurm: CPUs per cell (default 1)
  --json                 study status: print the counts and failures as JSON
  --format f             study report: md (default), tex, html or csv
  --metric m             study report: acc, nmi, purity, ari, f or silhouette
  --select rule          study report: oracle (default) or label-free
  -h, --help             this text`;

const SWEEP = `usage: mvstudio sweep <method> <dataset> --grid name=v1,v2,... [name2=...] [options]

Runs one method over a parameter grid (every combination, each over --seeds seeds) and prints a
heatmap table of the mean per grid point (first parameter on rows), marking the oracle choice
(O: best mean ACC, uses the labels) and the label-free one (L: best mean silhouette without
labels, else the most stable labels across seeds); --json adds the standard deviations. Integer parameters take k-relative values: anchors=k,2k,3k. The study
folder is kept (same command: resumes).

${LOAD_USAGE}
options:
  --grid name=v1,v2,...  the grid: one or more name=values words after --grid
  --<param> value        a fixed parameter of the method
  --seeds n              seeds per grid point (default 5)
  --seed n               the first seed (default ${DEFAULT_SEED})
  --k n                  the number of clusters; default the number of classes of the labels
  --preprocess none|l2-rows|zscore
  --replicates n         k-means starts per seed (default 20)
  --out dir              the study folder (default ./mvstudio-studies/sweep-<method>-<file>-<hash>)
  --executor local|slurm
                         run the cells here (default) or as a Slurm job array; with
                         --partition, --time, --mem, --cpus as for study run
  --json                 one object: cells (parameters, metric mean/std) and both selections
  -h, --help             this text`;

/** The usage of each command that has one here. */
export const COMMAND_USAGE: Readonly<Record<string, string>> = {
  info: INFO,
  methods: METHODS,
  run: RUN,
  compare: COMPARE,
  show: SHOW,
  synth: SYNTH,
  serve: SERVE,
  study: STUDY,
  sweep: SWEEP,
};

export const USAGE = `usage: mvstudio <command> [options]     (mvstudio <command> --help for its options)

A dataset is one MAT/NPZ file, or one CSV/NPY file per view (+ --labels-file f).

commands:
  info <dataset>         describe a dataset and every decision taken to read it
  methods                the clustering methods and their parameters
  run <method> <dataset> cluster a dataset; saves a run bundle in --out (./mvstudio-runs)
  compare <dataset> --methods a,b,...
                         the paper protocol (mean ± std over seeds) for each method
  show <bundle>          print a saved run again
  study run|status|cell|report
                         methods × datasets × grid × seeds from a spec, resumable
  sweep <method> <dataset> --grid name=v1,v2,...
                         one method over a parameter grid: oracle and label-free choices
  choose-k <method> <dataset> --k FROM..TO
                         help choosing k without labels: eigengap, silhouette, objective per k
  synth --n N --k K --dims d1,d2,... --out file.npz
                         write a synthetic multi-view dataset
  serve [--port p]       serve the app on http://127.0.0.1:p (default 5173)
  help                   this text`;

/** True when the arguments ask for help: `--help` or `-h` anywhere. */
export function asksHelp(argv: readonly string[]): boolean {
  return argv.some((a) => a === '--help' || a === '-h');
}
