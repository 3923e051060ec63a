/**
 * `mvstudio`: the command-line host of the core. Subcommands live in their own modules;
 * this file only dispatches and turns errors into exit codes (0 ok, 2 bad input, 1 bug).
 */
import { helperCountFromEnv, runHelperIfThread, startThreadPool } from '../backend/threads';
import { COMMAND_USAGE, USAGE, asksHelp } from './usage';

export { USAGE };

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
  try {
    return await dispatch(argv);
  } catch (e) {
    // A failure no command anticipated (an error inside a method, say): one line naming the
    // command, not a stack trace; MVSTUDIO_DEBUG=1 prints the stack too.
    const what = e instanceof Error ? e.message : String(e);
    process.stderr.write(`mvstudio ${argv[0] ?? ''}: ${what}\n`);
    if (process.env.MVSTUDIO_DEBUG === '1' && e instanceof Error && e.stack)
      process.stderr.write(e.stack + '\n');
    return 1;
  }
}

async function dispatch(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const usage = command === undefined ? undefined : COMMAND_USAGE[command];
  if (usage !== undefined && asksHelp(rest)) {
    process.stdout.write(usage + '\n');
    return 0;
  }
  const solves =
    command === 'run' ||
    command === 'compare' ||
    command === 'choose-k' ||
    command === 'sweep' ||
    (command === 'study' && (rest[0] === 'run' || rest[0] === 'cell'));
  if (solves) {
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
    case 'show': {
      const { runShow } = await import('./show');
      return runShow(rest);
    }
    case 'study':
      return (await import('./study')).runStudyCommand(rest);
    case 'sweep':
      return (await import('./sweep')).runSweepCommand(rest);
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
