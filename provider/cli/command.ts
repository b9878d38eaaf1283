/** What every `cdnstream` subcommand implements, and the I/O it is given (injectable for tests). */

/** Output sinks and environment of one run. */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Readonly<Record<string, string | undefined>>;
}

/** A subcommand. */
export interface Command {
  /** One line for the top-level help. */
  summary: string;
  /** Runs with the arguments after the subcommand name; resolves to the exit code. */
  run(argv: readonly string[], io: Io): Promise<number>;
}

/** Exit codes shared by all subcommands. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** A usage mistake: printed with the command's help hint, exit 2. */
export class UsageError extends Error {
  override name = "UsageError";
}
