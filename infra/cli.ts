/**
 * What the hand-run CLIs of the local services (infra/kafka/cli.ts, infra/registry/cli.ts) share:
 * the `--lines N` option of `logs`, the usage and its exit codes, and running a command to the
 * process's exit code.
 */

/** `--lines N`: how many lines of each log `logs` prints; 30 when absent. */
export function parseLines(args: readonly string[]): number {
  const i = args.indexOf('--lines');
  if (i === -1) return 30;
  const n = Number(args[i + 1]);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--lines needs a positive integer (got "${args[i + 1] ?? ''}"), e.g. --lines 100`);
  return n;
}

/** No command or --help prints the usage (exit 2 without a command, 0 for help); any other command is unknown (2). */
export function usage(command: string | undefined, text: string): number {
  if (command === undefined || command === '-h' || command === '--help') {
    console.log(text);
    return command === undefined ? 2 : 0;
  }
  console.error(`unknown command "${command}"\n${text}`);
  return 2;
}

/** Runs `main` on the command line's arguments: its result is the exit code; an error prints its message and exits 1. */
export function runCli(main: (argv: readonly string[]) => Promise<number>): void {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : String(err));
      process.exitCode = 1;
    },
  );
}
