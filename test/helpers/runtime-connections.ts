/**
 * Gives the Pulumi runtime's connections to each run's CLI a subchannel pool of their own, so that
 * many inline programs can run one after another in one process (a jest worker) without one run's
 * dead connection failing the next run's first call. test/suite-setup.ts applies it in every
 * end-to-end suite's own module registry, before the suite runs.
 *
 * Why: the runtime hosting an inline program connects to the CLI's engine and resource monitor
 * with one gRPC client each per run, and never closes them (runtime/settings.js, `disconnectSync`,
 * closes only the clients of a program the language host runs, not an inline run's). When a
 * preview fails, the CLI exits while the run still sends its last calls; those find no server, and
 * from then on grpc-js reconnects to that address, backing off, for as long as the process lives.
 * grpc-js shares connections to one address between all clients of a process (its global
 * subchannel pool), so when a later run's CLI listens on that same port (the kernel hands out
 * freed ports again), the new run's client gets the failing connection and its first call fails
 * at once: `14 UNAVAILABLE: No connection established. Last error: null`. The run then ends before
 * it registered anything: failing with `One or more errors occurred: 14 UNAVAILABLE: ...`, or,
 * where the runtime takes the error for the engine shutting down, as a preview of nothing, the
 * error left over as an unhandled rejection. Each failing preview leaves one more such connection
 * behind (a suite of many, hundreds), and with each the chance of a hit grows.
 *
 * `grpc.use_local_subchannel_pool` is grpc-js's option for exactly this: a client with it shares
 * no connection with any other client. Each run talks to its own CLI, so nothing is lost. The
 * Pulumi runtime creates its clients with one options object of its own (`grpcClientOptions`, read
 * at each client's creation), which this adds the option to. test/e2e/runtime-connections.test.ts
 * shows the failure and that this prevents it; upstream: pulumi/pulumi#7125 and #6457 (the same
 * message from a later inline run in one process; closed as a duplicate and as not reproduced).
 */

/** grpc-js's channel option: 1 gives a client its own subchannel pool. */
export const LOCAL_SUBCHANNEL_POOL = "grpc.use_local_subchannel_pool";

/** The options the Pulumi runtime gives its engine and resource-monitor clients, or undefined if it has none. */
export function runtimeClientOptions(): Record<string, unknown> | undefined {
  // An internal export of the SDK, not in its typings.
  return (require("@pulumi/pulumi/runtime/settings") as { grpcClientOptions?: Record<string, unknown> })
    .grpcClientOptions;
}

/** Adds {@link LOCAL_SUBCHANNEL_POOL} to the runtime's client options; throws, saying what changed, if it has none. */
export function isolateRuntimeConnections(): void {
  const options = runtimeClientOptions();
  if (options === undefined) {
    throw new Error(
      "@pulumi/pulumi no longer exports `grpcClientOptions` from runtime/settings, where its inline runs " +
        "take the options of their engine and resource-monitor clients: find how this release creates " +
        "them and give them their own subchannel pool again (test/helpers/runtime-connections.ts says why).",
    );
  }
  options[LOCAL_SUBCHANNEL_POOL] = 1;
}
