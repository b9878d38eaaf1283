/**
 * The provider plugin as the engine meets it: `pulumi-resource-cdnstream` on PATH, running the
 * packed package's build (test/helpers/package.ts), and the YAML language host beside it
 * (scripts/ensure-language-yaml). Global setup puts both on PATH for every end-to-end worker.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { writePluginLauncher } from "../../provider/cli/plugin";
import { repoRoot } from "./engine";
import { installedPackageDir } from "./package";

/** The plugin's executable in the installed package. */
export const pluginMain = path.join(installedPackageDir, "dist", "provider", "plugin", "main.js");

/**
 * A directory holding `pulumi-resource-cdnstream`, a launcher of the installed package's plugin
 * (npm links the package's `bin` into a project's node_modules/.bin, which the engine does not
 * search; users run `cdnstream plugin install` instead, which docs/plugin.md describes).
 */
export function pluginBinDir(): string {
  const dir = path.join(repoRoot, ".tmp", "plugin-bin");
  writePluginLauncher(dir, pluginMain);
  return dir;
}

/** Runs scripts/ensure-language-yaml and returns the directory holding pulumi-language-yaml; throws saying how to get it. */
export function ensureYamlHost(): string {
  const script = path.join(repoRoot, "scripts", "ensure-language-yaml");
  const run = spawnSync(script, [], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  const dir = (run.stdout ?? "").trim().split("\n").pop() ?? "";
  if (run.status !== 0 || !fs.existsSync(path.join(dir, "pulumi-language-yaml"))) {
    throw new Error(
      `The YAML language host is not available (scripts/ensure-language-yaml exited ${run.status}). ` +
        "Run scripts/ensure-language-yaml from the repository root: it builds pulumi-language-yaml from the Go " +
        "module proxy (needs Go) and caches it outside the repo.",
    );
  }
  return dir;
}
