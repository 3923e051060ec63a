/**
 * `mvstudio`: the command-line host of the core. Subcommands live in their own modules;
 * this file only dispatches and turns errors into exit codes (0 ok, 2 bad input, 1 bug).
 */
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
  synth --n N --k K --dims d1,d2,... --out file.npz [--complete p] [--seed s]
        [--separation x] [--noise x] [--latent r] [--json]
                         write a synthetic multi-view dataset (Gaussian mixture; a fraction
                         p of samples in every view, the rest missing 1..V-1 views)
  serve [--port p]       serve the app on http://127.0.0.1:p (default 5173)
  help                   this text`;

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
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
