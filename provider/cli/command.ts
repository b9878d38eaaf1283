/** What every `cdnstream` subcommand implements, and the I/O it is given (injectable for tests). */
import { parseArgs, type ParseArgsConfig } from "node:util";

export type Env = Readonly<Record<string, string | undefined>>;

export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Env;
}

export interface Command {
  /** One line for the top-level help. */
  summary: string;
  /** Runs with the arguments after the subcommand name; resolves to the exit code. */
  run(argv: readonly string[], io: Io): Promise<number>;
}

/**
 * The exit codes of every `cdnstream` command, one table whatever the subcommand ({@link EXIT_HELP}
 * says what each means). 2 means only "drift found": a typo must never read as drift, so bad usage
 * is 64 (EX_USAGE of sysexits.h); an environment that is not ready is 1.
 */
export const EXIT = {
  ok: 0,
  failed: 1,
  drift: 2,
  usage: 64,
  sigint: 130,
  sigterm: 143,
} as const;

/** The exit-status section of every help text, written once from {@link EXIT}. */
export const EXIT_HELP = `Exit status (every command):
  ${EXIT.ok}    success; for \`drift\`, no drift
  ${EXIT.failed}    could not do or check it: an API or connection error, a stack that could not be
       checked, or an environment that is not ready (no \`pulumi\` on PATH, no API key,
       a key the API refuses); the message on stderr says which
  ${EXIT.drift}    \`drift\` only: drift found
  ${EXIT.usage}   bad usage (EX_USAGE): unknown command, bad flag or argument, no Pulumi.yaml in the
       project directory; nothing is run and no report is written
  ${EXIT.sigint}  stopped by SIGINT (Ctrl-C)
  ${EXIT.sigterm}  stopped by SIGTERM (e.g. \`timeout\`, a cancelled CI job); for both, every process the
       command started is stopped with it and no report is written`;

/** A usage mistake: printed with the command's help hint. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** node's parseArgs (strict unless told otherwise), its complaints thrown as UsageErrors. */
export function parseOptions<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/** Prints a usage mistake of `cdnstream <command>` with the hint to its help; the exit code for it. */
export function usageFailure(io: Io, command: string, message: string): number {
  io.stderr(`cdnstream ${command}: ${message}\nRun \`cdnstream ${command} --help\` for usage.`);
  return EXIT.usage;
}

/**
 * The arguments `parse` makes of a command line, or the exit code when there is nothing to run:
 * help was asked for (`parse` returned undefined; printed) or a UsageError (see {@link usageFailure}).
 */
export function parseOrExit<A>(io: Io, command: string, help: string, parse: () => A | undefined): A | number {
  try {
    const args = parse();
    if (args !== undefined) return args;
    io.stdout(help);
    return EXIT.ok;
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return usageFailure(io, command, e.message);
  }
}
