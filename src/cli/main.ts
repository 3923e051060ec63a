/**
 * `mvstudio`: the command-line host of the core. Subcommands live in their own modules;
 * this file only dispatches and turns errors into exit codes (0 ok, 2 bad input, 1 bug).
 */
import { helperCountFromEnv, runHelperIfThread, startThreadPool } from '../backend/threads';

export const USAGE = `usage: mvstudio <command> [options]

commands:
  info <file> [--mask <file|variable>] [--fold k] [--views v] [--labels v]
              [--orientation "n x d"|"d x n"] [--labels-file f] [--json]
                         describe a dataset and every decision taken to read it
  methods [--json]       the clustering methods and their parameters
  run <method> <file> [--<param> value ...] [--k n] [--seed n]
              [--protocol single|paper] [--seeds n] [--out dir] [--json]
              [--mask ... as info]
                         cluster a dataset; saves a run bundle in --out (./mvstudio-runs)
  compare <file> --methods a,b,... [--seeds 20] [--seed n] [--k n] [--out dir] [--json]
                         the paper protocol (mean ± std over seeds) for each method
  choose-k <method> <file...> --k FROM..TO [--seed n] [--<param> value ...] [--json]
                         help choosing k without labels: eigengap, silhouette, objective per k
  synth --n N --k K --dims d1,d2,... --out file.npz [--complete p] [--seed s]
        [--separation x] [--noise x] [--latent r] [--json]
                         write a synthetic multi-view dataset (Gaussian mixture; a fraction
                         p of samples in every view, the rest missing 1..V-1 views)
  serve [--port p]       serve the app on http://127.0.0.1:p (default 5173)
  help                   this text`;

// Started as a helper thread of the pool below (this module, or the bundle holding it, is the
// helpers' entry): serve tasks and nothing else.
runHelperIfThread();

/**
 * Helper threads for the commands that solve (MVSTUDIO_THREADS, default one per extra core):
 * started before the dataset loads, so that they are ready when the solver needs them.
 */
function startHelpers(): void {
  startThreadPool({ helpers: helperCountFromEnv(), entry: new URL(import.meta.url) });
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'run' || command === 'compare' || command === 'choose-k') {
    try {
      startHelpers();
    } catch (e) {
      process.stderr.write(`mvstudio: ${e instanceof Error ? e.message : String(e)}\n`);
      return 2;
    }
  }
  switch (command) {
    case 'info': {
      const { runInfo } = await import('./info');
      return runInfo(rest);
    }
    case 'methods':
    case 'run':
    case 'compare': {
      const { runCommand } = await import('./run');
      return runCommand(command, rest);
    }
    case 'choose-k':
      return (await import('./choose-k')).runChooseK(rest);
    case 'synth': {
      const { runSynth } = await import('./synth');
      return runSynth(rest);
    }
    case 'serve': {
      const { runServe } = await import('./serve');
      return runServe(rest);
    }
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(USAGE + '\n');
      return command === undefined ? 2 : 0;
    default:
      process.stderr.write(`mvstudio: unknown command '${command}'\n${USAGE}\n`);
      return 2;
  }
}
