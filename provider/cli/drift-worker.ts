/**
 * The process in which `cdnstream drift` checks one stack (or `drift reconcile` previews or reverts
 * it), started by ./drift-stack.ts as the language host starts a program; it sends the stack's
 * report (or the run) back over the IPC channel. One stack and one engine run per process: the
 * TypeScript registration and the working directory are process-wide, and a second inline run in
 * one process may find the program cut short.
 */
import { runTargetedHere } from "./drift-revert";
import { checkStackHere, type WorkerMessage, type WorkerTask } from "./drift-stack";
import { stopDescendants } from "./process-tree";

// `cdnstream` gone (killed outright, so it could not stop this tree itself): take down what this
// worker started (the `pulumi` CLI and its plugins) rather than leave it running.
process.once("disconnect", () => {
  void stopDescendants(process.pid, "SIGTERM").finally(() => process.exit(1));
});

/** Sends `message` to `cdnstream`; resolves once it is written, before anything the program prints after. */
const send = (message: WorkerMessage) => new Promise<void>((resolve) => process.send!(message, () => resolve()));

process.once("message", (task: WorkerTask) => {
  const onSecrets = (secrets: string[]) => send({ secrets });
  // `drift reconcile` asks for a targeted preview or up (./drift-revert.ts); `drift` for a check.
  const result: Promise<WorkerMessage> = task.operation
    ? runTargetedHere(task.stack, task.cwd, process.env, task.operation, onSecrets).then((run) => ({ run }))
    : checkStackHere(task.stack, task.cwd, process.env, onSecrets).then((report) => ({ report }));
  void result.then(
    (message) => send(message).then(() => process.exit(0)),
    (error: unknown) => {
      // checkStackHere reports failures itself; this is a bug, with its stack for the report's error.
      process.stderr.write(`internal error: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );
});
