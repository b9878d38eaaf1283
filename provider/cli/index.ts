#!/usr/bin/env node
/**
 * `cdnstream`: the dispatcher to the subcommands of {@link commands}. Every path exits with a code
 * of the one table in ./command.ts (EXIT), which `--help` prints.
 */
// Before the commands' modules load: on a Node older than the floor they would fail deep inside.
import { exitOnUnsupportedNode } from "../../sdk/supported-node";
exitOnUnsupportedNode();
import { apiCommand } from "./api";
import { EXIT, EXIT_HELP, type Command, type Io } from "./command";
import { doctorCommand } from "./doctor";
import { driftCommand } from "./drift";
import { redacting } from "./environment";
import { pluginCommand } from "./plugin";
import { packageVersion as version } from "../../kinds/package-info";
import { installSignalHandlers } from "./signals";

/** Subcommands by name; add new ones here. */
export const commands: Record<string, Command> = {
  api: apiCommand,
  doctor: doctorCommand,
  drift: driftCommand,
  plugin: pluginCommand,
};

function usage(): string {
  const lines = Object.entries(commands).map(([name, c]) => `  ${name.padEnd(8)} ${c.summary}`);
  return [
    "Usage: cdnstream <command> [options]",
    "       cdnstream --version",
    "",
    "Commands:",
    ...lines,
    "",
    "Run `cdnstream <command> --help` for a command's options.",
    "",
    "Configuration: stack config (cdnstream:apiKey, cdnstream:baseUrl, ...) or the environment:",
    "CDNSTREAM_API_KEY, CDNSTREAM_BASE_URL (the address before /v2), CDNSTREAM_MAX_RETRIES,",
    "CDNSTREAM_TIMEOUT_MS, CDNSTREAM_RPS, CDNSTREAM_MAX_CONCURRENCY and the others listed in the",
    // The README ships with the package, the sources do not.
    "README.md of this package, section “Configuration”.",
    "`cdnstream doctor` shows which of them are in effect and tries the key.",
    "",
    EXIT_HELP,
  ].join("\n");
}

/**
 * Runs the command line `argv` (without node and script); resolves to the exit code. Whatever
 * reaches stderr, a bug's stack included, leaves redacted of every secret the run knows.
 */
export async function main(argv: readonly string[], given: Io): Promise<number> {
  const io = redacting(given);
  const [name, ...rest] = argv;
  if (name === "--help" || name === "-h" || name === "help") {
    io.stdout(usage());
    return EXIT.ok;
  }
  if (name === "--version" || name === "-v" || name === "version") {
    io.stdout(version);
    return EXIT.ok;
  }
  if (name === undefined) {
    io.stderr(usage());
    return EXIT.usage;
  }
  const command = commands[name];
  if (!command) {
    const hint = name.startsWith("-") ? `unknown option "${name}"` : `unknown command "${name}"`;
    io.stderr(`cdnstream: ${hint}\n\n${usage()}`);
    return EXIT.usage;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    // A bug, not an API failure: keep the stack (redacted, as everything on stderr).
    io.stderr(`cdnstream: internal error: ${error instanceof Error ? error.stack : String(error)}`);
    return EXIT.failed;
  }
}

if (require.main === module) {
  const io: Io = {
    stdout: (text) => process.stdout.write(text.endsWith("\n") ? text : `${text}\n`),
    stderr: (text) => process.stderr.write(text.endsWith("\n") ? text : `${text}\n`),
    env: process.env,
  };
  installSignalHandlers(io);
  void main(process.argv.slice(2), io).then((code) => {
    process.exitCode = code;
  });
}
