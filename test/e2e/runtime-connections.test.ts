/**
 * One inline run's dead connection to its CLI must not fail a later run's first call in the same
 * process (test/helpers/runtime-connections.ts says how it did, and what the end-to-end suites'
 * setup changes). Played with the runtime's own parts, no CLI needed: the resource-monitor client
 * the Pulumi runtime generates, created with the options the runtime gives it, against a real gRPC
 * server on a port the kernel hands out; a first server stops as a failed preview's CLI exits,
 * the first client calls it once more as that run's tail does, and a second server takes the same
 * port, as a later run's CLI now and then does.
 */
import * as path from "node:path";
import { LOCAL_SUBCHANNEL_POOL, runtimeClientOptions } from "../helpers/runtime-connections";

const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
/* eslint-disable @typescript-eslint/no-require-imports -- the engine's generated stubs and the grpc-js they use, as the runtime loads them */
const grpc: typeof import("@grpc/grpc-js") = require(require.resolve("@grpc/grpc-js", { paths: [pulumiDir] }));
// Generated protobuf stubs without types we can name.
type Proto = any;
const resrpc: Proto = require("@pulumi/pulumi/proto/resource_grpc_pb");
const resproto: Proto = require("@pulumi/pulumi/proto/resource_pb");
/* eslint-enable @typescript-eslint/no-require-imports */

type Monitor = InstanceType<typeof resrpc.ResourceMonitorClient> & { close(): void };

/** A resource monitor answering SupportsFeature, on `port` (0: one the kernel picks). */
async function startMonitor(port: number): Promise<{ server: import("@grpc/grpc-js").Server; port: number }> {
  const server = new grpc.Server();
  server.addService(resrpc.ResourceMonitorService, {
    supportsFeature: (_call: unknown, callback: (err: null, response: unknown) => void) => {
      const response = new resproto.SupportsFeatureResponse();
      response.setHassupport(true);
      callback(null, response);
    },
  });
  const bound = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`127.0.0.1:${port}`, grpc.ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    ),
  );
  return { server, port: bound };
}

/** The first call a run makes: "ok", or the error's message. */
function supportsFeature(client: Monitor): Promise<string> {
  const request = new resproto.SupportsFeatureRequest();
  request.setId("secrets");
  return new Promise((resolve) =>
    client.supportsFeature(request, (err: Error | null) => resolve(err ? err.message : "ok")),
  );
}

const clients: Monitor[] = [];
const servers: import("@grpc/grpc-js").Server[] = [];
afterEach(() => {
  clients.splice(0).forEach((client) => client.close());
  servers.splice(0).forEach((server) => server.forceShutdown());
});

/**
 * Run 1 ends as a failed preview does, leaving its client open (as the runtime does); run 2's
 * CLI listens on the same port; returns what run 2's first call, on a client with `options`, got.
 */
async function secondRunOnTheSamePort(options: Record<string, unknown>): Promise<string> {
  const first = await startMonitor(0);
  servers.push(first.server);
  const address = `127.0.0.1:${first.port}`;
  const firstRun: Monitor = new resrpc.ResourceMonitorClient(address, grpc.credentials.createInsecure(), options);
  clients.push(firstRun);
  expect(await supportsFeature(firstRun)).toBe("ok");
  first.server.forceShutdown();
  // The run's tail: a call after its CLI is gone, which leaves the client reconnecting.
  expect(await supportsFeature(firstRun)).toMatch(/UNAVAILABLE/);

  const second = await startMonitor(first.port);
  servers.push(second.server);
  const secondRun: Monitor = new resrpc.ResourceMonitorClient(address, grpc.credentials.createInsecure(), options);
  clients.push(secondRun);
  return supportsFeature(secondRun);
}

describe("the Pulumi runtime's connections to a run's CLI", () => {
  it("have a subchannel pool of their own in every end-to-end suite", () => {
    expect(runtimeClientOptions()).toMatchObject({ [LOCAL_SUBCHANNEL_POOL]: 1 });
  });

  it("so a later run on a dead run's port gets its answer", async () => {
    expect(await secondRunOnTheSamePort(runtimeClientOptions()!)).toBe("ok");
  });

  // What the runtime's options were without the setting: the failure the suites met. If grpc-js
  // stops sharing a failing connection with a new client, this fails, and the setting can go.
  it("where, sharing grpc-js's process-wide pool, its first call failed", async () => {
    const { [LOCAL_SUBCHANNEL_POOL]: _isolated, ...shared } = runtimeClientOptions()!;
    expect(await secondRunOnTheSamePort(shared)).toMatch(/^14 UNAVAILABLE: No connection established/);
  });
});
