/**
 * What every bench stack needs: the repository's paths, the Pulumi engine on PATH, the package
 * installed as users get it, and the environment of a local file backend.
 *
 * This module works from the sources (the jest smoke test) and from dist/scripts/bench (`npm run
 * bench`), so paths are found from the repository root, never relative to this file.
 */
import { execFileSync, spawnSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

/** The nearest ancestor holding the package.json of pulumi-cdnstream. */
export const repoRoot = ((): string => {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (fs.existsSync(file) && JSON.parse(fs.readFileSync(file, "utf8")).name === "pulumi-cdnstream") return dir;
    if (path.dirname(dir) === dir) throw new Error(`no pulumi-cdnstream repository above ${__dirname}`);
  }
})();

/** Everything the bench writes (ignored by git, like every .tmp/ directory). */
export const benchRoot = path.join(repoRoot, ".tmp", "bench");

/** Where programs below the repository resolve `pulumi-cdnstream` from (test/helpers/package.ts). */
export const installedPackageDir = path.join(repoRoot, "node_modules", "pulumi-cdnstream");

/**
 * Runs scripts/ensure-pulumi (cached: well under a second) and puts the CLI, then the
 * dynamic-provider plugin shipped in @pulumi/pulumi, first on this process's PATH, which the
 * Automation API and every plugin inherit. Throws with the script's diagnostics.
 */
export function ensureEngineOnPath(): void {
  const run = spawnSync(path.join(repoRoot, "scripts", "ensure-pulumi"), [], { encoding: "utf8" });
  const binDir = (run.stdout ?? "").trim().split("\n").pop() ?? "";
  if (run.status !== 0 || !fs.existsSync(path.join(binDir, "pulumi"))) {
    throw new Error(`the Pulumi engine is not available (scripts/ensure-pulumi exited ${run.status}):\n${(run.stderr ?? "").trim()}`);
  }
  const pluginDir = path.dirname(require.resolve("@pulumi/pulumi/pulumi-resource-pulumi-nodejs", { paths: [repoRoot] }));
  process.env.PATH = [binDir, pluginDir, process.env.PATH].filter(Boolean).join(path.delimiter);
}

/** `pulumi version` without the leading v, and the CLI's default `--parallel` on this machine. */
export function pulumiFacts(): { version: string; defaultParallel: number | null } {
  const version = execFileSync("pulumi", ["version"], { encoding: "utf8" }).trim().replace(/^v/, "");
  const help = execFileSync("pulumi", ["up", "--help"], { encoding: "utf8" });
  const parallel = /--parallel int32 .*\(default (\d+)\)/.exec(help)?.[1];
  return { version, defaultParallel: parallel ? Number(parallel) : null };
}

/** Files of the built package whose installed copy must be identical. */
function packageFiles(root: string): string[] {
  const out = ["package.json"];
  const walk = (rel: string): void => {
    for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const child = path.join(rel, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (entry.name.endsWith(".js")) out.push(child);
    }
  };
  for (const dir of ["dist/sdk", "dist/provider", "dist/emulator"]) walk(dir);
  return out;
}

function installedIsCurrent(): boolean {
  try {
    return packageFiles(repoRoot).every((f) => fs.readFileSync(path.join(repoRoot, f)).equals(fs.readFileSync(path.join(installedPackageDir, f))));
  } catch {
    return false;
  }
}

/**
 * `npm pack`s dist/ and unpacks it into node_modules/pulumi-cdnstream, as test/helpers/package.ts
 * does, unless the installed copy already equals dist/. The shims must live inside node_modules
 * for their serialized provider to be a one-line require (provider/shim.ts). The new copy is
 * renamed into place, so an end-to-end test of another engineer loading it never sees half a
 * directory.
 */
export function installPackedPackage(): void {
  if (!fs.existsSync(path.join(repoRoot, "dist", "sdk", "index.js"))) throw new Error("dist/ is missing: run `npm run build` first");
  if (installedIsCurrent()) return;
  const scratch = path.join(repoRoot, "node_modules", `.pulumi-cdnstream-bench-${crypto.randomBytes(4).toString("hex")}`);
  fs.mkdirSync(path.join(scratch, "pkg"), { recursive: true });
  try {
    const [packed] = JSON.parse(
      execFileSync("npm", ["pack", "--json", "--silent", "--pack-destination", scratch], { cwd: repoRoot, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }),
    );
    execFileSync("tar", ["-xzf", path.join(scratch, packed.filename), "-C", path.join(scratch, "pkg"), "--strip-components=1"]);
    const old = `${scratch}-old`;
    if (fs.existsSync(installedPackageDir)) fs.renameSync(installedPackageDir, old);
    fs.renameSync(path.join(scratch, "pkg"), installedPackageDir);
    fs.rmSync(old, { recursive: true, force: true });
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** The SDK as a user's program imports it (loaded by path: inside the repo the name means the sources). */
export function loadInstalledSdk(): typeof import("../../sdk") {
  return require(installedPackageDir);
}

/** One run's directory: one file backend and PULUMI_HOME shared by every stack of the run. */
export function engineEnv(runDir: string, apiKey: string): Record<string, string> {
  return {
    PULUMI_BACKEND_URL: `file://${path.join(runDir, "backend")}`,
    PULUMI_HOME: path.join(runDir, "pulumi-home"),
    PULUMI_CONFIG_PASSPHRASE: "cdnstream-bench",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    // The provider takes the key from its environment, so it never enters config or state.
    CDNSTREAM_API_KEY: apiKey,
  };
}
