/**
 * The read floor of `npm run bench` (docs/benchmarks.md): the fastest provider that must still read.
 * Its package, written under `.tmp/bench/node_modules/` like the floor's, holds the client's
 * operation declarations reduced to what goes on the wire (read-floor-provider.ts sends them), so
 * its paths and methods are the client's own, never copied by hand.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { USER_AGENT } from "../../client/core/client";
import { resolveConfig } from "../../client/core/config";
import type { Operation } from "../../client/core/operation";
import * as adInsertion from "../../client/resources/ad-insertion";
import * as adManager from "../../client/resources/ad-manager";
import * as streams from "../../client/resources/streams";
import * as zones from "../../client/resources/zones";
import { benchRoot, repoRoot } from "./engine";
import { read } from "./host";
import { BenchResource, type Declaration } from "./mix";
import { OPERATION_NAMES, type ReadFloorTable } from "./read-floor-provider";

const READ_FLOOR_PACKAGE = "cdnstream-bench-read-floor";
export const readFloorPackageDir = path.join(benchRoot, "node_modules", READ_FLOOR_PACKAGE);

/** The operations of the families the bench's kinds use, by name (each family's `ops`). */
const FAMILY_OPS: Record<string, Operation> = {
  ...streams.ops,
  ...zones.ops,
  ...adInsertion.ops,
  ...adManager.ops,
};

/** The table the read floor sends from: the client's declarations and connection settings. */
export function readFloorTable(): ReadFloorTable {
  // The client's defaults (and any CDNSTREAM_* override in this environment, which the hosts share).
  const settings = resolveConfig({ apiKey: "unused", baseUrl: "http://127.0.0.1" });
  const operations = Object.fromEntries(
    OPERATION_NAMES.map((name) => {
      const op = FAMILY_OPS[name];
      if (!op) throw new Error(`the read floor names ${name}, which no client family's ops declares`);
      return [
        name,
        { method: op.method, path: op.path, body: op.body !== undefined, unretried: op.retry === "connect-only" },
      ];
    }),
  ) as ReadFloorTable["operations"];
  return {
    operations,
    userAgent: USER_AGENT,
    connections: settings.connections,
    keepAliveTimeoutMs: settings.keepAliveTimeoutMs,
    connectTimeoutMs: settings.connectTimeoutMs,
    headersTimeoutMs: settings.headersTimeoutMs,
    bodyTimeoutMs: settings.bodyTimeoutMs,
    unretriedTimeoutMs: settings.unretriedTimeoutMs,
  };
}

/** The read floor's package: its provider module (built, dist/) called with the table. */
function readFloorFiles(): Record<string, string> {
  const providerModule = path.join(repoRoot, "dist", "scripts", "bench", "read-floor-provider.js");
  if (!fs.existsSync(providerModule))
    throw new Error(`${providerModule} is missing: run \`npm run build\` before the bench`);
  return {
    "package.json": JSON.stringify({ name: READ_FLOOR_PACKAGE, version: "0.0.0", private: true, main: "index.js" }),
    "index.js": `"use strict";
// The read floor of \`npm run bench\` (written by scripts/bench/read-floor.ts).
module.exports = require(${JSON.stringify(providerModule)}).readFloorProvider(${JSON.stringify(readFloorTable())});
`,
  };
}

/** Writes the read floor's package unless it is there already (renamed into place, as the floor's). */
export function writeReadFloorPackage(): void {
  const files = Object.entries(readFloorFiles());
  if (files.every(([name, text]) => read(path.join(readFloorPackageDir, name)) === text)) return;
  const scratch = `${readFloorPackageDir}.${process.pid}`;
  fs.mkdirSync(scratch, { recursive: true });
  for (const [name, text] of files) fs.writeFileSync(path.join(scratch, name), text);
  fs.rmSync(readFloorPackageDir, { recursive: true, force: true });
  fs.renameSync(scratch, readFloorPackageDir);
}

/**
 * The read floor's program: the same names, kinds (as type names) and inputs as the floor's; the
 * kind also travels as an input (its provider serves every kind, as the anchor's does).
 */
export function readFloorProgram(decls: Declaration[]): PulumiFn {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- its exports, serialized as one require()
  const provider = require(readFloorPackageDir) as pulumi.dynamic.ResourceProvider;
  return async () => {
    for (const d of decls)
      new BenchResource(provider, d.name, { ...d.args, kind: d.kind }, {}, "cdnstream-read-floor", d.kind);
    return {};
  };
}
