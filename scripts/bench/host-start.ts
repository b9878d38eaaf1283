/**
 * A provider host's fixed cost: the CPU a fresh dynamic-provider host spends on its first call,
 * from the moment it has loaded @pulumi/pulumi (which every such host loads first, ours and the
 * floor alike) to the end of that call. Every engine operation (`up`, `preview`, `refresh`,
 * `destroy`) starts one host and pays this once, before any per-resource work: loading the
 * provider's code (ours: the shim, the kind's handler, the client, zod and undici) and running it
 * cold. The call is a `check` of one StreamStatus, which needs no API; the floor's `check` returns
 * at once. Runs alternate ours and the floor in fresh processes; medians are reported.
 */
import { spawnSync } from "node:child_process";
import { floorPackageDir } from "./mix";
import { median, round } from "./stacks";
import { repoRoot } from "../demo/project-build";

export interface HostStartResult {
  /** Runs per side. */
  runs: number;
  /** Median CPU ms of the first call, module loading included. */
  oursMs: number;
  floorMs: number;
  /** What ours adds, ms: the floor's call is a function returning at once, so a ratio says nothing. */
  extraMs: number;
}

/** What one fresh host does before and during its first call; prints the CPU ms it took. */
const script = (provider: string) => `
  const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
  require("@pulumi/pulumi");
  const start = cpuMs();
  const provider = require(${JSON.stringify(provider)});
  Promise.resolve(provider.check({}, { streamKind: "push", streamId: "3001", disabled: true })).then(() => {
    process.stdout.write(String(cpuMs() - start));
  });`;

function once(provider: string): number {
  // From the repository, where the packed package and @pulumi/pulumi are installed.
  const run = spawnSync(process.execPath, ["-e", script(provider)], { cwd: repoRoot, encoding: "utf8" });
  const ms = Number(run.stdout);
  if (run.status !== 0 || !Number.isFinite(ms)) {
    throw new Error(`a host start of ${provider} failed (exit ${run.status}):\n${run.stderr}`);
  }
  return ms;
}

/** Measures `runs` host starts per side, alternating (ABBA). */
export function hostStartBench(runs: number): HostStartResult {
  const ours: number[] = [];
  const floor: number[] = [];
  const oursShim = "pulumi-cdnstream/provider/shims/stream-status";
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) {
      ours.push(once(oursShim));
      floor.push(once(floorPackageDir));
    } else {
      floor.push(once(floorPackageDir));
      ours.push(once(oursShim));
    }
  }
  const oursMs = round(median(ours), 1);
  const floorMs = round(median(floor), 1);
  return { runs, oursMs, floorMs, extraMs: round(oursMs - floorMs, 1) };
}
