/**
 * A provider host's fixed cost: the CPU a fresh dynamic-provider host spends on its first call,
 * from the moment it has loaded @pulumi/pulumi (which every such host loads first, ours and the
 * floor alike) to the end of that call. Every engine operation (`up`, `preview`, `refresh`,
 * `destroy`) starts one host and pays this once, before any per-resource work: loading the
 * provider's code (ours: the shim, the kind's handler, the client, zod and undici) and running it
 * cold. The call is a `check` of one StreamStatus, which needs no API; the floor's `check` returns
 * at once. Runs alternate ours and the floor in fresh processes; medians are reported.
 *
 * A refresh's host makes a different first call: {@link hostReadBench} measures a fresh host's
 * first `read` of one StreamStatus, against an emulator (ours reads the stream through the client
 * and its checks; the floor's `read` returns the state it was given).
 *
 * A program pays a fixed cost of its own: a Pulumi program is a fresh process at every `up` and
 * `preview`, and it imports the provider's package (ours: the resource classes and their
 * identities; the data sources' client and zod wait for their first call). The bench runs its
 * programs inline, in its own process, which imports the package once, so the stacks' program
 * CPU leaves this out; {@link programImportBench} measures it the same way, against a program
 * importing the floor's package.
 */
import { spawnSync } from "node:child_process";
import { floorPackageDir } from "./mix";
import { median, round } from "./stacks";
import { repoRoot } from "../demo/project-build";

export interface HostStartResult {
  /** Fresh processes per side. */
  runs: number;
  /** Median CPU ms of the first call, module loading included. */
  oursMs: number;
  floorMs: number;
  /** What ours adds, ms: the floor's call is a function returning at once, so a ratio says nothing. */
  extraMs: number;
}

/** A fresh process: loads @pulumi/pulumi, then runs `body`, which ends by printing the CPU ms spent since (`PRINT`). */
const fresh = (body: string) => `
  const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
  require("@pulumi/pulumi");
  const start = cpuMs();
  ${body}`;
const PRINT = "process.stdout.write(String(cpuMs() - start))";

/** A fresh host's first call. */
const hostScript = (provider: string) =>
  fresh(`const provider = require(${JSON.stringify(provider)});
  Promise.resolve(provider.check({}, { streamKind: "push", streamId: "3001", disabled: true })).then(() => {
    ${PRINT};
  });`);

/** A fresh refresh host's first read. */
const readScript = (provider: string, props: Record<string, unknown>) =>
  fresh(`const provider = require(${JSON.stringify(provider)});
  (async () => {
    await provider.configure?.({ config: { get: () => undefined } });
    const props = ${JSON.stringify(props)};
    await provider.read(props.streamKind + "/" + props.streamId, props);
    ${PRINT};
  })();`);

/** A fresh program's import of the package. */
const programScript = (pkg: string) => fresh(`require(${JSON.stringify(pkg)});\n  ${PRINT};`);

function once(script: string, what: string, env: NodeJS.ProcessEnv = process.env): number {
  // From the repository, where the packed package and @pulumi/pulumi are installed.
  const run = spawnSync(process.execPath, ["-e", script], { cwd: repoRoot, encoding: "utf8", env });
  const ms = Number(run.stdout);
  if (run.status !== 0 || !Number.isFinite(ms)) throw new Error(`${what} failed (exit ${run.status}):\n${run.stderr}`);
  return ms;
}

/** `runs` fresh processes per side, alternating (ABBA); medians. */
function alternating(runs: number, ours: () => number, floor: () => number): HostStartResult {
  const oursRuns: number[] = [];
  const floorRuns: number[] = [];
  for (let i = 0; i < runs; i++) {
    if (i % 2) floorRuns.push(floor());
    oursRuns.push(ours());
    if (i % 2 === 0) floorRuns.push(floor());
  }
  const oursMs = round(median(oursRuns), 1);
  const floorMs = round(median(floorRuns), 1);
  return { runs, oursMs, floorMs, extraMs: round(oursMs - floorMs, 1) };
}

const oursShim = "pulumi-cdnstream/provider/shims/stream-status";

/** Measures `runs` host starts per side. */
export function hostStartBench(runs: number): HostStartResult {
  return alternating(
    runs,
    () => once(hostScript(oursShim), `a host start of ${oursShim}`),
    () => once(hostScript(floorPackageDir), "a host start of the floor"),
  );
}

/** Measures `runs` programs' import of the package per side: ours against the floor's. */
export function programImportBench(runs: number): HostStartResult {
  return alternating(
    runs,
    () => once(programScript("pulumi-cdnstream"), "a program's import of pulumi-cdnstream"),
    () => once(programScript(floorPackageDir), "a program's import of the floor's package"),
  );
}

/**
 * Measures `runs` refresh hosts' first read per side, against an emulator holding the stream
 * (`api`); `props` is the StreamStatus's state.
 */
export function hostReadBench(
  runs: number,
  api: { url: string; apiKey: string },
  props: Record<string, unknown>,
): HostStartResult {
  const env = { ...process.env, CDNSTREAM_API_KEY: api.apiKey, CDNSTREAM_BASE_URL: api.url };
  return alternating(
    runs,
    () => once(readScript(oursShim, props), `a first read of ${oursShim}`, env),
    () => once(readScript(floorPackageDir, props), "a first read of the floor", env),
  );
}
