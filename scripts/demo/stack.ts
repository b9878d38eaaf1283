/**
 * The demo stack through the Automation API: the root Pulumi.yaml project run inline (see
 * provider/cli/project.ts: no separate language host is needed), on a file backend in the demo's
 * state directory, with one line per resource change instead of the CLI's full transcript
 * (which goes to a log file beside the state).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { LocalWorkspace, type EngineEvent, type OutputMap, type Stack } from "@pulumi/pulumi/automation";
import { projectName, projectProgram } from "../../provider/cli/project";
import { shortType } from "../../provider/cli/drift-report";

/** The passphrase of the demo's throwaway stack secrets (a local demo: not a credential). */
export const DEMO_PASSPHRASE = "cdnstream-demo";

/** Everything the engine and the drift runner need: backend, passphrase, key, PATH with the engine. */
export function demoEnv(stateDir: string, apiKey: string, enginePath: string): Record<string, string> {
  return {
    PULUMI_BACKEND_URL: `file://${path.join(stateDir, "backend")}`,
    PULUMI_HOME: path.join(stateDir, "pulumi-home"),
    PULUMI_CONFIG_PASSPHRASE: DEMO_PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    // The provider reads the key from its environment: it never enters stack config or state.
    CDNSTREAM_API_KEY: apiKey,
    PATH: enginePath,
  };
}

/** Creates the stack (the backend directory must be new) and points it at the emulator. */
export async function createDemoStack(
  projectDir: string,
  stackName: string,
  env: Record<string, string>,
  baseUrl: string,
): Promise<Stack> {
  fs.mkdirSync(env.PULUMI_BACKEND_URL!.slice("file://".length), { recursive: true });
  const stack = await LocalWorkspace.createStack(
    { projectName: projectName(projectDir), stackName, program: projectProgram(projectDir) },
    { workDir: projectDir, envVars: env },
  );
  await stack.setConfig("cdnstream:baseUrl", { value: baseUrl });
  return stack;
}

const nameOf = (urn: string) => urn.slice(urn.lastIndexOf("::") + 2);

const VERB: Record<string, string> = {
  create: "+ created ",
  update: "~ updated ",
  replace: "+-replaced",
  delete: "- deleted ",
  "create-replacement": "+ created ",
  "delete-replaced": "- deleted ",
};

/**
 * The inputs an update changed. An `up`'s events carry no `diffs` (only a preview's do), so they
 * are recomputed from the old and new inputs the event holds.
 */
function changedInputs(before: Record<string, unknown> = {}, after: Record<string, unknown> = {}): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)].filter((k) => k !== "__provider"));
  return [...keys].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])).sort();
}

/**
 * `up` (with `refresh`: `up --refresh`, which first reads every resource, so out-of-band
 * changes are undone), printing each resource change as it completes (type, name, changed properties)
 * and each warning or error the engine reports for a resource; the CLI transcript goes to `logFile`.
 */
export async function upWithProgress(
  stack: Stack,
  detail: (line: string) => void,
  logFile: string,
  refresh = false,
): Promise<{ changes: Record<string, number>; outputs: OutputMap }> {
  const onEvent = (e: EngineEvent) => {
    const done = e.resOutputsEvent?.metadata;
    if (done && VERB[done.op] && !done.type.startsWith("pulumi:")) {
      const changed = done.op === "update" ? changedInputs(done.old?.inputs, done.new?.inputs) : [];
      detail(
        `${VERB[done.op]} ${shortType(done.type).padEnd(28)} ${nameOf(done.urn)}${changed.length ? ` [${changed.join(", ")}]` : ""}`,
      );
    }
    const diag = e.diagnosticEvent;
    // The plugin-location notice is expected here: the dynamic-provider plugin is found on PATH (docs/engine.md).
    if (
      diag &&
      (diag.severity === "warning" || diag.severity === "error") &&
      !diag.ephemeral &&
      !/^using pulumi-resource-\S+ from \$PATH/.test(diag.message)
    ) {
      const where = diag.urn ? `${nameOf(diag.urn)}: ` : "";
      detail(`! ${diag.severity} ${where}${diag.message.trim().split("\n")[0]}`);
    }
  };
  const log = fs.openSync(logFile, "a");
  try {
    const up = await stack.up({ color: "never", refresh, onEvent, onOutput: (text) => fs.writeSync(log, text) });
    const { same: _same, ...changes } = up.summary.resourceChanges ?? {};
    return { changes: changes as Record<string, number>, outputs: up.outputs };
  } finally {
    fs.closeSync(log);
  }
}

/** `{create: 12}` -> `12 created`; the stack resource itself is not counted. */
export function changeSummary(changes: Record<string, number>, stackCreated: boolean): string {
  const past = (op: string) => (["create", "update", "replace", "delete"].includes(op) ? `${op}d` : op);
  const parts = Object.entries(changes)
    .map(([op, n]) => [op, op === "create" && stackCreated ? n - 1 : n] as const)
    .filter(([, n]) => n > 0)
    .map(([op, n]) => `${n} ${past(op)}`);
  return parts.length ? parts.join(", ") : "no changes";
}

/** Stack outputs as `name  value` lines; secrets stay hidden. */
export function outputLines(outputs: OutputMap): string[] {
  const width = Math.max(0, ...Object.keys(outputs).map((k) => k.length));
  return Object.entries(outputs).map(
    ([k, o]) => `${k.padEnd(width)}  ${o.secret ? "[secret]" : JSON.stringify(o.value)}`,
  );
}
