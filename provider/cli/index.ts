#!/usr/bin/env node
/**
 * `cdnstream`: the command-line face of the client. A subcommand dispatcher: `api` (one request)
 * and `drift` (drift detection through the Automation API). Exit codes: 0 success, 1 API or
 * connection error, 2 bad usage or configuration; `drift` exits 2 when it finds drift and 64
 * (EX_USAGE) on bad usage.
 */
import { apiCommand } from "./api";
import { driftCommand } from "./drift";
import { pluginCommand } from "./plugin";
import type { Command, Io } from "./command";

/** Subcommands by name; add new ones here. */
export const commands: Record<string, Command> = {
  api: apiCommand,
  drift: driftCommand,
  plugin: pluginCommand,
};

function usage(): string {
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(8)} ${c.summary}`);
  return [
    "Usage: cdnstream <command> [options]",
    "",
    "Commands:",
    ...lines,
    "",
    "Run `cdnstream <command> --help` for a command's options.",
    "",
    "Configuration (environment): CDNSTREAM_API_KEY, CDNSTREAM_BASE_URL (the address before /v2),",
    "CDNSTREAM_MAX_RETRIES, CDNSTREAM_MAX_RETRY_WAIT_MS, CDNSTREAM_TIMEOUT_MS, CDNSTREAM_RPS,",
    "CDNSTREAM_MAX_CONCURRENCY and the other CDNSTREAM_* settings of provider/client/config.ts.",
    "",
    "Exit status: 0 success, 1 API or connection error, 2 bad usage or missing configuration;",
    "`drift`: 2 drift found, 64 bad usage (see `cdnstream drift --help`).",
  ].join("\n");
}

/** Runs the command line `argv` (without node and script); resolves to the exit code. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    (name === undefined ? io.stderr : io.stdout)(usage());
    return name === undefined ? 2 : 0;
  }
  const command = commands[name];
  if (!command) {
    io.stderr(`cdnstream: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  return command.run(rest, io);
}

if (require.main === module) {
  const io: Io = {
    stdout: (text) => process.stdout.write(text.endsWith("\n") ? text : `${text}\n`),
    stderr: (text) => process.stderr.write(text.endsWith("\n") ? text : `${text}\n`),
    env: process.env,
  };
  main(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      // A bug, not an API failure: keep the stack, but never a key (errors of the client are redacted).
      io.stderr(`cdnstream: internal error: ${error instanceof Error ? error.stack : String(error)}`);
      process.exitCode = 1;
    },
  );
}
