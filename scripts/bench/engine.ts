/**
 * What every bench stack needs: the repository's paths, the Pulumi engine on PATH, the package
 * installed as users get it, and the environment of a local file backend.
 *
 * This module works from the sources (the jest smoke test) and from dist/scripts/bench (`npm run
 * bench`), so paths are found from the repository root, never relative to this file.
 */
import { runSync } from "../child";
import * as fs from "node:fs";
import * as path from "node:path";

// The demo's install is the bench's too: one pack-and-swap, so concurrent runs never collide.
import { layOutPlugin, PLUGIN_LAYOUT } from "../../provider/cli/plugin";
import { installedPackageDir, installPackedPackage, repoRoot } from "../demo/project-build";
import { releaseNode } from "../release";

export { installPackedPackage, repoRoot };

/** Everything the bench writes (ignored by git, like every .tmp/ directory). */
export const benchRoot = path.join(repoRoot, ".tmp", "bench");

/**
 * Runs scripts/ensure-pulumi (cached: well under a second) and puts the CLI, then the
 * dynamic-provider plugin shipped in @pulumi/pulumi, first on this process's PATH, which the
 * Automation API and every plugin inherit. Throws with the script's diagnostics. With
 * `profiling`, a launcher that profiles the CLI's operations comes before the CLI
 * ({@link engineProfilingDir}).
 */
export function ensureEngineOnPath(options: { profiling?: boolean } = {}): void {
  // Warm: well under a second; cold, a build of the CLI: up to a quarter of an hour (docs/engine.md).
  const run = runSync(path.join(repoRoot, "scripts", "ensure-pulumi"), [], {
    deadlineMs: 40 * 60_000,
    allowFailure: true,
  });
  const binDir = run.stdout.trim().split("\n").pop() ?? "";
  if (run.status !== 0 || !fs.existsSync(path.join(binDir, "pulumi"))) {
    throw new Error(
      `the Pulumi engine is not available (scripts/ensure-pulumi exited ${run.status}):\n${run.stderr.trim()}`,
    );
  }
  const pluginDir = path.dirname(
    require.resolve("@pulumi/pulumi/pulumi-resource-pulumi-nodejs", { paths: [repoRoot] }),
  );
  const launcherDir = options.profiling ? engineProfilingDir(path.join(binDir, "pulumi")) : undefined;
  process.env.PATH = [launcherDir, binDir, pluginDir, pluginPathDir(), process.env.PATH]
    .filter(Boolean)
    .join(path.delimiter);
  // The dynamic-provider hosts run the `node` on PATH; the report names this process's Node.js.
  const hostNode =
    runSync("node", ["--version"], { deadlineMs: 60_000, allowFailure: true }).stdout.trim() || undefined;
  if (hostNode !== process.version)
    throw new Error(
      `the \`node\` on PATH is ${hostNode ?? "missing"}, not this process's ${process.version}: the provider hosts ` +
        "would run on another Node.js than the report names; put the Node.js you bench first on PATH",
    );
}

/**
 * A directory holding only `pulumi-resource-cdnstream`, a launcher of the provider plugin as users
 * get it (the installed package laid out with the Node.js its release archive ships, scripts/release.ts),
 * which serves the plugin path's stacks. The layout stays off PATH: its `node` would come first and
 * run every dynamic-provider host instead of the Node.js the report names. Laid out beside and
 * renamed into place on each run (the package may have changed), so a run never starts half of it.
 */
function pluginPathDir(): string {
  const dir = path.join(benchRoot, "plugin");
  const staging = `${dir}.new-${process.pid}`;
  const old = `${dir}.old-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  layOutPlugin(staging, { packageDir: installedPackageDir, ...releaseNode() });
  if (fs.existsSync(dir)) fs.renameSync(dir, old);
  fs.renameSync(staging, dir);
  fs.rmSync(old, { recursive: true, force: true });
  const binDir = path.join(benchRoot, "plugin-bin");
  writeLauncher(binDir, PLUGIN_LAYOUT.launcher, `#!/bin/sh\nexec "${path.join(dir, PLUGIN_LAYOUT.launcher)}" "$@"\n`);
  return binDir;
}

/** Writes `dir/name`, an executable script, renamed into place: a concurrent run never starts half of it. */
function writeLauncher(dir: string, name: string, text: string): void {
  fs.mkdirSync(dir, { recursive: true });
  const launcher = path.join(dir, name);
  fs.writeFileSync(`${launcher}.new-${process.pid}`, text, { mode: 0o755 });
  fs.renameSync(`${launcher}.new-${process.pid}`, launcher);
}

/** The variable of the engine's environment that names the directory `--profile-engine` writes to. */
export const ENGINE_PROFILE_DIR_VARIABLE = "CDNSTREAM_BENCH_ENGINE_PROFILE_DIR";

/**
 * A directory holding only `pulumi`, a launcher of the CLI at `cli` for `--profile-engine`: each
 * `up`, `preview`, `refresh` and `destroy` run with {@link ENGINE_PROFILE_DIR_VARIABLE} in its
 * environment (the stacks' engine environment, never this process's) gets the CLI's own
 * `--profiling`, which writes a Go CPU profile, a heap profile and an execution trace
 * (`<prefix>.<pid>.cpu`, `.mem`, `.trace`; read them with `go tool pprof` and `go tool trace`)
 * named after the stack's project directory (`bench-<side>-n<N>`) and the operation. Every other run, and a run without the variable, goes straight to the CLI. The engine
 * is where the provider's outputs are serialized at every checkpoint, which no host profile shows.
 */
function engineProfilingDir(cli: string): string {
  const dir = path.join(benchRoot, "engine-profiling-bin");
  const text = [
    "#!/bin/sh",
    `if [ -n "$${ENGINE_PROFILE_DIR_VARIABLE}" ]; then`,
    '  case "$1" in',
    "    up | preview | refresh | destroy)",
    `      exec "${cli}" --profiling "$${ENGINE_PROFILE_DIR_VARIABLE}/$(basename "$PWD")-$1" "$@" ;;`,
    "  esac",
    "fi",
    `exec "${cli}" "$@"`,
    "",
  ].join("\n");
  writeLauncher(dir, "pulumi", text);
  return dir;
}

/** `pulumi version` without the leading v, and the CLI's default `--parallel` on this machine. */
export function pulumiFacts(): { version: string; defaultParallel: number | null } {
  const version = runSync("pulumi", ["version"], { deadlineMs: 60_000 }).stdout.trim().replace(/^v/, "");
  const help = runSync("pulumi", ["up", "--help"], { deadlineMs: 60_000 }).stdout;
  const parallel = /--parallel int32 .*\(default (\d+)\)/.exec(help)?.[1];
  return { version, defaultParallel: parallel ? Number(parallel) : null };
}

/** The SDK as a user's program imports it (loaded by path: inside the repo the name means the sources). */
export function loadInstalledSdk(): typeof import("../../sdk") {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the packed package, by its path
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
