/**
 * The real Pulumi engine for end-to-end tests: where it is, and a ready Automation API
 * workspace on a local file backend for each test.
 *
 * `scripts/ensure-pulumi` builds or finds the CLI (see docs/engine.md); jest's global
 * setup calls it once and puts the CLI and the dynamic-provider plugin on PATH for every worker.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalWorkspace, PulumiCommand, PulumiFn, Stack } from "@pulumi/pulumi/automation";
import { DeadlineExceeded, run } from "../../scripts/child";

export const repoRoot = path.resolve(__dirname, "../..");

/** The directory holding the `pulumi-resource-pulumi-nodejs` plugin script shipped in @pulumi/pulumi. */
export const dynamicProviderPluginDir = path.dirname(require.resolve("@pulumi/pulumi/pulumi-resource-pulumi-nodejs"));

const howToInstall =
  "Run `scripts/ensure-pulumi` from the repository root: it builds the Pulumi CLI from the Pulumi " +
  "Go modules (needs Go; the first build takes several minutes) and caches it outside the repo.";

/**
 * How long a setup script that builds a Go tool may take: a cold build of the Pulumi CLI took
 * 13 min on the 2-core CI machine shared with other work (docs/engine.md); a warm run, a second.
 */
export const GO_BUILD_SCRIPT_DEADLINE_MS = 40 * 60_000;

/**
 * How long one engine command, program or drift run of a test (a few stacks of a few resources)
 * may take: seconds, a minute on a busy machine; inside jest's 5-minute test timeout, so that the
 * test fails naming the command rather than jest's timeout.
 */
export const ENGINE_COMMAND_DEADLINE_MS = 4 * 60_000;

/**
 * Runs `scripts/ensure-pulumi` and returns the directory it prints last. Throws, with the
 * script's own diagnostics and how to fix them, when the engine cannot be had.
 */
export async function ensureEngine(): Promise<string> {
  const script = path.join(repoRoot, "scripts", "ensure-pulumi");
  const ran = await run(script, [], { deadlineMs: GO_BUILD_SCRIPT_DEADLINE_MS, allowFailure: true }).catch(
    (e: unknown) => {
      if (e instanceof DeadlineExceeded) throw new Error(`${e.message}\n${howToInstall}`);
      throw e;
    },
  );
  const lines = ran.stdout.trim().split("\n");
  const binDir = lines[lines.length - 1];
  if (ran.status !== 0 || !binDir || !fs.existsSync(path.join(binDir, "pulumi"))) {
    throw new Error(
      `The Pulumi engine is not available (scripts/ensure-pulumi exited ${ran.status}).\n` +
        `${ran.stderr.trim()}\n${howToInstall}`,
    );
  }
  return binDir;
}

/** Where the project's scripts keep what takes minutes to make: `${XDG_CACHE_HOME:-~/.cache}/pulumi-cdnstream`. */
export const projectCacheDir = path.join(
  process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"),
  "pulumi-cdnstream",
);

/** The release of the @pulumi/pulumi SDK installed: what npm resolved the declared range to. */
export const sdkVersion: string = JSON.parse(
  fs.readFileSync(require.resolve("@pulumi/pulumi/package.json"), "utf8"),
).version;

/**
 * Whether the installed @pulumi/pulumi is another release than package-lock.json's: CI's newest
 * leg (scripts/ci-leg), which installs the newest SDK over the lock to run the suites again on it.
 * A suite whose cases differ only in this package's own logic runs a sample of them there; the
 * floor leg runs every case.
 */
export const sdkOffLock: boolean =
  sdkVersion !==
  JSON.parse(fs.readFileSync(path.join(repoRoot, "package-lock.json"), "utf8")).packages["node_modules/@pulumi/pulumi"]
    .version;

/**
 * The CLI release `scripts/ensure-pulumi` puts on PATH for this SDK (docs/engine.md):
 * CDNSTREAM_PULUMI_CLI_VERSION when set; else the SDK's own release, or, when the Go module proxy
 * does not serve it, the older release the script took instead and remembered in its cache.
 */
export function expectedCliVersion(): string {
  if (process.env.CDNSTREAM_PULUMI_CLI_VERSION) return process.env.CDNSTREAM_PULUMI_CLI_VERSION.replace(/^v/, "");
  const cacheRoot = process.env.CDNSTREAM_ENGINE_CACHE ?? path.join(projectCacheDir, "engine");
  const resolved = path.join(cacheRoot, "resolved", `v${sdkVersion}`);
  return fs.existsSync(resolved) ? fs.readFileSync(resolved, "utf8").trim() : sdkVersion;
}

/** PATH with the engine's programs first: the CLI, then the dynamic-provider plugin. */
export function enginePath(binDir: string, rest = process.env.PATH ?? ""): string {
  return [binDir, dynamicProviderPluginDir, rest].filter(Boolean).join(path.delimiter);
}

/** Fails (never skips) when global setup did not put the engine on PATH. */
function requireEngineOnPath(): void {
  const found = (process.env.PATH ?? "").split(path.delimiter).some((dir) => fs.existsSync(path.join(dir, "pulumi")));
  if (!found) {
    throw new Error(`No \`pulumi\` CLI on PATH for this end-to-end test. ${howToInstall}`);
  }
}

/** Environment every engine run gets: local state, no network, no prompts. */
export function engineEnv(dir: string): Record<string, string> {
  return {
    PULUMI_BACKEND_URL: `file://${path.join(dir, "backend")}`,
    PULUMI_HOME: path.join(dir, "pulumi-home"),
    PULUMI_CONFIG_PASSPHRASE: "cdnstream-e2e-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    // Every plugin the tests use is local: never try to download one.
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
  };
}

let cli: Promise<PulumiCommand> | undefined;

/**
 * The `pulumi` on PATH, for every workspace of this test process: given none, the Automation API
 * runs `pulumi version` for each workspace it makes, a third of a second of CPU per test.
 */
export function pulumiCli(): Promise<PulumiCommand> {
  return (cli ??= PulumiCommand.get());
}

/** A fresh stack on its own file backend, and how to tear it all down. */
export interface TestStack {
  stack: Stack;
  /** The directory holding the backend, PULUMI_HOME and the project. */
  dir: string;
  /**
   * Destroys what is left and deletes the directory, the stack's file backend with it (a suite
   * that gives the stack another backend, such as its PostgreSQL server, discards that itself).
   */
  cleanup(): Promise<void>;
}

/**
 * Runs a preview that must fail and returns what a user reads of it: the CLI's output and the
 * error's message, as one text. Fails, with that output, if the preview succeeds.
 */
export async function failedPreviewText(stack: Stack): Promise<string> {
  let output = "";
  const collect = (text: string) => void (output += text);
  const failure = await stack.preview({ onOutput: collect, onError: collect }).then(
    () => undefined,
    (err: unknown) => err as Error,
  );
  if (!failure) throw new Error(`the preview succeeded, where it must fail:\n${output}`);
  return `${output}\n${failure.message}`;
}

export interface TestStackOptions {
  program: PulumiFn;
  /** A project directory (with Pulumi.yaml) to run the stack in; default: a fresh one. */
  workDir?: string;
  projectName?: string;
  stackName?: string;
  /** Stack config, e.g. `{ "cdnstream:apiKey": { value: key, secret: true } }`. */
  config?: Record<string, { value: string; secret?: boolean }>;
  /** Extra environment for the CLI and the dynamic-provider host. */
  env?: Record<string, string>;
}

/**
 * Creates a stack for an inline program. The project directory lives under the repo's ignored
 * `.tmp/` so that the dynamic-provider plugin, which resolves @pulumi/pulumi and the serialized
 * providers' packages from its working directory, finds the repo's node_modules.
 */
export async function createTestStack(options: TestStackOptions): Promise<TestStack> {
  requireEngineOnPath();
  const dir = path.join(repoRoot, ".tmp", "e2e", crypto.randomBytes(6).toString("hex"));
  const workDir = options.workDir ?? path.join(dir, "project");
  fs.mkdirSync(path.join(dir, "backend"), { recursive: true });
  fs.mkdirSync(workDir, { recursive: true });

  const projectName = options.projectName ?? "cdnstream-e2e";
  const stackName = options.stackName ?? "test";
  const stack = await LocalWorkspace.createStack(
    { projectName, stackName, program: options.program },
    {
      workDir,
      // A given project directory keeps its own Pulumi.yaml.
      projectSettings: options.workDir ? undefined : { name: projectName, runtime: "nodejs" },
      envVars: { ...engineEnv(dir), ...options.env },
      pulumiCommand: await pulumiCli(),
    },
  );
  if (options.config) await stack.setAllConfig(options.config);

  return {
    stack,
    dir,
    async cleanup() {
      try {
        await stack.destroy({ onOutput: () => undefined });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
        if (options.workDir) fs.rmSync(path.join(workDir, `Pulumi.${stackName}.yaml`), { force: true });
      }
    },
  };
}

/**
 * Project directories run inline, as the drift runner runs them (see provider/cli/project.ts):
 * re-exported so tests and the product load a project the same way.
 */
export { projectName, projectProgram } from "../../provider/cli/project";
