/**
 * SIGINT and SIGTERM for the `cdnstream` process: everything it started is stopped
 * (./process-tree.ts), then it exits with the shell's code for the signal, so a cancelled CI job or
 * a `timeout` leaves no provider host running and the pipeline sees why.
 */
import { EXIT, type Io } from "./command";
import { stopDescendants } from "./process-tree";

const CODES = { SIGINT: EXIT.sigint, SIGTERM: EXIT.sigterm } as const;

let stopping = false;

/**
 * True once a signal has started stopping the command: a stack whose worker was just stopped is
 * not a finding, so no report is written from then on.
 */
export function isStopping(): boolean {
  return stopping;
}

export function installSignalHandlers(io: Io): void {
  for (const sig of Object.keys(CODES) as (keyof typeof CODES)[]) {
    process.on(sig, () => {
      // A second signal while stopping (Ctrl-C pressed again) does not cut the cleanup short.
      if (stopping) return;
      stopping = true;
      io.stderr(`cdnstream: stopped by ${sig}; stopping the processes it started (no report is written)`);
      void stopDescendants(process.pid, "SIGTERM").finally(() => process.exit(CODES[sig]));
    });
  }
}
