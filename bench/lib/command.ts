import { runCommand, type AnyCommand } from '../../agent/cli/command';

/**
 * Runs a bench as a command on this process's arguments, parsed as bwa's are: an unknown flag or a bad value is a
 * usage error (exit 2), `--help` prints the options. Anything else that stops it prints its stack (exit 1).
 */
export function runBench(command: AnyCommand): void {
  runCommand(command, process.argv.slice(2)).then(
    code => {
      process.exitCode = code;
    },
    error => {
      console.error(error);
      process.exit(1);
    },
  );
}
