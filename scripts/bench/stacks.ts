/**
 * One size N: a stack of ours and a stack of the floor, side by side on one file backend with
 * the engine's default parallelism, through `up`, `preview`, `refresh` and `destroy`.
 *
 * Runs alternate sides in ABBA order (ours first, then the floor, then the floor first, …), so
 * a drift in machine load weighs on both alike. Every run's outcome is checked (N creates, N
 * unchanged, N deletes): a run in which the engine did something else measures nothing and
 * fails instead.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { LocalWorkspace, type PulumiFn, type Stack } from "@pulumi/pulumi/automation";
import { startBenchEmulator, total, type BenchEmulator } from "./emulator";
import { anchorProgram } from "./anchor";
import { engineEnv } from "./engine";
import { stackFixture } from "./fixture";
import { cpuSeconds, measureOp, type CpuSplit } from "./host";
import { stateBytes, type Bytes } from "./state";
import { declarations, distinctObjects, floorProgram, oursProgram, pluginProgram, targetCounts, type Mix } from "./mix";

export const OPS = ["up", "preview", "refresh", "destroy"] as const;
export type Op = (typeof OPS)[number];

export interface OpRow {
  /** The stack's shape (mix.ts). */
  mix: Mix;
  n: number;
  op: Op;
  /** Wall time, the median of the runs. */
  oursSeconds: number;
  floorSeconds: number;
  ratio: number;
  /** API requests ours made during the operation (the floor makes none); the most of any run. */
  apiCalls: number;
  apiCallsByOperation: Record<string, number>;
  /** Distinct API objects the N resources manage (AdBreakSlots of one zone share its roster). */
  distinctObjects: number;
  /** `apiCalls` over `distinctObjects`: 1 is one call per object. */
  apiCallsPerObject: number;
  /** Every run's wall time, in the order run. */
  oursRuns: number[];
  floorRuns: number[];
  /** Peak RSS of the dynamic-provider host, MB (null: not measurable here). */
  oursPeakRssMb: number | null;
  floorPeakRssMb: number | null;
  /**
   * All CPU of ours over all CPU of the floor (engine, host and program, median runs): steadier than
   * `ratio` on a shared machine, where waiting for a core lengthens wall times but not CPU time.
   */
  cpuRatio: number | null;
  /** CPU seconds by process (median run): engine (CLI), provider host, program (host.ts). */
  oursCpu: CpuSplit | null;
  floorCpu: CpuSplit | null;
  /** CPU seconds the emulator spent serving ours (median run): API cost, on the same shared cores. */
  emulatorCpuSeconds: number | null;
  /** Provider-host CPU per resource, milliseconds (median run's host CPU over N; null: not measurable). */
  hostCpuMsPerResource: { ours: number | null; floor: number | null };
  /**
   * Mean bytes per resource of the state the operation wrote (up, refresh) or worked from
   * (preview, destroy): the engine rewrites the whole checkpoint after every step.
   */
  stateBytesPerResource: { ours: number; floor: number };
  /** The same stack through the provider plugin (each resource given a cdnstream Provider), same run. */
  plugin: PluginRow;
  /** The hand-written anchor (anchor.ts) on the same stack, same run, against an emulator of its own. */
  anchor: AnchorRow;
}

/** What the anchor measured for one operation: medians, as for the other sides. */
export interface AnchorRow {
  seconds: number;
  runs: number[];
  /** Ours over the anchor, wall time (below 1: ours is faster). */
  ratio: number;
  /** All CPU of ours over all CPU of the anchor (engine, host and program, median runs). */
  cpuRatio: number | null;
  cpu: CpuSplit | null;
  /** API requests the anchor made (the most of any run), by operation. */
  apiCalls: number;
  apiCallsByOperation: Record<string, number>;
  peakRssMb: number | null;
  emulatorCpuSeconds: number | null;
  hostCpuMsPerResource: number | null;
  stateBytesPerResource: number;
}

/** The plugin path's medians for one operation, against the floor and against the dynamic path. */
export interface PluginRow {
  seconds: number;
  runs: number[];
  /** Plugin over floor, wall time. */
  ratio: number;
  /** Plugin over the dynamic path (ours), wall time: below 1, the plugin is faster. */
  oursRatio: number;
  /** All CPU of the plugin path over all CPU of the floor. */
  cpuRatio: number | null;
  cpu: CpuSplit | null;
  apiCalls: number;
  peakRssMb: number | null;
  hostCpuMsPerResource: number | null;
}

export interface SizeResult {
  rows: OpRow[];
  ours: Bytes;
  floor: Bytes;
  anchor: Bytes;
}

/** The engine's summary an operation must report: `{ create: N+1 }` etc. (the stack resource counts). */
const EXPECTED: Record<Op, string> = { up: "create", preview: "same", refresh: "same", destroy: "delete" };

async function runOp(stack: Stack, op: Op): Promise<Record<string, number>> {
  const quiet = { onOutput: () => undefined };
  switch (op) {
    case "up":
      return (await stack.up(quiet)).summary.resourceChanges ?? {};
    case "preview":
      return (await stack.preview(quiet)).changeSummary;
    case "refresh":
      return (await stack.refresh(quiet)).summary.resourceChanges ?? {};
    case "destroy":
      return (await stack.destroy(quiet)).summary.resourceChanges ?? {};
  }
}

interface Side {
  stack: Stack;
  project: string;
  /** Resources besides the N declared and the stack: the plugin path's explicit provider. */
  extra: number;
}

async function createSide(
  runDir: string,
  project: string,
  n: number,
  env: Record<string, string>,
  baseUrl: string,
  program: PulumiFn,
  extra = 0,
): Promise<Side> {
  // Its own package.json: otherwise the nearest package scope is the repository's, and
  // `require("pulumi-cdnstream/…")` from the project would be a self-reference to dist/.
  const workDir = path.join(runDir, `${project}-n${n}`);
  fs.mkdirSync(workDir, { recursive: true });
  fs.writeFileSync(path.join(workDir, "package.json"), JSON.stringify({ name: `${project}-n${n}`, private: true }));
  const stack = await LocalWorkspace.createStack(
    { projectName: project, stackName: `n${n}`, program },
    { workDir, projectSettings: { name: project, runtime: "nodejs" }, envVars: env },
  );
  // The same config on both sides: it is recorded with the default provider in either state.
  await stack.setConfig("cdnstream:baseUrl", { value: baseUrl });
  return { stack, project, extra };
}

interface Run {
  seconds: number;
  peakRssMb: number | null;
  cpu: CpuSplit | null;
  emulatorCpu: number | null;
  counts: Record<string, number>;
}

/** One run of `op` on one side, checked against the summary the engine must report. */
async function runSide(side: Side, op: Op, n: number, emulator: BenchEmulator | undefined): Promise<Run> {
  if (emulator) await emulator.clear();
  const emulatorCpu = emulator && cpuSeconds(emulator.pid);
  const m = await measureOp(() => runOp(side.stack, op));
  const expected = { [EXPECTED[op]]: n + 1 + side.extra };
  if (JSON.stringify(m.result) !== JSON.stringify(expected)) {
    throw new Error(
      `${side.project} n=${n} ${op}: the engine reported ${JSON.stringify(m.result)}, expected ${JSON.stringify(expected)}`,
    );
  }
  const emulatorAfter = emulator && cpuSeconds(emulator.pid);
  return {
    seconds: m.seconds,
    peakRssMb: m.hostPeakRssMb,
    cpu: m.cpu,
    emulatorCpu: emulatorCpu !== undefined && emulatorAfter !== undefined ? emulatorAfter - emulatorCpu : null,
    counts: emulator ? await emulator.counts() : {},
  };
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const medianOrNull = (xs: (number | null)[]): number | null =>
  xs.some((x) => x === null) ? null : round(median(xs as number[]), 2);
const medianCpu = (runs: Run[]): CpuSplit | null =>
  runs.some((x) => !x.cpu)
    ? null
    : {
        engine: medianOrNull(runs.map((x) => x.cpu!.engine))!,
        host: medianOrNull(runs.map((x) => x.cpu!.host))!,
        program: medianOrNull(runs.map((x) => x.cpu!.program))!,
      };
const sumCpu = (c: CpuSplit) => c.engine + c.host + c.program;
const cpuText = (c: CpuSplit | null) => (c ? `${c.engine}/${c.host}/${c.program}` : "?");
const maxOrNull = (xs: (number | null)[]): number | null =>
  xs.some((x) => x === null) ? null : Math.max(...(xs as number[]));

/** What a row needs besides the runs: the stack's shape and the state bytes of the operation. */
interface RowContext {
  mix: Mix;
  n: number;
  objects: number;
  bytes: { ours: Bytes; floor: Bytes; anchor: Bytes };
}

const busiestOf = (runs: Run[]) => runs.reduce((a, b) => (total(b.counts) > total(a.counts) ? b : a));

/** One table row from every run of an operation on each side: medians, and the most API calls of any run. */
function summarize({ mix, n, objects, bytes }: RowContext, op: Op, o: Run[], f: Run[], p: Run[], a: Run[]): OpRow {
  const busiest = busiestOf(o);
  const oursSeconds = median(o.map((x) => x.seconds));
  const floorSeconds = median(f.map((x) => x.seconds));
  const oursCpu = medianCpu(o);
  const floorCpu = medianCpu(f);
  const perResourceMs = (c: CpuSplit | null) => (c ? round((c.host / n) * 1000, 2) : null);
  return {
    mix,
    n,
    op,
    oursSeconds: round(oursSeconds),
    floorSeconds: round(floorSeconds),
    ratio: round(oursSeconds / floorSeconds),
    apiCalls: total(busiest.counts),
    apiCallsByOperation: busiest.counts,
    distinctObjects: objects,
    apiCallsPerObject: round(total(busiest.counts) / objects, 2),
    oursRuns: o.map((x) => round(x.seconds)),
    floorRuns: f.map((x) => round(x.seconds)),
    oursPeakRssMb: maxOrNull(o.map((x) => x.peakRssMb)),
    floorPeakRssMb: maxOrNull(f.map((x) => x.peakRssMb)),
    cpuRatio: oursCpu && floorCpu ? round(sumCpu(oursCpu) / sumCpu(floorCpu)) : null,
    oursCpu,
    floorCpu,
    emulatorCpuSeconds: medianOrNull(o.map((x) => x.emulatorCpu)),
    hostCpuMsPerResource: { ours: perResourceMs(oursCpu), floor: perResourceMs(floorCpu) },
    stateBytesPerResource: { ours: bytes.ours.state, floor: bytes.floor.state },
    plugin: summarizePlugin(n, oursSeconds, floorSeconds, floorCpu, p),
    anchor: summarizeAnchor(n, oursSeconds, oursCpu, a, bytes.anchor),
  };
}

function summarizeAnchor(n: number, oursSeconds: number, oursCpu: CpuSplit | null, a: Run[], bytes: Bytes): AnchorRow {
  const seconds = median(a.map((x) => x.seconds));
  const cpu = medianCpu(a);
  const busiest = busiestOf(a);
  return {
    seconds: round(seconds),
    runs: a.map((x) => round(x.seconds)),
    ratio: round(oursSeconds / seconds),
    cpuRatio: oursCpu && cpu ? round(sumCpu(oursCpu) / sumCpu(cpu)) : null,
    cpu,
    apiCalls: total(busiest.counts),
    apiCallsByOperation: busiest.counts,
    peakRssMb: maxOrNull(a.map((x) => x.peakRssMb)),
    emulatorCpuSeconds: medianOrNull(a.map((x) => x.emulatorCpu)),
    hostCpuMsPerResource: cpu ? round((cpu.host / n) * 1000, 2) : null,
    stateBytesPerResource: bytes.state,
  };
}

function summarizePlugin(
  n: number,
  oursSeconds: number,
  floorSeconds: number,
  floorCpu: CpuSplit | null,
  p: Run[],
): PluginRow {
  const seconds = median(p.map((x) => x.seconds));
  const cpu = medianCpu(p);
  return {
    seconds: round(seconds),
    runs: p.map((x) => round(x.seconds)),
    ratio: round(seconds / floorSeconds),
    oursRatio: round(seconds / oursSeconds),
    cpuRatio: cpu && floorCpu ? round(sumCpu(cpu) / sumCpu(floorCpu)) : null,
    cpu,
    apiCalls: Math.max(...p.map((x) => total(x.counts))),
    peakRssMb: maxOrNull(p.map((x) => x.peakRssMb)),
    hostCpuMsPerResource: cpu ? round((cpu.host / n) * 1000, 2) : null,
  };
}

export interface SizeOptions {
  /** Cycles of up, preview, refresh, destroy per side. */
  repeat: number;
  /** Extra engine environment for both sides (e.g. PULUMI_SKIP_CHECKPOINTS). */
  engineEnv: Record<string, string>;
  /** The stack's shape. */
  mix: Mix;
}

/**
 * Runs size `n`: `repeat` cycles of up, preview, refresh and destroy on each side, the emulator
 * reset to its fixture before each cycle, and reports the median of each operation (a single
 * run of a 20-second operation moves by a third on this shared machine). `log` gets one line
 * per operation.
 */
export async function runSize(
  n: number,
  runDir: string,
  options: SizeOptions,
  log: (line: string) => void,
): Promise<SizeResult> {
  const decls = declarations(n, options.mix);
  // Each side that writes gets an emulator of its own on the same fixture, so none finds
  // another's objects: ours, the plugin path and the hand-written anchor.
  const fixture = stackFixture(targetCounts(decls));
  const started: BenchEmulator[] = [];
  const emulatorFor = async (name: string) => {
    try {
      const one = await startBenchEmulator(fixture, path.join(runDir, "fixtures", `n${n}${name}.json`));
      started.push(one);
      return one;
    } catch (e) {
      await Promise.all(started.map((x) => x.close()));
      throw e;
    }
  };
  const emulator = await emulatorFor("");
  const pluginEmulator = await emulatorFor("-plugin");
  const anchorEmulator = await emulatorFor("-anchor");
  const env = { ...engineEnv(runDir, emulator.apiKey), ...options.engineEnv };
  const pluginEnv = { ...engineEnv(runDir, pluginEmulator.apiKey), ...options.engineEnv };
  const anchorEnv = { ...engineEnv(runDir, anchorEmulator.apiKey), ...options.engineEnv };
  fs.mkdirSync(path.join(runDir, "backend"), { recursive: true });
  try {
    const ours = await createSide(runDir, "bench-ours", n, env, emulator.url, oursProgram(decls));
    const floor = await createSide(runDir, "bench-floor", n, env, emulator.url, floorProgram(decls));
    const plugin = await createSide(
      runDir,
      "bench-plugin",
      n,
      pluginEnv,
      pluginEmulator.url,
      pluginProgram(decls, pluginEmulator.url),
      1,
    );
    const anchor = await createSide(
      runDir,
      "bench-anchor",
      n,
      anchorEnv,
      anchorEmulator.url,
      anchorProgram(decls, anchorEmulator.url),
    );
    const emulatorOf = new Map<Side, BenchEmulator | undefined>([
      [ours, emulator],
      [floor, undefined],
      [plugin, pluginEmulator],
      [anchor, anchorEmulator],
    ]);
    const runs = new Map(
      OPS.map((op) => [
        op,
        new Map<Side, Run[]>([
          [ours, []],
          [floor, []],
          [plugin, []],
          [anchor, []],
        ]),
      ]),
    );
    // The state after up (what preview reads) and after refresh (what destroy starts from), first cycle.
    const bytes = new Map<Op, { ours: Bytes; floor: Bytes; anchor: Bytes }>();
    for (let cycle = 0; cycle < options.repeat; cycle++) {
      if (options.repeat > 1) log(`n=${n} cycle ${cycle + 1} of ${options.repeat}`);
      await emulator.reset();
      await pluginEmulator.reset();
      await anchorEmulator.reset();
      for (const [i, op] of OPS.entries()) {
        // ABBA: which side goes first alternates from one operation, and one cycle, to the next
        // (with the plugin path and the anchor, ABCD then DCBA).
        for (const side of (cycle + i) % 2 === 0 ? [ours, floor, plugin, anchor] : [anchor, plugin, floor, ours]) {
          runs
            .get(op)!
            .get(side)!
            .push(await runSide(side, op, n, emulatorOf.get(side)));
        }
        if ((op === "up" || op === "refresh") && !bytes.has(op)) {
          const backend = path.join(runDir, "backend");
          bytes.set(op, {
            ours: stateBytes(backend, ours.project, `n${n}`),
            floor: stateBytes(backend, floor.project, `n${n}`),
            anchor: stateBytes(backend, anchor.project, `n${n}`),
          });
        }
      }
    }
    const rows = OPS.map((op) => {
      const opBytes = bytes.get(op === "preview" ? "up" : op === "destroy" ? "refresh" : op)!;
      const context = { mix: options.mix, n, objects: distinctObjects(decls), bytes: opBytes };
      const row = summarize(
        context,
        op,
        runs.get(op)!.get(ours)!,
        runs.get(op)!.get(floor)!,
        runs.get(op)!.get(plugin)!,
        runs.get(op)!.get(anchor)!,
      );
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
    for (const side of [ours, floor, plugin, anchor]) await side.stack.workspace.removeStack(`n${n}`);
    return { rows, ...bytes.get("up")! };
  } finally {
    await Promise.all(started.map((x) => x.close()));
  }
}

export const round = (x: number, digits = 3): number => Math.round(x * 10 ** digits) / 10 ** digits;
