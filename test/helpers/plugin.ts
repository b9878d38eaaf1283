/**
 * The provider plugin as the engine meets it: `pulumi-resource-cdnstream` on PATH, running the
 * packed package's build (test/helpers/package.ts), and the YAML language host beside it
 * (scripts/ensure-language-yaml). Global setup puts both on PATH for every end-to-end worker.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { run } from "../../scripts/child";
import { GO_BUILD_SCRIPT_DEADLINE_MS, repoRoot } from "./engine";
import { installedPackageDir } from "./package";

/** The plugin's executable in the installed package. */
export const pluginMain = path.join(installedPackageDir, "dist", "provider", "plugin", "main.js");

/**
 * A directory holding `pulumi-resource-cdnstream`, a launcher running the installed package's
 * plugin with the `node` on PATH: the plugin's behaviour, tested by most suites, without copying
 * a Node.js binary and the dependencies for each run. How users get the plugin, self-contained
 * (`cdnstream plugin install`, the release archives), is test/e2e/plugin-release.test.ts's.
 * The launcher is replaced whole (written beside, then renamed), so an engine starting the plugin
 * meanwhile never runs half of it.
 */
export function pluginBinDir(): string {
  const dir = path.join(repoRoot, ".tmp", "plugin-bin");
  const launcher = path.join(dir, "pulumi-resource-cdnstream");
  const text = `#!/bin/sh\nexec node "${pluginMain}" "$@"\n`;
  if (fs.existsSync(launcher) && fs.readFileSync(launcher, "utf8") === text) return dir;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(`${launcher}.tmp-${process.pid}`, text, { mode: 0o755 });
  fs.renameSync(`${launcher}.tmp-${process.pid}`, launcher);
  return dir;
}

/** Runs scripts/ensure-language-yaml and returns the directory holding pulumi-language-yaml; throws saying how to get it. */
export async function ensureYamlHost(): Promise<string> {
  const script = path.join(repoRoot, "scripts", "ensure-language-yaml");
  const ran = await run(script, [], { deadlineMs: GO_BUILD_SCRIPT_DEADLINE_MS, allowFailure: true });
  const dir = ran.stdout.trim().split("\n").pop() ?? "";
  if (ran.status !== 0 || !fs.existsSync(path.join(dir, "pulumi-language-yaml"))) {
    throw new Error(
      `The YAML language host is not available (scripts/ensure-language-yaml exited ${ran.status}):\n${ran.stderr.trim()}\n` +
        "Run scripts/ensure-language-yaml from the repository root: it builds pulumi-language-yaml from the Go " +
        "module proxy (needs Go) and caches it outside the repo.",
    );
  }
  return dir;
}
