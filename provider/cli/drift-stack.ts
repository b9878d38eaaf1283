/**
 * One stack's drift check through the Automation API: a preview with `refresh: true`, which never
 * writes the state (docs/drift.md says why). A Node.js project's stack is checked in a worker
 * process (./drift-worker.ts) running the program inline (./project.ts): no language host needed.
 */
import { fork } from "node:child_process";
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

/** What the worker sends back: the stack's secret config values first (before the program runs), then the report. */
export type WorkerMessage = { secrets: string[] } | { report: StackReport };

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
  onSecrets: (values: readonly string[]) => void,
): Promise<StackReport> {
  const failed = (error: string) => reportOf(stackName, cwd, [], error);
  let programDir: string;
  let nodeargs: string[];
  try {
    // Another language (YAML, Python, Go, ...): the same preview through the `pulumi` CLI, whose
    // language host runs the program and whose provider plugin reads the objects.
    if (projectRuntime(cwd) !== "nodejs")
      return await previewReport(
        stackName,
        cwd,
        async () =>
          automation().LocalWorkspace.selectStack({ stackName, workDir: cwd }, await workspaceOptions(cwd, env)),
        // The language host has the decrypted config, not this process: ask the CLI for it.
        async (stack) => onSecrets(configSecrets(await stack.getAllConfig())),
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
  child.on("message", (message: WorkerMessage) => {
    if ("secrets" in message) onSecrets(message.secrets);
    else result = message.report;
  });
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

/**
 * One stack's report from the events of its refreshing preview (and the error that ended it, if
 * any); unredacted, as it never leaves the command but through its report files and stderr.
 */
function reportOf(stackName: string, cwd: string, events: readonly EngineEvent[], error?: string) {
  const found = findingsFromEvents(events);
  // Refreshes run concurrently, so their events arrive in any order: sort, so that a report (and
  // an issue body updated from it every night) stays the same while the drift does.
  const resources = [...found.resources].sort((a, b) => (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0));
  const out: StackReport = { stack: stackName, cwd, drifted: resources.some(hasCountedDrift), resources };
  if (error !== undefined) out.error = error;
  if (found.warnings.length) out.warnings = found.warnings;
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
  try {
    stack = await select();
    await stack.preview({ refresh: true, runProgram: true, color: "never", onEvent: (e) => events.push(e) });
    return reportOf(stackName, cwd, events);
  } catch (e) {
    return reportOf(stackName, cwd, events, errorMessage(e, findingsFromEvents(events).errors));
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
  return previewReport(stackName, cwd, async () => {
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
  });
}
