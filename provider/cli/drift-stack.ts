/**
 * One stack's drift check through the Automation API: a preview with `refresh: true`, which never
 * writes the state (docs/drift.md says why). A Node.js project's stack is checked in a worker
 * process (./drift-worker.ts) running the program inline (./project.ts): no language host needed.
 */
import { fork } from "node:child_process";
import { createHash } from "node:crypto";
import * as path from "node:path";
import type { ConfigMap, EngineEvent, Stack } from "@pulumi/pulumi/automation";
import { findingsFromEvents, hasCountedDrift, type StackReport } from "./drift-report";
import { prepareRuntime, programLocation, projectProgram, readProject } from "./project";
import { projectRuntime } from "./project-settings";
import type { Env } from "./command";
import { automation, engineEnv, workspaceOptions } from "./environment";

/** The stack config key of the API key: never printed, even when set without --secret. */
const API_KEY_CONFIG = "cdnstream:apiKey";

/**
 * The values of a stack's config that must never print: the secret ones and the API key, each
 * whole and, for a structured value (JSON), each string in it.
 */
export function configSecrets(config: ConfigMap): string[] {
  const values: string[] = [];
  for (const [key, { value, secret }] of Object.entries(config)) {
    if (!secret && key !== API_KEY_CONFIG) continue;
    values.push(value);
    try {
      JSON.parse(value, (_k, v: unknown) => (typeof v === "string" && values.push(v), v));
    } catch {
      // A plain string: pushed whole above.
    }
  }
  return values;
}

/**
 * What identifies the state a stack was checked against. Any write of the stack's checkpoint (an
 * update, a refresh, an import, a `pulumi state` edit) changes it, which the history's update
 * number does not show on a DIY backend (it is 0 there) nor its times (whole seconds).
 */
export interface Checkpoint {
  /** When the checkpoint was written: the time its manifest records. */
  written: string;
  /** SHA-256 of the deployment as the backend exports it (its secrets encrypted). */
  sha256: string;
}

/**
 * A stack's report as `drift` writes it: with the checkpoint it was checked against, read just
 * before the check, so that `drift reconcile` can refuse a stack updated since.
 */
export type CheckedStackReport = StackReport & { checkpoint?: Checkpoint };

/** The stack's checkpoint as it is now (one `pulumi stack export`). */
export async function checkpointOf(stack: Stack): Promise<Checkpoint> {
  const { deployment } = await stack.exportStack();
  const written = (deployment as { manifest?: { time?: string } } | undefined)?.manifest?.time ?? "";
  return { written, sha256: createHash("sha256").update(JSON.stringify(deployment)).digest("hex") };
}

/**
 * What `drift reconcile` asks of a stack's engine: a preview or an `up` with refresh, both
 * targeting exactly `targets`; an `up` only while the checkpoint is still `checkpoint`.
 */
export interface TargetedOperation {
  kind: "preview" | "up";
  targets: string[];
  checkpoint?: string;
}

/** The outcome of a {@link TargetedOperation}: its engine events and the checkpoint it met. */
export interface EngineRun {
  events: EngineEvent[];
  checkpoint?: Checkpoint;
  /** Why it failed, or, for an `up` refused before it ran, why nothing was done. */
  error?: string;
  /** The `up` did not run: the checkpoint was no longer the expected one. */
  refused?: boolean;
}

/** What the worker sends back: the stack's secret config values first (before the program runs), then its result. */
export type WorkerMessage = { secrets: string[] } | { report: StackReport } | { run: EngineRun };

/**
 * The useful part of an Automation API failure. A CommandError's message is the whole CLI
 * transcript (code, stdout, stderr); its `error:` lines say what went wrong.
 */
export function errorMessage(error: unknown, diagnostics: readonly string[]): string {
  if (diagnostics.length) return diagnostics.join("\n");
  const text = error instanceof Error ? error.message : String(error);
  const errorLines = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => /^error: /.test(l));
  const lines = errorLines.length ? [...new Set(errorLines)] : text.split("\n").slice(0, 20);
  return lines.join("\n").trim();
}

/** The stacks of the project in the backend, for a run without --stack. */
export async function listStacks(cwd: string, env: Env): Promise<string[]> {
  // A broken Pulumi.yaml (or, for nodejs, a setting the inline run cannot honour) is said first and plainly.
  if (projectRuntime(cwd) === "nodejs") readProject(cwd);
  const workspace = await automation().LocalWorkspace.create(await workspaceOptions(cwd, env));
  return (await workspace.listStacks()).map((s) => s.name);
}

/** What the worker is asked to do: check the stack (it sends back the report), or run `operation` (it sends back the run). */
export type WorkerTask = Pick<StackReport, "stack" | "cwd"> & { operation?: TargetedOperation };

const LAST_LINES = 20;

/** The stack of a project of another runtime, selected for the `pulumi` CLI (never created). */
export async function selectByCli(stackName: string, cwd: string, env: Env): Promise<Stack> {
  return automation().LocalWorkspace.selectStack({ stackName, workDir: cwd }, await workspaceOptions(cwd, env));
}

/** The language host has the decrypted config, not this process: ask the CLI for it. */
export const learnByCli = (onSecrets: (values: readonly string[]) => void) => async (stack: Stack) =>
  onSecrets(configSecrets(await stack.getAllConfig()));

/**
 * Checks one stack in a worker process; never throws: a failure is the report's `error`. The
 * program's own output (console.log) is passed to `onOutput` line by line.
 */
export async function checkStack(
  stackName: string,
  cwd: string,
  env: Env,
  onOutput: (line: string) => void,
  onSecrets: (values: readonly string[]) => void,
): Promise<StackReport> {
  const failed = (error: string) => reportOf(stackName, cwd, [], error);
  try {
    // Another language (YAML, Python, Go, ...): the same preview through the `pulumi` CLI, whose
    // language host runs the program and whose provider plugin reads the objects.
    if (projectRuntime(cwd) !== "nodejs")
      return await previewReport(stackName, cwd, () => selectByCli(stackName, cwd, env), learnByCli(onSecrets));
  } catch (e) {
    return failed((e as Error).message);
  }
  const outcome = await inWorker({ stack: stackName, cwd }, env, onOutput, onSecrets);
  return "report" in outcome ? outcome.report : failed("error" in outcome ? outcome.error : "no report");
}

/**
 * Runs `task` in a worker process started as the language host starts a program (`node
 * <nodeargs>` in the program's directory); never throws: a failure is `error`, with the last lines
 * the worker printed.
 */
export async function inWorker(
  task: WorkerTask,
  env: Env,
  onOutput: (line: string) => void,
  onSecrets: (values: readonly string[]) => void,
): Promise<{ report: StackReport } | { run: EngineRun } | { error: string }> {
  let programDir: string;
  let nodeargs: string[];
  try {
    const settings = readProject(task.cwd);
    ({ programDir } = programLocation(settings));
    nodeargs = settings.nodeargs;
  } catch (e) {
    return { error: (e as Error).message };
  }
  const child = fork(path.join(__dirname, "drift-worker.js"), [], {
    cwd: programDir,
    execArgv: nodeargs,
    env: engineEnv(env),
    stdio: ["ignore", "pipe", "pipe", "ipc"],
    // A process group of its own: Ctrl-C at a terminal reaches only `cdnstream`, which then stops
    // the whole tree in order (./signals.ts) instead of the worker dying under its `pulumi`.
    detached: true,
  });
  const tail: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) {
    let pending = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      const lines = (pending + chunk).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        tail.push(line);
        if (tail.length > LAST_LINES) tail.shift();
        onOutput(line);
      }
    });
    stream.on("end", () => pending && onOutput(pending));
  }
  let result: { report: StackReport } | { run: EngineRun } | undefined;
  child.on("message", (message: WorkerMessage) => {
    if ("secrets" in message) onSecrets(message.secrets);
    else result = message;
  });
  child.send(task);
  const code = await new Promise<number | null>((resolve) => {
    child.once("error", (e) => {
      tail.push(e.message);
      resolve(null);
    });
    child.once("close", (exitCode) => resolve(exitCode));
  });
  if (result) return result;
  const why = nodeargs.length ? ` (node started with runtime.options.nodeargs: ${nodeargs.join(" ")})` : "";
  return { error: `the program's process exited with code ${code} before reporting${why}:\n${tail.join("\n").trim()}` };
}

/**
 * One stack's report from the events of its refreshing preview (and the error that ended it, if
 * any); unredacted, as it never leaves the command but through its report files and stderr.
 */
function reportOf(
  stackName: string,
  cwd: string,
  events: readonly EngineEvent[],
  error?: string,
  checkpoint?: Checkpoint,
): CheckedStackReport {
  const found = findingsFromEvents(events);
  // Refreshes run concurrently, so their events arrive in any order: sort, so that a report (and
  // an issue body updated from it every night) stays the same while the drift does.
  const resources = [...found.resources].sort((a, b) => (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0));
  const out: CheckedStackReport = { stack: stackName, cwd, drifted: resources.some(hasCountedDrift), resources };
  if (error !== undefined) out.error = error;
  if (found.warnings.length) out.warnings = found.warnings;
  if (checkpoint) out.checkpoint = checkpoint;
  return out;
}

/**
 * The refreshing preview of the stack `select` selects (never creates: a misspelt name must fail,
 * not check a new empty stack), as the stack's report; a failure is its `error`. It runs the
 * program (`runProgram`), so resources are read with today's stack config, not the state's.
 * `learnSecrets`, when given, is called after the preview, before the report leaves.
 */
async function previewReport(
  stackName: string,
  cwd: string,
  select: () => Promise<Stack>,
  learnSecrets?: (stack: Stack) => Promise<void>,
) {
  const events: EngineEvent[] = [];
  let stack: Stack | undefined;
  let checkpoint: Checkpoint | undefined;
  try {
    stack = await select();
    // Read before the check: an update meanwhile then shows as a change of checkpoint, never hidden.
    checkpoint = await checkpointOf(stack);
    await stack.preview({ refresh: true, runProgram: true, color: "never", onEvent: (e) => events.push(e) });
    return reportOf(stackName, cwd, events, undefined, checkpoint);
  } catch (e) {
    return reportOf(stackName, cwd, events, errorMessage(e, findingsFromEvents(events).errors), checkpoint);
  } finally {
    // Config the CLI cannot decrypt was not decrypted for the preview either: nothing of it can show.
    await (stack && learnSecrets?.(stack).catch(() => undefined));
  }
}

/**
 * The inline program's config, as the engine handed it to this process's Pulumi runtime for the
 * run: every value and which keys are secret. The key list has no public reader, so the
 * runtime's own `isConfigSecret` is used, and its absence is an error, never a silent leak.
 */
function runtimeConfig(): ConfigMap {
  const runtime = require("@pulumi/pulumi/runtime/config") as {
    allConfig(): Record<string, string>;
    isConfigSecret?: (key: string) => boolean;
  };
  if (typeof runtime.isConfigSecret !== "function")
    throw new Error("this @pulumi/pulumi has no runtime isConfigSecret: cannot tell the stack's secret config");
  const all = runtime.allConfig();
  return Object.fromEntries(
    Object.entries(all).map(([k, value]) => [k, { value, secret: runtime.isConfigSecret!(k) }]),
  );
}

/**
 * Checks one stack in this process, which runs the project's program: what the worker does.
 * `onSecrets` gets the stack's secret config values before the program runs, so that its output
 * is redacted of them.
 */
export function checkStackHere(
  stackName: string,
  cwd: string,
  env: Env,
  onSecrets: (values: string[]) => Promise<void>,
): Promise<StackReport> {
  return previewReport(stackName, cwd, () => selectInline(stackName, cwd, env, onSecrets));
}

/**
 * The stack with the project's program inline, run in this process: what the worker runs.
 * `onSecrets` gets the stack's secret config values before the program runs.
 */
export async function selectInline(
  stackName: string,
  cwd: string,
  env: Env,
  onSecrets: (values: string[]) => Promise<void>,
): Promise<Stack> {
  const settings = readProject(cwd);
  prepareRuntime(settings);
  const program = projectProgram(cwd);
  return automation().LocalWorkspace.selectStack(
    {
      stackName,
      projectName: settings.name,
      program: async () => {
        await onSecrets(configSecrets(runtimeConfig()));
        return program();
      },
    },
    { workDir: settings.root, envVars: engineEnv(env) },
  );
}
