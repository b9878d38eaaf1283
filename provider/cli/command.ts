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

/**
 * Exit codes shared by the subcommands. `usage` (2) is bad usage for `api` and the dispatcher;
 * `drift` exits 2 when it finds drift, so its bad usage is `exUsage`, 64, EX_USAGE of
 * sysexits.h, and a pipeline never reads a typo as "drift found".
 */
export const EXIT = { ok: 0, failed: 1, usage: 2, exUsage: 64 } as const;

/** A usage mistake: printed with the command's help hint. */
export class UsageError extends Error {
  override name = "UsageError";
}
