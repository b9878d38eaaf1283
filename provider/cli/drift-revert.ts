/**
 * The engine side of `cdnstream drift reconcile`: a preview or an `up` with refresh targeting
 * exactly the reported resources, with the program run as for `up` (`--run-program`: the refresh
 * reads with today's stack config), in a worker for a Node.js project (./drift-worker.ts) and
 * through the `pulumi` CLI for any other runtime, as `drift` checks a stack (./drift-stack.ts).
 *
 * A targeted refresh refreshes only the targets (pkg/resource/deploy deploymentExecutor.refresh
 * and the step generator's isIncludedInOperation honour `--target` on every release tested): no
 * drift of any other resource, accepted drift included, is written into the state.
 */
import type { EngineEvent, Stack } from "@pulumi/pulumi/automation";
import type { Env } from "./command";
import { findingsFromEvents } from "./drift-report";
import {
  checkpointOf,
  errorMessage,
  inWorker,
  learnByCli,
  selectByCli,
  selectInline,
  type Checkpoint,
  type EngineRun,
  type TargetedOperation,
} from "./drift-stack";
import { projectRuntime } from "./project-settings";

// What the plan and the report need of the events; the rest (progress, summaries) stays behind.
const kept = (e: EngineEvent) => Boolean(e.resourcePreEvent ?? e.resOutputsEvent ?? e.diagnosticEvent);

/** `operation` on the stack `select` selects; never throws: a failure is the run's `error`. */
async function targetedRun(
  select: () => Promise<Stack>,
  operation: TargetedOperation,
  learnSecrets?: (stack: Stack) => Promise<void>,
): Promise<EngineRun> {
  const events: EngineEvent[] = [];
  let stack: Stack | undefined;
  let checkpoint: Checkpoint | undefined;
  try {
    stack = await select();
    checkpoint = await checkpointOf(stack);
    // Checked again right before the `up`: a stack updated since the plan was made is left alone.
    if (operation.kind === "up" && checkpoint.sha256 !== operation.checkpoint)
      return { events, checkpoint, refused: true, error: "the stack was updated after its plan was checked" };
    const options = {
      refresh: true,
      runProgram: true,
      target: operation.targets,
      color: "never" as const,
      onEvent: (e: EngineEvent) => void (kept(e) && events.push(e)),
    };
    if (operation.kind === "preview") await stack.preview(options);
    else await stack.up(options);
    return { events, checkpoint };
  } catch (e) {
    return { events, ...(checkpoint ? { checkpoint } : {}), error: errorMessage(e, findingsFromEvents(events).errors) };
  } finally {
    // Config the CLI cannot decrypt was not decrypted for the run either: nothing of it can show.
    await (stack && learnSecrets?.(stack).catch(() => undefined));
  }
}

/** Runs `operation` on one stack, in a worker for a Node.js project; never throws. */
export async function runTargeted(
  stackName: string,
  cwd: string,
  env: Env,
  operation: TargetedOperation,
  onOutput: (line: string) => void,
  onSecrets: (values: readonly string[]) => void,
): Promise<EngineRun> {
  try {
    if (projectRuntime(cwd) !== "nodejs")
      return await targetedRun(() => selectByCli(stackName, cwd, env), operation, learnByCli(onSecrets));
  } catch (e) {
    return { events: [], error: (e as Error).message };
  }
  const outcome = await inWorker({ stack: stackName, cwd, operation }, env, onOutput, onSecrets);
  if ("run" in outcome) return outcome.run;
  return { events: [], error: "error" in outcome ? outcome.error : "the worker sent a drift report, not a run" };
}

/** Runs `operation` on one stack in this process, which runs the project's program: what the worker does. */
export function runTargetedHere(
  stackName: string,
  cwd: string,
  env: Env,
  operation: TargetedOperation,
  onSecrets: (values: string[]) => Promise<void>,
): Promise<EngineRun> {
  return targetedRun(() => selectInline(stackName, cwd, env, onSecrets), operation);
}
