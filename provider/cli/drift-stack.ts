/**
 * One stack's drift check through the Automation API: a preview with `refresh: true`, which never
 * writes the state (docs/drift.md says why). A Node.js project's stack is checked in a worker
 * process (./drift-worker.ts) running the program inline (./project.ts): no language host needed.
 */
import { fork } from "node:child_process";
import * as path from "node:path";
import type { EngineEvent, Stack } from "@pulumi/pulumi/automation";
import { redactText } from "../../client/core/redact";
import { findingsFromEvents, type StackReport } from "./drift-report";
import { prepareRuntime, programLocation, projectProgram, readProject } from "./project";
import { projectRuntime } from "./project-settings";
import type { Env } from "./command";
import { automation, engineEnv, workspaceOptions } from "./environment";

/** Values the runner must never print, wherever an engine message might echo them. */
export function secretsOf(env: Env): string[] {
  return ["CDNSTREAM_API_KEY", "PULUMI_CONFIG_PASSPHRASE", "PULUMI_ACCESS_TOKEN"]
    .map((k) => env[k] ?? "")
    .filter((v) => v.length >= 4);
}

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

/** What the worker is asked to check; it sends back the stack's report. */
export type WorkerTask = Pick<StackReport, "stack" | "cwd">;

const LAST_LINES = 20;

/**
 * Checks one stack in a worker process; never throws: a failure is the report's `error`. The
 * program's own output (console.log) is passed to `onOutput` line by line.
 */
export async function checkStack(
  stackName: string,
  cwd: string,
  env: Env,
  onOutput: (line: string) => void,
): Promise<StackReport> {
  const failed = (error: string) => reportOf(stackName, cwd, [], env, error);
  let programDir: string;
  let nodeargs: string[];
  try {
    // Another language (YAML, Python, Go, ...): the same preview through the `pulumi` CLI, whose
    // language host runs the program and whose provider plugin reads the objects.
    if (projectRuntime(cwd) !== "nodejs")
      return await previewReport(stackName, cwd, env, async () =>
        automation().LocalWorkspace.selectStack({ stackName, workDir: cwd }, await workspaceOptions(cwd, env)),
      );
    const settings = readProject(cwd);
    ({ programDir } = programLocation(settings));
    nodeargs = settings.nodeargs;
  } catch (e) {
    return failed((e as Error).message);
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
  let result: StackReport | undefined;
  child.on("message", (report: StackReport) => (result = report));
  child.send({ stack: stackName, cwd } satisfies WorkerTask);
  const code = await new Promise<number | null>((resolve) => {
    child.once("error", (e) => {
      tail.push(e.message);
      resolve(null);
    });
    child.once("close", (exitCode) => resolve(exitCode));
  });
  if (result) return result;
  const why = nodeargs.length ? ` (node started with runtime.options.nodeargs: ${nodeargs.join(" ")})` : "";
  return failed(`the program's process exited with code ${code} before reporting${why}:\n${tail.join("\n").trim()}`);
}

/** One stack's report from the events of its refreshing preview (and the error that ended it, if any). */
function reportOf(stackName: string, cwd: string, events: readonly EngineEvent[], env: Env, error?: string) {
  const secrets = secretsOf(env);
  const found = findingsFromEvents(events);
  // Refreshes run concurrently, so their events arrive in any order: sort, so that a report (and
  // an issue body updated from it every night) stays the same while the drift does.
  const resources = [...found.resources].sort((a, b) => (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0));
  const out: StackReport = { stack: stackName, cwd, drifted: resources.length > 0, resources };
  if (error !== undefined) out.error = redactText(error, secrets);
  if (found.warnings.length) out.warnings = found.warnings.map((w) => redactText(w, secrets));
  return out;
}

/**
 * The refreshing preview of the stack `select` selects (never creates: a misspelt name must fail,
 * not check a new empty stack), as the stack's report; a failure is its `error`. It runs the
 * program (`runProgram`), so resources are read with today's stack config, not the state's.
 */
async function previewReport(stackName: string, cwd: string, env: Env, select: () => Promise<Stack>) {
  const events: EngineEvent[] = [];
  try {
    const stack = await select();
    await stack.preview({ refresh: true, runProgram: true, color: "never", onEvent: (e) => events.push(e) });
    return reportOf(stackName, cwd, events, env);
  } catch (e) {
    return reportOf(stackName, cwd, events, env, errorMessage(e, findingsFromEvents(events).errors));
  }
}

/** Checks one stack in this process, which runs the project's program: what the worker does. */
export function checkStackHere(stackName: string, cwd: string, env: Env): Promise<StackReport> {
  return previewReport(stackName, cwd, env, async () => {
    const settings = readProject(cwd);
    prepareRuntime(settings);
    return automation().LocalWorkspace.selectStack(
      { stackName, projectName: settings.name, program: projectProgram(cwd) },
      { workDir: settings.root, envVars: engineEnv(env) },
    );
  });
}
