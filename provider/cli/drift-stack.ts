/**
 * One stack's drift check through the Automation API: a preview with `refresh: true`, which
 * reads every resource from the API and compares, but never writes the state. (`pulumi refresh
 * --expect-no-changes` would also detect drift, but it writes the refreshed state before it
 * fails, so the next `up` would no longer see the drift as a change to undo.)
 *
 * The project's program runs inline (see ./project.ts), so a CLI without the Node.js language
 * host works too. The backend, passphrase and API key come from the environment as for `up`.
 */
import * as path from "node:path";
import type { EngineEvent, Stack } from "@pulumi/pulumi/automation";
import { redactText } from "../client/redact";
import { findingsFromEvents, type StackReport } from "./drift-report";
import { projectName, projectProgram } from "./project";

export type Env = Readonly<Record<string, string | undefined>>;

/** Values the runner must never print, wherever an engine message might echo them. */
export function secretsOf(env: Env): string[] {
  return ["CDNSTREAM_API_KEY", "PULUMI_CONFIG_PASSPHRASE", "PULUMI_ACCESS_TOKEN"].map((k) => env[k] ?? "").filter((v) => v.length >= 4);
}

// Loaded on first use: `cdnstream api` should not pay for the Automation API's import.
const automation = () => require("@pulumi/pulumi/automation") as typeof import("@pulumi/pulumi/automation");

/**
 * The environment of the CLI and the provider plugin: the caller's, plus this package's
 * @pulumi/pulumi directory at the end of PATH, where the dynamic-provider plugin script lives.
 * A standard Pulumi installation ships the plugin too and, earlier on PATH, wins.
 */
function engineEnv(env: Env): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) vars[k] = v;
  let pluginDir: string | undefined;
  try {
    pluginDir = path.dirname(require.resolve("@pulumi/pulumi/pulumi-resource-pulumi-nodejs"));
  } catch {
    // Not resolvable in this installation: rely on PATH alone.
  }
  vars.PATH = [env.PATH, pluginDir].filter(Boolean).join(path.delimiter);
  return vars;
}

/**
 * The useful part of an Automation API failure. A CommandError's message is the whole CLI
 * transcript (code, stdout, stderr); its `error:` lines say what went wrong.
 */
export function errorMessage(error: unknown, diagnostics: readonly string[]): string {
  if (diagnostics.length) return diagnostics.join("\n");
  const text = error instanceof Error ? error.message : String(error);
  const errorLines = text.split("\n").map((l) => l.trim()).filter((l) => /^error: /.test(l));
  const lines = errorLines.length ? [...new Set(errorLines)] : text.split("\n").slice(0, 20);
  return lines.join("\n").trim();
}

/** The stacks of the project in the backend, for a run without --stack. */
export async function listStacks(cwd: string, env: Env): Promise<string[]> {
  const workspace = await automation().LocalWorkspace.create({ workDir: cwd, envVars: engineEnv(env) });
  return (await workspace.listStacks()).map((s) => s.name);
}

/** Checks one stack; never throws: a failure is the report's `error`. */
export async function checkStack(stackName: string, cwd: string, env: Env): Promise<StackReport> {
  const secrets = secretsOf(env);
  const events: EngineEvent[] = [];
  const report = (error?: string): StackReport => {
    const found = findingsFromEvents(events);
    // Refreshes run concurrently, so their events arrive in any order: sort, so that a report (and
    // an issue body updated from it every night) stays the same while the drift does.
    const resources = [...found.resources].sort((a, b) => (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0));
    const out: StackReport = { stack: stackName, cwd, drifted: resources.length > 0, resources };
    if (error !== undefined) out.error = redactText(error, secrets);
    if (found.warnings.length) out.warnings = found.warnings.map((w) => redactText(w, secrets));
    return out;
  };
  let stack: Stack;
  try {
    // selectStack, not createOrSelectStack: a misspelt name must fail, not check a new empty stack.
    stack = await automation().LocalWorkspace.selectStack(
      { stackName, projectName: projectName(cwd), program: projectProgram(cwd) },
      { workDir: cwd, envVars: engineEnv(env) },
    );
  } catch (e) {
    return report(errorMessage(e, []));
  }
  try {
    await stack.preview({ refresh: true, color: "never", onEvent: (e) => events.push(e) });
    return report();
  } catch (e) {
    return report(errorMessage(e, findingsFromEvents(events).errors));
  }
}
