/**
 * Programs in other languages that use the generated SDKs (sdk/python, sdk/go) through their
 * own Automation API, for the plugin's end-to-end suites: the toolchains they need, made ready
 * once and cached outside the repo (scripts/ensure-python, scripts/ensure-go-programs), and a
 * runner for the drivers under test/plugin-langs/ that hands them what to declare and reads back
 * the JSON they print.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { run as runCommand } from "../../scripts/child";
import { engineEnv, GO_BUILD_SCRIPT_DEADLINE_MS, repoRoot } from "./engine";

/** Runs one of the ensure scripts and returns the path it prints last; throws saying how to get the tool. */
async function ensure(script: string, what: string, howTo: string): Promise<string> {
  const started = Date.now();
  // A Python environment from PyPI or a Go program from the module proxy, cold: minutes.
  const ran = await runCommand(path.join(repoRoot, "scripts", script), [], {
    deadlineMs: GO_BUILD_SCRIPT_DEADLINE_MS,
    allowFailure: true,
  });
  const last = ran.stdout.trim().split("\n").pop() ?? "";
  if (ran.status !== 0 || !last || !fs.existsSync(last)) {
    throw new Error(
      `${what} is not available (scripts/${script} exited ${ran.status}).\n${ran.stderr.trim()}\n${howTo}`,
    );
  }
  // A cold start (creating the environment, building the program) is worth seeing in the log.
  const seconds = (Date.now() - started) / 1000;
  if (seconds > 5) process.stderr.write(`scripts/${script} took ${seconds.toFixed(0)}s\n`);
  return last;
}

/** The python of the cached environment holding Pulumi's Python SDK and pulumi_cdnstream. */
export function ensurePython(): Promise<string> {
  return ensure(
    "ensure-python",
    "The Python environment for the generated Python SDK",
    "Run scripts/ensure-python from the repository root: it needs python3 (3.9 or later) with the venv " +
      "module (https://www.python.org/downloads/, or 'apt-get install python3 python3-venv') and PyPI.",
  );
}

/** The built Go driver (test/plugin-langs/go) against the generated Go SDK. */
export function ensureGoDriver(): Promise<string> {
  return ensure(
    "ensure-go-programs",
    "The Go driver program for the generated Go SDK",
    "Run scripts/ensure-go-programs from the repository root: it needs Go (https://go.dev/doc/install, " +
      "or 'apt-get install golang') and the Go module proxy.",
  );
}

/** What a driver declares (see test/plugin-langs/python/driver.py). */
export interface DriverSpec {
  project: string;
  stack: string;
  workDir: string;
  /** The explicit provider's key; without it the provider reads CDNSTREAM_API_KEY from the environment. */
  apiKey?: string;
  baseUrl: string;
  stream: { streamKind: string; streamId: string; disabled: boolean };
  import?: { id: string; streamKind: string; streamId: string; disabled: boolean };
}

/**
 * What a driver prints: the change summary, and outputs (up, import) or recorded resources
 * (refresh, destroy); for export, the stack's deployment as its language's Automation API exports it.
 */
export interface DriverResult {
  verb: string;
  changes: Record<string, number>;
  deployment?: { resources?: { type: string; urn: string; inputs?: Record<string, unknown> }[] };
  outputs?: Record<string, unknown>;
  resources?: Record<string, Record<string, unknown>>;
}

export type Verb = "up" | "preview" | "refresh" | "import" | "destroy" | "export";

/** A stack driven by a program in another language, on its own file backend under .tmp/. */
export interface DriverStack {
  dir: string;
  spec: DriverSpec;
  /** The backend's checkpoint file of the stack: what the engine wrote to disk. */
  checkpointFile(): string;
  run(verb: Verb): Promise<DriverResult>;
  cleanup(): Promise<void>;
}

/** A scratch directory under .tmp/e2e with a file backend (`backend/`) and a project directory. */
export function scratchStackDirs(): { dir: string; workDir: string } {
  const dir = path.join(repoRoot, ".tmp", "e2e", crypto.randomBytes(6).toString("hex"));
  const workDir = path.join(dir, "project");
  fs.mkdirSync(path.join(dir, "backend"), { recursive: true });
  fs.mkdirSync(workDir, { recursive: true });
  return { dir, workDir };
}

/**
 * How long a driver may take for one verb: one engine operation on a handful of resources, a few
 * seconds; up to a minute on a busy machine.
 */
const DRIVER_DEADLINE_MS = 5 * 60_000;

/**
 * Runs a program driver asynchronously (the emulator answering it lives in this process) and
 * parses the JSON of its last stdout line; rejects, with its output, when it fails or prints none.
 */
export async function runForJson(
  command: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
  label: string,
): Promise<unknown> {
  const { status, stdout, stderr } = await runCommand(command[0], command.slice(1), {
    ...options,
    deadlineMs: DRIVER_DEADLINE_MS,
    allowFailure: true,
  });
  if (status !== 0) throw new Error(`${label} exited ${status}:\n${stderr}\n${stdout}`);
  try {
    return JSON.parse(stdout.trim().split("\n").pop() ?? "");
  } catch {
    throw new Error(`${label} printed no JSON result:\n${stdout}\n${stderr}`);
  }
}

/** `env` is added to the program's environment, and so to the engine's and the plugin's. */
export function createDriverStack(
  command: string[],
  spec: Omit<DriverSpec, "workDir" | "stack"> & { stack?: string },
  env: Record<string, string> = {},
): DriverStack {
  const { dir, workDir } = scratchStackDirs();
  const full: DriverSpec = { stack: "test", ...spec, workDir };

  // Runs asynchronously: the emulator answering the program lives in this very process.
  const run = (verb: Verb) =>
    runForJson(
      [...command, verb],
      { cwd: workDir, env: { ...process.env, ...engineEnv(dir), ...env, CDNSTREAM_DRIVER_SPEC: JSON.stringify(full) } },
      `${path.basename(command[command.length - 1])} ${verb}`,
    ) as Promise<DriverResult>;

  return {
    dir,
    spec: full,
    checkpointFile: () => path.join(dir, "backend", ".pulumi", "stacks", full.project, `${full.stack}.json`),
    run,
    async cleanup() {
      try {
        if (fs.existsSync(path.join(dir, "backend", ".pulumi", "stacks", full.project, `${full.stack}.json`))) {
          await run("destroy");
        }
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
