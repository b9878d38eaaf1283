/**
 * One size N: ours, the floor, the provider plugin and the hand-written anchor (anchor.ts) side by
 * side (docs/benchmarks.md). Every run's outcome is checked (N creates, N unchanged, N deletes): a
 * run in which the engine did something else measures nothing and fails instead.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { LocalWorkspace, type PulumiFn, type Stack } from "@pulumi/pulumi/automation";
import { startBenchEmulator, total, type BenchEmulator } from "./emulator";
import { anchorProgram } from "./anchor";
import { engineEnv } from "./engine";
import { stackFixture } from "./fixture";
import { cpuSeconds, cpuSince, measureOp, type CpuSplit } from "./host";
import { stateBytes, type Bytes } from "./state";
import { declarations, distinctObjects, floorProgram, oursProgram, targetCounts, type Mix } from "./mix";

const OPS = ["up", "preview", "refresh", "destroy"] as const;
type Op = (typeof OPS)[number];
/** The sides of a size, in the order of the ABBA runs' A. */
const SIDES = ["ours", "floor", "plugin", "anchor"] as const;
type SideName = (typeof SIDES)[number];

/** A row of the report (its JSON's `results`): every side's medians for one operation at one size. */
export type OpRow = ReturnType<typeof summarize>;

export type SizeResult = Awaited<ReturnType<typeof runSize>>;

/** The engine's summary an operation must report: `{ create: N+1 }` etc. (the stack resource counts). */
const EXPECTED: Record<Op, string> = { up: "create", preview: "same", refresh: "same", destroy: "delete" };

async function runOp(stack: Stack, op: Op): Promise<Record<string, number>> {
  if (op === "preview") return (await stack.preview()).changeSummary;
  return (await stack[op]()).summary.resourceChanges ?? {};
}

/** One measured run, with the CPU the side's emulator spent on it and the API calls it served. */
type Run = Awaited<ReturnType<typeof measureOp>> & { emulatorCpu: number | null; counts: Record<string, number> };

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const medianOrNull = (xs: (number | null)[]): number | null =>
  xs.some((x) => x === null) ? null : round(median(xs as number[]), 2);
const sumCpu = (c: CpuSplit) => c.engine + c.host + c.program;
const cpuRatio = (a: CpuSplit | null, b: CpuSplit | null) => (a && b ? round(sumCpu(a) / sumCpu(b)) : null);
const cpuText = (c: CpuSplit | null) => (c ? `${c.engine}/${c.host}/${c.program}` : "?");

/** One side's runs of an operation: medians, the largest peak, and the busiest run's API calls. */
function sideStats(runs: Run[], n: number) {
  const cpuMedian = (part: keyof CpuSplit) => round(median(runs.map((x) => x.cpu![part])), 2);
  const cpu = runs.some((x) => !x.cpu)
    ? null
    : { engine: cpuMedian("engine"), host: cpuMedian("host"), program: cpuMedian("program") };
  const peaks = runs.map((x) => x.hostPeakRssMb);
  const busiest = runs.reduce((a, b) => (total(b.counts) > total(a.counts) ? b : a));
  return {
    seconds: median(runs.map((x) => x.seconds)),
    runs: runs.map((x) => round(x.seconds)),
    cpu,
    apiCalls: total(busiest.counts),
    apiCallsByOperation: busiest.counts,
    peakRssMb: peaks.some((x) => x === null) ? null : Math.max(...(peaks as number[])),
    emulatorCpuSeconds: medianOrNull(runs.map((x) => x.emulatorCpu)),
    hostCpuMsPerResource: cpu ? round((cpu.host / n) * 1000, 2) : null,
  };
}

/** What a row needs besides the runs: the operation, the stack's shape and the state bytes of the operation. */
interface RowContext {
  mix: Mix;
  n: number;
  op: Op;
  objects: number;
  bytes: { ours: Bytes; floor: Bytes; anchor: Bytes };
}

/** One table row from every run of an operation on each side (in the order of `SIDES`). */
function summarize({ mix, n, op, objects, bytes }: RowContext, runs: Run[][]) {
  const [o, f, p, a] = runs.map((x) => sideStats(x, n));
  return {
    mix,
    n,
    op,
    /** Wall time, the median of the runs. */
    oursSeconds: round(o.seconds),
    floorSeconds: round(f.seconds),
    ratio: round(o.seconds / f.seconds),
    /** API requests ours made during the operation (the floor makes none); the most of any run. */
    apiCalls: o.apiCalls,
    apiCallsByOperation: o.apiCallsByOperation,
    /** Distinct API objects the N resources manage (AdBreakSlots of one zone share its roster). */
    distinctObjects: objects,
    /** `apiCalls` over `distinctObjects`: 1 is one call per object. */
    apiCallsPerObject: round(o.apiCalls / objects, 2),
    /** Every run's wall time, in the order run. */
    oursRuns: o.runs,
    floorRuns: f.runs,
    /** Peak RSS of the dynamic-provider host, MB (null: not measurable here). */
    oursPeakRssMb: o.peakRssMb,
    floorPeakRssMb: f.peakRssMb,
    /**
     * All CPU of ours over all CPU of the floor (engine, host and program, median runs): steadier than
     * `ratio` on a shared machine, where waiting for a core lengthens wall times but not CPU time.
     */
    cpuRatio: cpuRatio(o.cpu, f.cpu),
    /** CPU seconds by process (median run). */
    oursCpu: o.cpu,
    floorCpu: f.cpu,
    /** CPU seconds the emulator spent serving ours (median run): API cost, on the same shared cores. */
    emulatorCpuSeconds: o.emulatorCpuSeconds,
    /** Provider-host CPU per resource, milliseconds (median run's host CPU over N; null: not measurable). */
    hostCpuMsPerResource: { ours: o.hostCpuMsPerResource, floor: f.hostCpuMsPerResource },
    /**
     * Mean bytes per resource of the state the operation wrote (up, refresh) or worked from
     * (preview, destroy): the engine rewrites the whole checkpoint after every step.
     */
    stateBytesPerResource: { ours: bytes.ours.state, floor: bytes.floor.state },
    /** The same stack through the provider plugin (each resource given a cdnstream Provider), same run. */
    plugin: {
      seconds: round(p.seconds),
      runs: p.runs,
      /** Plugin over floor, wall time. */
      ratio: round(p.seconds / f.seconds),
      /** Plugin over the dynamic path (ours), wall time: below 1, the plugin is faster. */
      oursRatio: round(p.seconds / o.seconds),
      cpuRatio: cpuRatio(p.cpu, f.cpu),
      cpu: p.cpu,
      apiCalls: p.apiCalls,
      peakRssMb: p.peakRssMb,
      hostCpuMsPerResource: p.hostCpuMsPerResource,
    },
    /** The hand-written anchor (anchor.ts) on the same stack, same run, against an emulator of its own. */
    anchor: {
      seconds: round(a.seconds),
      runs: a.runs,
      /** Ours over the anchor, wall time (below 1: ours is faster). */
      ratio: round(o.seconds / a.seconds),
      /** All CPU of ours over all CPU of the anchor. */
      cpuRatio: cpuRatio(o.cpu, a.cpu),
      cpu: a.cpu,
      apiCalls: a.apiCalls,
      apiCallsByOperation: a.apiCallsByOperation,
      peakRssMb: a.peakRssMb,
      emulatorCpuSeconds: a.emulatorCpuSeconds,
      hostCpuMsPerResource: a.hostCpuMsPerResource,
      stateBytesPerResource: bytes.anchor.state,
    },
  };
}

/**
 * Runs size `n`: `repeat` cycles on each side, the emulators reset to their fixture before each
 * cycle, and reports the median of each operation (a single run of a 20-second operation moves by
 * a third on this shared machine). `log` gets one line per operation.
 */
export async function runSize(
  n: number,
  runDir: string,
  options: { repeat: number; engineEnv: Record<string, string>; mix: Mix },
  log: (line: string) => void,
) {
  const decls = declarations(n, options.mix);
  // Each side that writes gets an emulator of its own on the same fixture, so none finds
  // another's objects: ours, the plugin path and the hand-written anchor.
  const fixture = stackFixture(targetCounts(decls));
  const emulators: BenchEmulator[] = [];
  try {
    for (const name of ["", "-plugin", "-anchor"])
      emulators.push(await startBenchEmulator(fixture, path.join(runDir, "fixtures", `n${n}${name}.json`)));
    const [emulator, pluginEmulator, anchorEmulator] = emulators;
    fs.mkdirSync(path.join(runDir, "backend"), { recursive: true });
    /**
     * A side's stack, against `emulator` (whose API calls count, but for the floor, which makes
     * none); `extra`: resources besides the N declared and the stack (the plugin path's provider).
     */
    const side = async (name: SideName, program: PulumiFn, emulator: BenchEmulator, extra = 0) => {
      const project = `bench-${name}`;
      // Its own package.json: otherwise the nearest package scope is the repository's, and
      // `require("pulumi-cdnstream/…")` from the project would be a self-reference to dist/.
      const workDir = path.join(runDir, `${project}-n${n}`);
      fs.mkdirSync(workDir, { recursive: true });
      fs.writeFileSync(path.join(workDir, "package.json"), JSON.stringify({ name: `${project}-n${n}`, private: true }));
      const stack = await LocalWorkspace.createStack(
        { projectName: project, stackName: `n${n}`, program },
        {
          workDir,
          projectSettings: { name: project, runtime: "nodejs" },
          envVars: { ...engineEnv(runDir, emulator.apiKey), ...options.engineEnv },
        },
      );
      // The same config on every side: it is recorded with the default provider in each state.
      await stack.setConfig("cdnstream:baseUrl", { value: emulator.url });
      const counted = name === "floor" ? undefined : emulator;
      const runs: Record<Op, Run[]> = { up: [], preview: [], refresh: [], destroy: [] };
      /** One run of `op`, checked against the summary the engine must report. */
      const run = async (op: Op) => {
        if (counted) await counted.clear();
        const cpuBefore = counted && cpuSeconds(counted.pid);
        const m = await measureOp(() => runOp(stack, op));
        const expected = { [EXPECTED[op]]: n + 1 + extra };
        if (JSON.stringify(m.result) !== JSON.stringify(expected))
          throw new Error(
            `${project} n=${n} ${op}: the engine reported ${JSON.stringify(m.result)}, expected ${JSON.stringify(expected)}`,
          );
        const emulatorCpu = counted ? cpuSince(counted.pid, cpuBefore) : null;
        runs[op].push({ ...m, emulatorCpu, counts: counted ? await counted.counts() : {} });
      };
      return { stack, project, runs, run };
    };
    const sides = {
      ours: await side("ours", oursProgram(decls), emulator),
      floor: await side("floor", floorProgram(decls), emulator),
      plugin: await side("plugin", oursProgram(decls, pluginEmulator.url), pluginEmulator, 1),
      anchor: await side("anchor", anchorProgram(decls, anchorEmulator.url), anchorEmulator),
    };
    // The state after up (what preview reads) and after refresh (what destroy starts from), first cycle.
    const bytes = new Map<Op, RowContext["bytes"]>();
    const bytesOf = (name: SideName) => stateBytes(path.join(runDir, "backend"), sides[name].project, `n${n}`);
    for (let cycle = 0; cycle < options.repeat; cycle++) {
      if (options.repeat > 1) log(`n=${n} cycle ${cycle + 1} of ${options.repeat}`);
      for (const api of emulators) await api.reset();
      for (const [i, op] of OPS.entries()) {
        // ABCD then DCBA from one operation, and one cycle, to the next: a drift in machine load weighs on every side alike.
        for (const name of (cycle + i) % 2 === 0 ? SIDES : [...SIDES].reverse()) await sides[name].run(op);
        if ((op === "up" || op === "refresh") && !bytes.has(op))
          bytes.set(op, { ours: bytesOf("ours"), floor: bytesOf("floor"), anchor: bytesOf("anchor") });
      }
    }
    const rows = OPS.map((op) => {
      const opBytes = bytes.get(op === "preview" ? "up" : op === "destroy" ? "refresh" : op)!;
      const runs = SIDES.map((name) => sides[name].runs[op]);
      const row = summarize({ mix: options.mix, n, op, objects: distinctObjects(decls), bytes: opBytes }, runs);
      log(
        `n=${n} ${op.padEnd(7)} ours ${row.oursSeconds.toFixed(2)} s, floor ${row.floorSeconds.toFixed(2)} s, ratio ${row.ratio.toFixed(2)}, ` +
          `${row.apiCalls} API calls (${row.apiCallsPerObject} per object); CPU ratio ${row.cpuRatio ?? "?"}, s engine/host/program ${cpuText(row.oursCpu)} vs ` +
          `${cpuText(row.floorCpu)}, emulator ${row.emulatorCpuSeconds ?? "?"}; host ms/resource ${row.hostCpuMsPerResource.ours} vs ` +
          `${row.hostCpuMsPerResource.floor}; state B/resource ${row.stateBytesPerResource.ours} vs ${row.stateBytesPerResource.floor}; ` +
          `plugin ${row.plugin.seconds.toFixed(2)} s (${row.plugin.ratio.toFixed(2)} of the floor, ${row.plugin.oursRatio.toFixed(2)} of ours), ` +
          `${row.plugin.apiCalls} API calls; anchor ${row.anchor.seconds.toFixed(2)} s (ours/anchor ${row.anchor.ratio.toFixed(2)}, ` +
          `CPU ${row.anchor.cpuRatio ?? "?"}), ${row.anchor.apiCalls} API calls`,
      );
      return row;
    });
    for (const name of SIDES) await sides[name].stack.workspace.removeStack(`n${n}`);
    return { rows, ...bytes.get("up")! };
  } finally {
    await Promise.all(emulators.map((x) => x.close()));
  }
}

export const round = (x: number, digits = 3): number => Math.round(x * 10 ** digits) / 10 ** digits;
