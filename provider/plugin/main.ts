#!/usr/bin/env node
/**
 * `pulumi-resource-cdnstream`: the provider plugin's executable. The engine starts it, reads the
 * port it prints and talks gRPC to it (./server.ts). Node.js is its only requirement.
 */
import { exitOnUnsupportedNode } from "../../sdk/supported-node";
exitOnUnsupportedNode();
import { setUpProviderHost } from "../host-setup";

// Before the server's modules load zod and undici (../host-setup.ts says why), so they are required here.
setUpProviderHost();
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the line above
const { serve, failCallsInFlight } = require("./server") as typeof import("./server");

// A failure outside any call (a bug) is printed for the engine's log, every call in flight is
// answered with it (an engine waiting on one would hang), and the plugin ends with an error
// status once those answers are sent; failures of calls are answered as errors of the call.
const GRACE_MS = 500;
const onUncaught = (err: unknown) => {
  process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
  failCallsInFlight(err);
  process.exitCode = 1;
  setTimeout(() => process.exit(1), GRACE_MS);
};
process.on("uncaughtException", onUncaught);
process.on("unhandledRejection", onUncaught);

serve().catch((err: Error) => {
  process.stderr.write(`pulumi-resource-cdnstream: could not start: ${err.stack ?? err.message}\n`);
  process.exit(1);
});
