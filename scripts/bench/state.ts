/** What the file backend recorded for a bench stack: `__provider` and state bytes per resource. */
import * as fs from "node:fs";
import * as path from "node:path";

export type Bytes = ReturnType<typeof stateBytes>;

/**
 * What each side's `__provider` must require: both load their provider from a module in
 * node_modules (otherwise the comparison would measure serialized code, not the provider). Ours
 * is the one-line module kinds/resource.ts writes; the floor's is the closure serializer's wrapper
 * around a require, as any `pulumi.dynamic.Resource` gets, and names its file: the serializer
 * shortens a path to the package name only when it can read the package's `exports`, which it
 * looks for from @pulumi/pulumi's own location.
 */
const REQUIRES: Record<string, string> = {
  "bench-ours": 'require("pulumi-cdnstream/provider/shims/',
  "bench-floor": 'require("cdnstream-bench-floor/index.js")',
  // The anchor's is the closure serializer's text of the provider object itself (anchor.ts).
  "bench-anchor": "fetch(",
};

/** Byte counts from the checkpoint file the file backend wrote (what a user's state holds). */
export function stateBytes(backendDir: string, project: string, stack: string) {
  const file = path.join(backendDir, ".pulumi", "stacks", project, `${stack}.json`);
  const resources: any[] = JSON.parse(fs.readFileSync(file, "utf8")).checkpoint.latest.resources ?? [];
  const dynamic = resources.filter((r) => String(r.type).startsWith("pulumi-nodejs:dynamic/"));
  if (!dynamic.length) throw new Error(`${file} holds no dynamic resource`);
  const byValue = dynamic.find((r) => !String(r.inputs?.__provider).includes(REQUIRES[project]));
  if (byValue)
    throw new Error(
      `${project}: ${byValue.urn} has a __provider that does not hold ${REQUIRES[project]}…: ${String(byValue.inputs?.__provider).slice(0, 300)}`,
    );
  const providers = dynamic.map((r) => Buffer.byteLength(String(r.inputs.__provider)));
  const mean = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) / xs.length);
  return {
    /** Mean and largest `__provider` per resource, in bytes. */
    provider: { mean: mean(providers), max: Math.max(...providers) },
    /** Mean bytes per resource of the state as stored (compact JSON of each resource entry, secrets encrypted). */
    state: mean(dynamic.map((r) => Buffer.byteLength(JSON.stringify(r)))),
  };
}
