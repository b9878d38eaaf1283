/**
 * Fixed costs in fresh processes, ours against the floor's: a provider host's first call (a
 * StreamStatus `check`, which needs no API), a refresh host's first `read`, and a program's import
 * of the package (docs/benchmarks.md says what each measures and why). Runs alternate sides.
 */
import { runSync } from "../child";
import * as path from "node:path";
import { startBenchEmulator } from "./emulator";
import { stackFixture } from "./fixture";
import { declarations, floorPackageDir, targetCounts } from "./mix";
import { median, round } from "./stacks";
import { repoRoot } from "./engine";

export type HostStartResult = ReturnType<typeof alternating>;

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
  // One process's start and first call: well under a second, seconds on a busy machine.
  const run = runSync(process.execPath, ["-e", script], {
    cwd: repoRoot,
    env,
    deadlineMs: 2 * 60_000,
    allowFailure: true,
  });
  const ms = Number(run.stdout);
  if (run.status !== 0 || !Number.isFinite(ms)) throw new Error(`${what} failed (exit ${run.status}):\n${run.stderr}`);
  return ms;
}

/** `runs` fresh processes per side, alternating (ABBA); medians. */
function alternating(runs: number, ours: () => number, floor: () => number) {
  const oursRuns: number[] = [];
  const floorRuns: number[] = [];
  for (let i = 0; i < runs; i++) {
    if (i % 2) floorRuns.push(floor());
    oursRuns.push(ours());
    if (i % 2 === 0) floorRuns.push(floor());
  }
  const oursMs = round(median(oursRuns), 1);
  const floorMs = round(median(floorRuns), 1);
  return {
    /** Fresh processes per side. */
    runs,
    /** Median CPU ms of the first call, module loading included. */
    oursMs,
    floorMs,
    /** What ours adds, ms: the floor's call is a function returning at once, so a ratio says nothing. */
    extraMs: round(oursMs - floorMs, 1),
  };
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

/** Measures `runs` refresh hosts' first read per side, of a StreamStatus an emulator of its own holds. */
export async function hostReadBench(runs: number, runDir: string): Promise<HostStartResult> {
  const decls = declarations(1); // the cycle's first resource, a StreamStatus
  const fixture = stackFixture(targetCounts(decls));
  const api = await startBenchEmulator(fixture, path.join(runDir, "fixtures", "first-read.json"));
  const env = { ...process.env, CDNSTREAM_API_KEY: api.apiKey, CDNSTREAM_BASE_URL: api.url };
  try {
    return alternating(
      runs,
      () => once(readScript(oursShim, decls[0].args), `a first read of ${oursShim}`, env),
      () => once(readScript(floorPackageDir, decls[0].args), "a first read of the floor", env),
    );
  } finally {
    await api.close();
  }
}
