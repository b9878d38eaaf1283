/**
 * What a command needs from the machine before it runs anything: the `pulumi` CLI on PATH.
 * Checked up front so a pipeline gets one sentence naming the missing program and how to get
 * it, rather than a spawn error code per stack.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { packageRoot } from "./package-info";

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
export function missingPulumi(env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (findOnPath("pulumi", env.PATH)) return undefined;
  const script = path.join(packageRoot, "scripts", "ensure-pulumi");
  return [
    "the Pulumi CLI `pulumi` was not found on PATH, and this command runs it. Install it",
    "(https://www.pulumi.com/docs/iac/download-install/, e.g. `curl -fsSL https://get.pulumi.com | sh`),",
    `or build it with the script this package ships: \`export PATH="$(${script} | tail -n 1):$PATH"\``,
    "(it prints the directory to add to PATH; the first build takes minutes). Nothing was checked.",
  ].join("\n");
}
