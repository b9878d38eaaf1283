/**
 * What a command needs from the machine before it runs anything: the `pulumi` CLI on PATH.
 * Checked up front so a pipeline gets one sentence naming the missing program and how to get
 * it, rather than a spawn error code per stack.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { packageRoot } from "../package-info";

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

/**
 * Options for the Automation API that make it run the `pulumi` found on `env.PATH` (the PATH this
 * command was given), not the one on this process's PATH, which it would look up otherwise. Its
 * installation root is the directory above its bin/; a `pulumi` elsewhere is left to the default.
 */
export async function pulumiCommandOption(
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ pulumiCommand?: import("@pulumi/pulumi/automation").PulumiCommand }> {
  const found = findOnPath("pulumi", env.PATH);
  if (!found || path.basename(path.dirname(found)) !== "bin") return {};
  const automation = require("@pulumi/pulumi/automation") as typeof import("@pulumi/pulumi/automation");
  return {
    pulumiCommand: await automation.PulumiCommand.get({
      root: path.dirname(path.dirname(found)),
      skipVersionCheck: true,
    }),
  };
}
