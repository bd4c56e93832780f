// The frame around every entry point: read the command line, print the help on --help (exit 0), run the
// tool and exit with its code. Bad input (a UsageError, from the table or from the tool's own checks)
// prints `<tool>: <message>` and the help on stderr and exits 2, the same for every tool.
import { errorText } from './error-text';
import { holdLifetime } from './lifetime';
import { helpText, parseCommandLine, UsageError, type Command, type CommandLine, type OptionTable } from './command-line';

export type ToolMain<T extends OptionTable> = (line: CommandLine<T>, argv: readonly string[]) => number | Promise<number>;

export interface ToolOptions {
  /** Exit code when the tool fails for a reason other than its input (default 1). */
  errorExitCode?: number;
  /** Print the stack of such a failure, not only its message. */
  stack?: boolean;
}

interface Output {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/** What `runTool` does short of exiting: the exit code, with the help and messages written to `io`. */
export async function toolExitCode<T extends OptionTable>(command: Command<T>, main: ToolMain<T>, argv: readonly string[], options: ToolOptions = {}, io: Output = process): Promise<number> {
  try {
    const line = parseCommandLine(command, argv);
    if (line.help) {
      io.stdout.write(helpText(command));
      return 0;
    }
    return await main(line, argv);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`${command.name}: ${error.message}\n\n${helpText(command)}`);
      return 2;
    }
    io.stderr.write(`${command.name}: ${options.stack && error instanceof Error ? (error.stack ?? error.message) : errorText(error)}\n`);
    return options.errorExitCode ?? 1;
  }
}

/**
 * An entry point's last line: run `main` on this process's arguments and exit with its code. Once the
 * command line is read, every process the tool starts is held to end with it, SIGKILL included
 * (lifetime.ts); as root a hierarchy that refuses says so once.
 */
export function runTool<T extends OptionTable>(command: Command<T>, main: ToolMain<T>, options: ToolOptions = {}): void {
  const held: ToolMain<T> = (line, argv) => {
    const hold = holdLifetime();
    if ('unavailable' in hold && process.getuid?.() === 0) process.stderr.write(`${command.name}: what it starts may outlive a SIGKILL of it (no cgroup of its own: ${hold.unavailable})\n`);
    return main(line, argv);
  };
  void toolExitCode(command, held, process.argv.slice(2), options).then((code) => process.exit(code));
}
