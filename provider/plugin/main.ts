#!/usr/bin/env node
/**
 * `pulumi-resource-cdnstream`: the provider plugin's executable. The engine starts it (found on
 * PATH, or in the plugin cache where `cdnstream plugin install` puts it), reads the port it
 * prints and talks gRPC to it (./server.ts). Node.js is its only requirement.
 */
import { setUpProviderHost } from "../host-setup";

// Before the server's modules load zod and undici (../host-setup.ts says why), so they are
// required here.
setUpProviderHost();
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded after the line above
const { serve } = require("./server") as typeof import("./server");

// A failure outside any call (a bug) is printed for the engine's log and ends the plugin with an
// error status; failures of calls are answered to the engine as errors of the call.
process.on("uncaughtException", (err) => {
  process.stderr.write(`${err.stack ?? err.message}\n`);
  process.exitCode = 1;
});

serve().catch((err: Error) => {
  process.stderr.write(`pulumi-resource-cdnstream: could not start: ${err.stack ?? err.message}\n`);
  process.exit(1);
});
