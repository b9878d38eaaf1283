/**
 * One size N: ours, the floor, the read floor (read-floor.ts), the provider plugin and the
 * hand-written anchor (anchor.ts) side by side (docs/benchmarks.md). Every run's outcome is checked
 * (N creates, N unchanged, N deletes): a run in which the engine did something else measures
 * nothing and fails instead; so is a read floor that sent other requests than ours.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { LocalWorkspace, type PulumiFn, type Stack } from "@pulumi/pulumi/automation";
import { startBenchEmulator, total, type BenchEmulator, type BenchRequest } from "./emulator";
import { anchorProgram } from "./anchor";
import { engineEnv } from "./engine";
import { stackFixture } from "./fixture";
import { cpuSeconds, cpuSince, measureOp, type CpuSplit } from "./host";
import { stateBytes, type Bytes } from "./state";
import { declarations, distinctObjects, floorProgram, oursProgram, targetCounts, type Mix } from "./mix";
import { readFloorProgram } from "./read-floor";

const OPS = ["up", "preview", "refresh", "destroy"] as const;
type Op = (typeof OPS)[number];
/** The sides of a size, in the order of the ABBA runs' A (the anchor last: it may sit a size out). */
const SIDES = ["ours", "floor", "readFloor", "plugin", "anchor"] as const;
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

/**
 * The requests an operation sent, as the emulator logged them: method, path and query, and the
 * body with its keys sorted (JSON key order is not part of a request's meaning); sorted, since
 * the engine runs resources in parallel.
 */
const requestLines = (requests: BenchRequest[]): string[] =>
  requests.map((r) => `${r.method} ${r.path}${r.query ? `?${r.query}` : ""} ${sortedJson(r.body)}`).sort();
const sortedJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort()) : v,
  ) ?? "";

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
  bytes: { ours: Bytes; floor: Bytes; readFloor: Bytes; anchor: Bytes | null };
  /** The request lines (requestLines) of the operation's first run, ours and the read floor's. */
  requests: { ours: string[]; readFloor: string[] };
}

const digest = (lines: string[]) => createHash("sha256").update(lines.join("\n")).digest("hex").slice(0, 16);

/** One table row from every run of an operation on each side (the anchor's none when it sat the size out). */
function summarize({ mix, n, op, objects, bytes, requests }: RowContext, runs: Record<SideName, Run[]>) {
  const [o, f, r, p] = (["ours", "floor", "readFloor", "plugin"] as const).map((side) => sideStats(runs[side], n));
  const a = runs.anchor.length ? sideStats(runs.anchor, n) : null;
  return {
    mix,
    n,
    op,
    /** Wall time, the median of the runs. */
    oursSeconds: round(o.seconds),
    floorSeconds: round(f.seconds),
    ratio: round(o.seconds / f.seconds),
    /** The read floor (read-floor.ts): the same requests as ours, each answer JSON.parse'd, nothing else. */
    readFloorSeconds: round(r.seconds),
    /** Ours over the read floor, wall time: what ours adds to the requests it must send. */
    readFloorRatio: round(o.seconds / r.seconds),
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
    readFloorRuns: r.runs,
    /** Peak RSS of the dynamic-provider host, MB (null: not measurable here). */
    oursPeakRssMb: o.peakRssMb,
    floorPeakRssMb: f.peakRssMb,
    readFloorPeakRssMb: r.peakRssMb,
    /**
     * All CPU of ours over all CPU of the floor (engine, host and program, median runs): steadier than
     * `ratio` on a shared machine, where waiting for a core lengthens wall times but not CPU time.
     */
    cpuRatio: cpuRatio(o.cpu, f.cpu),
    /** All CPU of ours over all CPU of the read floor. */
    readFloorCpuRatio: cpuRatio(o.cpu, r.cpu),
    /** CPU seconds by process (median run). */
    oursCpu: o.cpu,
    floorCpu: f.cpu,
    readFloorCpu: r.cpu,
    /** API requests the read floor made (the same as ours, checked request by request on the first cycle). */
    readFloorApiCalls: r.apiCalls,
    /**
     * The first cycle's requests as the emulators logged them (method, path, query, body), ours and
     * the read floor's: how many, and a digest of each side's sorted list (the run fails when they differ).
     */
    firstCycleRequests: {
      count: requests.ours.length,
      ours: digest(requests.ours),
      readFloor: digest(requests.readFloor),
    },
    /** CPU seconds the emulator spent serving ours (median run): API cost, on the same shared cores. */
    emulatorCpuSeconds: o.emulatorCpuSeconds,
    /** Provider-host CPU per resource, milliseconds (median run's host CPU over N; null: not measurable). */
    hostCpuMsPerResource: {
      ours: o.hostCpuMsPerResource,
      floor: f.hostCpuMsPerResource,
      readFloor: r.hostCpuMsPerResource,
    },
    /**
     * Mean bytes per resource of the state the operation wrote (up, refresh) or worked from
     * (preview, destroy): the engine rewrites the whole checkpoint after every step.
     */
    stateBytesPerResource: { ours: bytes.ours.state, floor: bytes.floor.state, readFloor: bytes.readFloor.state },
    /** The same stack through the provider plugin (each resource given a cdnstream Provider), same run. */
    plugin: {
      seconds: round(p.seconds),
      runs: p.runs,
      /** Plugin over floor, wall time. */
      ratio: round(p.seconds / f.seconds),
      /** Plugin over the dynamic path (ours), wall time: below 1, the plugin is faster. */
      oursRatio: round(p.seconds / o.seconds),
      /** Plugin over the read floor, wall time. */
      readFloorRatio: round(p.seconds / r.seconds),
      readFloorCpuRatio: cpuRatio(p.cpu, r.cpu),
      cpuRatio: cpuRatio(p.cpu, f.cpu),
      cpu: p.cpu,
      apiCalls: p.apiCalls,
      peakRssMb: p.peakRssMb,
      hostCpuMsPerResource: p.hostCpuMsPerResource,
    },
    /**
     * The hand-written anchor (anchor.ts) on the same stack, same run, against an emulator of its
     * own; null at a size it sat out (`--anchor-up-to`).
     */
    anchor: a && {
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
      stateBytesPerResource: bytes.anchor?.state ?? null,
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
  options: { repeat: number; engineEnv: Record<string, string>; mix: Mix; anchorUpTo?: number },
  log: (line: string) => void,
) {
  // The hand-written anchor's up and destroy grow fastest of all sides; above `anchorUpTo` it sits out.
  const withAnchor = n <= (options.anchorUpTo ?? Infinity);
  const sideNames = SIDES.filter((name) => name !== "anchor" || withAnchor);
  const decls = declarations(n, options.mix);
  // Each side that writes gets an emulator of its own on the same fixture, so none finds
  // another's objects: ours, the read floor, the plugin path and the hand-written anchor.
  const fixture = stackFixture(targetCounts(decls));
  const emulators: BenchEmulator[] = [];
  try {
    for (const name of ["", "-read-floor", "-plugin", "-anchor"])
      emulators.push(await startBenchEmulator(fixture, path.join(runDir, "fixtures", `n${n}${name}.json`)));
    const [emulator, readFloorEmulator, pluginEmulator, anchorEmulator] = emulators;
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
      /** The requests of each operation's first run (ours and the read floor's are compared). */
      const firstRequests = new Map<Op, string[]>();
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
        if (compared.has(name) && !firstRequests.has(op))
          firstRequests.set(op, requestLines(await counted!.requests()));
      };
      return { stack, project, runs, run, firstRequests };
    };
    const compared = new Set<SideName>(["ours", "readFloor"]);
    const sides = {
      ours: await side("ours", oursProgram(decls), emulator),
      floor: await side("floor", floorProgram(decls), emulator),
      readFloor: await side("readFloor", readFloorProgram(decls), readFloorEmulator),
      plugin: await side("plugin", oursProgram(decls, pluginEmulator.url), pluginEmulator, 1),
      anchor: withAnchor ? await side("anchor", anchorProgram(decls, anchorEmulator.url), anchorEmulator) : undefined,
    };
    /** Throws unless the read floor's first `op` sent exactly the requests ours's did. */
    const checkSameRequests = (op: Op) => {
      const ours = sides.ours.firstRequests.get(op)!;
      const readFloor = sides.readFloor.firstRequests.get(op)!;
      const missing = ours.filter((x) => !readFloor.includes(x));
      const extra = readFloor.filter((x) => !ours.includes(x));
      if (ours.length !== readFloor.length || missing.length || extra.length)
        throw new Error(
          `n=${n} ${op}: the read floor sent ${readFloor.length} requests, ours ${ours.length}; ` +
            `ours only: ${missing.slice(0, 3).join(" | ") || "none"}; read floor only: ${extra.slice(0, 3).join(" | ") || "none"}`,
        );
    };
    // The state after up (what preview reads) and after refresh (what destroy starts from), first cycle.
    const bytes = new Map<Op, RowContext["bytes"]>();
    const bytesOf = (name: SideName) => stateBytes(path.join(runDir, "backend"), sides[name]!.project, `n${n}`);
    for (let cycle = 0; cycle < options.repeat; cycle++) {
      if (options.repeat > 1) log(`n=${n} cycle ${cycle + 1} of ${options.repeat}`);
      for (const api of emulators) await api.reset();
      for (const [i, op] of OPS.entries()) {
        // ABCD then DCBA from one operation, and one cycle, to the next: a drift in machine load weighs on every side alike.
        for (const name of (cycle + i) % 2 === 0 ? sideNames : [...sideNames].reverse()) await sides[name]!.run(op);
        if (cycle === 0) checkSameRequests(op);
        if ((op === "up" || op === "refresh") && !bytes.has(op))
          bytes.set(op, {
            ours: bytesOf("ours"),
            floor: bytesOf("floor"),
            readFloor: bytesOf("readFloor"),
            anchor: withAnchor ? bytesOf("anchor") : null,
          });
      }
    }
    const rows = OPS.map((op) => {
      const opBytes = bytes.get(op === "preview" ? "up" : op === "destroy" ? "refresh" : op)!;
      const runs = Object.fromEntries(SIDES.map((name) => [name, sides[name]?.runs[op] ?? []])) as Record<
        SideName,
        Run[]
      >;
      const requests = { ours: sides.ours.firstRequests.get(op)!, readFloor: sides.readFloor.firstRequests.get(op)! };
      const context = { mix: options.mix, n, op, objects: distinctObjects(decls), bytes: opBytes, requests };
      const row = summarize(context, runs);
      log(
        `n=${n} ${op.padEnd(7)} ours ${row.oursSeconds.toFixed(2)} s, floor ${row.floorSeconds.toFixed(2)} s, ratio ${row.ratio.toFixed(2)}, ` +
          `${row.apiCalls} API calls (${row.apiCallsPerObject} per object); CPU ratio ${row.cpuRatio ?? "?"}, s engine/host/program ${cpuText(row.oursCpu)} vs ` +
          `${cpuText(row.floorCpu)}, emulator ${row.emulatorCpuSeconds ?? "?"}; host ms/resource ${row.hostCpuMsPerResource.ours} vs ` +
          `${row.hostCpuMsPerResource.floor}; state B/resource ${row.stateBytesPerResource.ours} vs ${row.stateBytesPerResource.floor}; ` +
          `plugin ${row.plugin.seconds.toFixed(2)} s (${row.plugin.ratio.toFixed(2)} of the floor, ${row.plugin.oursRatio.toFixed(2)} of ours), ` +
          `${row.plugin.apiCalls} API calls; read floor ${row.readFloorSeconds.toFixed(2)} s (ours/read floor ${row.readFloorRatio.toFixed(2)}, ` +
          `CPU ${row.readFloorCpuRatio ?? "?"}, plugin/read floor ${row.plugin.readFloorRatio.toFixed(2)}), host ms/resource ` +
          `${row.hostCpuMsPerResource.readFloor}; ` +
          (row.anchor
            ? `anchor ${row.anchor.seconds.toFixed(2)} s (ours/anchor ${row.anchor.ratio.toFixed(2)}, ` +
              `CPU ${row.anchor.cpuRatio ?? "?"}), ${row.anchor.apiCalls} API calls`
            : "anchor sat this size out"),
      );
      return row;
    });
    for (const name of sideNames) await sides[name]!.stack.workspace.removeStack(`n${n}`);
    return { rows, ...bytes.get("up")! };
  } finally {
    await Promise.all(emulators.map((x) => x.close()));
  }
}

export const round = (x: number, digits = 3): number => Math.round(x * 10 ** digits) / 10 ** digits;
