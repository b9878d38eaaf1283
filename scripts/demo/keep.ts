/**
 * What `npm run demo -- --keep` prints: the shell lines that reach the running emulator and the
 * stack with the real CLIs. The key itself is never printed: it is read from the file the demo
 * wrote (mode 600), or it is the caller's own CDNSTREAM_API_KEY.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { DEMO_PASSPHRASE } from "./stack";

export interface KeepContext {
  repoRoot: string;
  stateDir: string;
  stackName: string;
  /** Where the pulumi CLI is. */
  binDir: string;
  /** Where the dynamic-provider plugin script is. */
  pluginDir: string;
  /** The emulator's base URL. */
  url: string;
  keyFromEnv: boolean;
}

/** True when a Node.js language host is reachable, so `pulumi up` in a project directory works. */
function hasLanguageHost(binDir: string): boolean {
  return [binDir, ...(process.env.PATH ?? "").split(path.delimiter)].some(
    (d) => d && fs.existsSync(path.join(d, "pulumi-language-nodejs")),
  );
}

export function keepInstructions(c: KeepContext): string[] {
  const state = path.relative(c.repoRoot, c.stateDir);
  const s = c.stackName;
  const mutate = JSON.stringify({ kind: "pushStreams", id: "3001", patch: { disabled: "1" } });
  const noHost = [
    "",
    "`pulumi up` and `pulumi preview` are not among them: the CLI runs a program through the Node.js",
    "language host (pulumi-language-nodejs), which this engine build lacks. Programs run inline through",
    "the Automation API instead: `npm run demo` deploys, `cdnstream drift` runs the program to check.",
    "`stack output`, `stack export`, `config`, `refresh` and `destroy` do not run the program: they work.",
  ];
  return [
    "",
    `The emulator (${c.url}) and stack "${s}" are still running. Explore them from ${c.repoRoot}:`,
    "",
    `  export PATH="${c.binDir}:${c.pluginDir}:$PATH"`,
    `  export PULUMI_BACKEND_URL="file://${path.join(c.stateDir, "backend")}" PULUMI_HOME="${path.join(c.stateDir, "pulumi-home")}"`,
    `  export PULUMI_CONFIG_PASSPHRASE=${DEMO_PASSPHRASE} PULUMI_SKIP_UPDATE_CHECK=true`,
    c.keyFromEnv
      ? "  # CDNSTREAM_API_KEY: your own, as exported for the demo"
      : `  export CDNSTREAM_API_KEY="$(cat ${state}/api-key)"`,
    `  alias cdnstream="node ${path.join(c.repoRoot, "dist", "provider", "cli", "index.js")}"`,
    "",
    `  pulumi stack output --stack ${s}                      # the outputs above, from the state`,
    `  pulumi stack export --stack ${s} | less               # the state itself (secrets encrypted)`,
    `  curl -s ${c.url}/__emulator/state | less   # the emulated account (admin door)`,
    `  curl -s -X POST ${c.url}/__emulator/mutate -H 'content-type: application/json' \\`,
    `    -d '${mutate}'   # a dashboard change: disable the main event stream`,
    `  cdnstream drift --cwd . --stack ${s}                  # names it: exit 2, a markdown report`,
    `  pulumi refresh --preview-only --diff --stack ${s}     # the same, as Pulumi shows it`,
    `  CDNSTREAM_BASE_URL=${c.url} cdnstream api GET /v2/dns   # the API through the client`,
    ...(hasLanguageHost(c.binDir)
      ? ["  pulumi up --refresh --stack " + s + "                   # undo the change"]
      : noHost),
    "",
    `Stop the emulator: kill $(cat ${state}/emulator.pid)   (the next \`npm run demo\` stops it too)`,
  ];
}
