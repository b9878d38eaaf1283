/**
 * What a command needs from the machine: the `pulumi` CLI on PATH, checked up front so a
 * pipeline gets one sentence naming the missing program and how to get it, rather than a spawn
 * error code per stack; and the environment and options the Automation API runs it with.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { LocalWorkspaceOptions } from "@pulumi/pulumi/automation";
import { Redactor, urlPasswords } from "../../client/core/redact";
import { packageRoot } from "../../kinds/package-info";
import type { Env, Io } from "./command";

/**
 * Values a command must never print, whatever message might echo them: the API key, the
 * passphrase, the access token, and the password of a URL in any variable (PULUMI_BACKEND_URL's
 * `postgres://user:password@...`, a proxy's, ...). Values under 4 characters are not hunted for.
 */
export function secretsOf(env: Env): string[] {
  const named = ["CDNSTREAM_API_KEY", "PULUMI_CONFIG_PASSPHRASE", "PULUMI_ACCESS_TOKEN"].map((k) => env[k] ?? "");
  const passwords = Object.values(env).flatMap((v) => (v ? urlPasswords(v) : []));
  return [...new Set([...named, ...passwords])].filter((v) => v.length >= 4);
}

/** An {@link Io} whose stderr is redacted by its run's one {@link Redactor}, which the command can add secrets to. */
export interface RedactingIo extends Io {
  redactor: Redactor;
}

/**
 * `io` with everything written to stderr redacted of {@link secretsOf} its environment and of any
 * URL's password: where every message of a command leaves, so no message needs redacting itself.
 * An io already redacting is returned as it is, so that a run has one redactor.
 */
export function redacting(io: Io): RedactingIo {
  if ("redactor" in io && io.redactor instanceof Redactor) return io as RedactingIo;
  const redactor = new Redactor(secretsOf(io.env));
  return { ...io, redactor, stderr: (text) => io.stderr(redactor.text(text)) };
}

/** The first executable `name` in the directories of `pathVar`, as a shell finds it; undefined when none. */
export function findOnPath(name: string, pathVar: string | undefined): string | undefined {
  for (const dir of (pathVar ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, name);
    try {
      if (fs.statSync(file).isFile()) {
        fs.accessSync(file, fs.constants.X_OK);
        return file;
      }
    } catch {
      // Not here, or not executable: the shell would go on too.
    }
  }
  return undefined;
}

/** Why `pulumi` cannot be run and what to do, or undefined when it is on PATH. */
export function missingPulumi(env: Env): string | undefined {
  if (findOnPath("pulumi", env.PATH)) return undefined;
  const script = path.join(packageRoot, "scripts", "ensure-pulumi");
  return [
    "the Pulumi CLI `pulumi` was not found on PATH, and this command runs it. Install it",
    "(https://www.pulumi.com/docs/iac/download-install/, e.g. `curl -fsSL https://get.pulumi.com | sh`),",
    `or build it with the script this package ships: \`export PATH="$(${script} | tail -n 1):$PATH"\``,
    "(it prints the directory to add to PATH; the first build takes minutes). Nothing was checked.",
  ].join("\n");
}

// Loaded on first use: `cdnstream api` should not pay for the Automation API's import.
export const automation = () => require("@pulumi/pulumi/automation") as typeof import("@pulumi/pulumi/automation");

/**
 * The environment of the CLI and the provider plugin: the caller's, plus this package's
 * @pulumi/pulumi directory at the end of PATH, where the dynamic-provider plugin script lives.
 * A standard Pulumi installation ships the plugin too and, earlier on PATH, wins.
 */
export function engineEnv(env: Env): Record<string, string> {
  const vars = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as Record<string, string>;
  let pluginDir: string | undefined;
  try {
    pluginDir = path.dirname(require.resolve("@pulumi/pulumi/pulumi-resource-pulumi-nodejs"));
  } catch {
    // Not resolvable in this installation: rely on PATH alone.
  }
  const dirs = (env.PATH ?? "").split(path.delimiter).filter(Boolean);
  // The worker is given this environment already; its PATH keeps one copy.
  vars.PATH = [...dirs, ...(pluginDir && !dirs.includes(pluginDir) ? [pluginDir] : [])].join(path.delimiter);
  return vars;
}

/**
 * Options for a LocalWorkspace on `workDir` with {@link engineEnv}, which run the `pulumi` on
 * `env.PATH` (the PATH this command was given), not the one on this process's PATH: when it sits
 * in a bin/ directory, whose parent is its installation root; elsewhere, the default.
 */
export async function workspaceOptions(workDir: string, env: Env): Promise<LocalWorkspaceOptions> {
  const options: LocalWorkspaceOptions = { workDir, envVars: engineEnv(env) };
  const found = findOnPath("pulumi", env.PATH);
  if (found && path.basename(path.dirname(found)) === "bin")
    options.pulumiCommand = await automation().PulumiCommand.get({
      root: path.dirname(path.dirname(found)),
      skipVersionCheck: true,
    });
  return options;
}
