/** The bench's report: its sections but the drift fleet's, the machine, the targets it is held to, the markdown on stdout. */
import * as os from "node:os";
import * as path from "node:path";
import { hostReadBench, hostStartBench, programImportBench, type HostStartResult } from "./host-start";
import { clientBench, type ClientResult } from "./throughput";
import type { Mix } from "./mix";
import type { CpuSplit } from "./host";
import { round, runSize, type OpRow, type SizeResult } from "./stacks";

export type Machine = ReturnType<typeof machine>;

export function machine(pulumi: { version: string; defaultParallel: number | null }) {
  return {
    cpus: os.cpus().length,
    model: os.cpus()[0]?.model.trim() ?? "unknown",
    memoryGb: round(os.totalmem() / 2 ** 30, 1),
    platform: `${os.platform()} ${os.release()}`,
    node: process.version,
    pulumi: pulumi.version,
    /** The CLI's default `--parallel` here; both sides run with it. */
    pulumiParallel: pulumi.defaultParallel,
    /** 1, 5 and 15 minute load averages when the run started (the machine is shared). */
    loadAverage: loadAverage(),
  };
}

/** The 1, 5 and 15 minute load averages now. */
export const loadAverage = (): number[] => os.loadavg().map((x) => round(x, 2));

/** The report of every section but the drift fleet's (written as JSON by --json). */
export type Report = { machine: Machine; startedAt: string } & Awaited<ReturnType<typeof sizesReport>>;

/** Every section but the drift fleet's, as the command's options (index.ts) ask. */
export async function sizesReport(
  opts: {
    sizes: number[];
    warmup: boolean;
    hostStarts: number;
    concurrency: number;
    clientSeconds: number;
    size: Parameters<typeof runSize>[2];
  },
  runDir: string,
  progress: (line: string) => void,
) {
  if (opts.warmup) {
    progress("warm-up round (N=2, not reported)");
    await runSize(2, path.join(runDir, "warmup"), { ...opts.size, repeat: 1 }, () => undefined);
  }
  const bySize: { n: number; result: SizeResult }[] = [];
  for (const n of opts.sizes) bySize.push({ n, result: await runSize(n, runDir, opts.size, progress) });
  progress(`host start: ${opts.hostStarts} fresh hosts per side, first call`);
  const hostStart = hostStartBench(opts.hostStarts);
  progress(`host read: ${opts.hostStarts} fresh hosts per side, first read`);
  const hostRead = await hostReadBench(opts.hostStarts, runDir);
  progress(`program import: ${opts.hostStarts} fresh programs per side`);
  const programImport = programImportBench(opts.hostStarts);
  progress(`client: ${opts.concurrency} in flight, ${opts.clientSeconds} s per run`);
  const client = await clientBench(opts.clientSeconds, opts.concurrency, runDir);

  const results: OpRow[] = bySize.flatMap((s) => s.result.rows);
  const providerBytes = Math.max(...bySize.map((s) => s.result.ours.provider.max));
  const largest = bySize.reduce((a, b) => (b.n > a.n ? b : a));
  return {
    loadAverageAtEnd: loadAverage(),
    mix: opts.size.mix,
    sizes: opts.sizes,
    /** Cycles of up, preview, refresh, destroy per side (medians reported). */
    repeat: opts.size.repeat,
    /** Extra engine environment both sides ran with (empty in a normal run). */
    engineEnv: opts.size.engineEnv,
    results,
    /** The largest `__provider` of any of our resources, bytes (target: at most PROVIDER_BYTES_LIMIT, report.ts). */
    providerBytesPerResource: providerBytes,
    /** Mean state bytes per resource at the largest N. */
    stateBytesPerResource: {
      ours: largest.result.ours.state,
      floor: largest.result.floor.state,
      readFloor: largest.result.readFloor.state,
    },
    bytesBySize: bySize.map((s) => ({
      n: s.n,
      ours: s.result.ours,
      floor: s.result.floor,
      readFloor: s.result.readFloor,
      anchor: s.result.anchor,
    })),
    /** Sizes above which the hand-written anchor sat out (`--anchor-up-to`), or null: it ran at every size. */
    anchorUpTo: opts.size.anchorUpTo ?? null,
    hostStart,
    /** A refresh host's first call: a StreamStatus read (ours against the emulator). */
    hostRead,
    programImport,
    client,
    targets: targets(results, providerBytes, client, opts.size.mix),
  };
}

export type Target = ReturnType<typeof atMost>;

/**
 * The most bytes a resource's `__provider` may take (the one-line module of kinds/resource.ts, 84 at
 * most): a longer form is stored twice per resource and rewritten with every checkpoint.
 */
export const PROVIDER_BYTES_LIMIT = 100;

/** The targets of the performance work (docs/benchmarks.md), each where the run has what it needs to judge it. */
export function targets(rows: OpRow[], providerBytes: number, client: ClientResult, mix: Mix): Target[] {
  const largest = Math.max(...rows.map((r) => r.n));
  const out: Target[] = [];
  // Each target against the no-op floor carries the read floor's own value of the same measure: a
  // limit below it is one no provider that sends ours's requests could meet.
  const readFloorOverFloor = (r: OpRow) => round(r.readFloorSeconds / r.floorSeconds);
  for (const r of rows.filter((x) => x.n === 500))
    out.push(atMost(`${r.op} ours/floor at N=500`, r.ratio, "1.15", readFloorOverFloor(r)));
  for (const r of rows.filter((x) => x.n === 50))
    out.push(atMost(`${r.op} ours/floor at N=50`, r.ratio, "1.10", readFloorOverFloor(r)));
  // What ours adds to the requests any provider must send: the dynamic path within 1.10 of the
  // read floor, the plugin path at or under it.
  for (const r of rows.filter((x) => x.n === 500))
    out.push(atMost(`${r.op} ours/read floor at N=500`, r.readFloorRatio, "1.10"));
  for (const r of rows.filter((x) => x.n === 500))
    out.push(atMost(`${r.op} plugin/read floor at N=500`, r.plugin.readFloorRatio, "1.00"));
  // A cost that stays flat: ours's host CPU per resource at N=2,000 against N=500's, same run.
  for (const big of rows.filter((x) => x.n === 2000)) {
    const mid = rows.find((x) => x.n === 500 && x.op === big.op);
    const [at2000, at500] = [big.hostCpuMsPerResource.ours, mid?.hostCpuMsPerResource.ours];
    if (at2000 !== null && at500 !== null && at500 !== undefined && at500 > 0)
      out.push(atMost(`${big.op} host CPU per resource, ours at N=2000 / N=500`, round(at2000 / at500), "1.10"));
  }
  const { ours, floor, readFloor } = rows.find((r) => r.n === largest && r.op === "refresh")!.hostCpuMsPerResource;
  if (ours !== null && floor !== null && floor > 0) {
    const name = `refresh host CPU per resource, ours/floor at N=${largest}`;
    out.push(atMost(name, round(ours / floor), "1.30", readFloor === null ? null : round(readFloor / floor)));
  }
  const measured = rows.filter((r) => r.oursPeakRssMb !== null && r.floorPeakRssMb !== null);
  if (measured.length) {
    const largestGap = (peak: (r: OpRow) => number | null) =>
      Math.round(Math.max(...measured.map((r) => peak(r)! - r.floorPeakRssMb!)));
    const readFloorGap = measured.every((r) => r.readFloorPeakRssMb !== null)
      ? largestGap((r) => r.readFloorPeakRssMb)
      : null;
    const name = "host peak RSS, ours - floor (MB, largest of every N and operation)";
    out.push(
      atMost(
        name,
        largestGap((r) => r.oursPeakRssMb),
        "20",
        readFloorGap,
      ),
    );
  }
  const previewCalls = Math.max(...rows.filter((r) => r.op === "preview").map((r) => r.apiCalls));
  out.push({
    name: "API calls of preview (every N)",
    limit: "0",
    value: previewCalls,
    readFloorValue: null,
    met: previewCalls === 0,
  });
  if (mix === "account") {
    const perObject = Math.max(...rows.filter((r) => r.op === "refresh").map((r) => r.apiCallsPerObject));
    const name = "refresh API calls per distinct object (every N)";
    out.push({ name, limit: "1", value: round(perObject), readFloorValue: null, met: perObject === 1 });
  }
  // Ours at or below the hand-written anchor on every operation and size: wall time, and all CPU (steadier).
  const anchored = rows.flatMap((r) => (r.anchor ? [r.anchor] : []));
  const anchorCpus = anchored.map((a) => a.cpuRatio).filter((x): x is number => x !== null);
  out.push(atMost("`__provider` bytes per resource (largest)", providerBytes, String(PROVIDER_BYTES_LIMIT)), {
    name: "client req/s, ours/raw undici",
    limit: ">= 0.95",
    value: client.ratio,
    readFloorValue: null,
    met: client.ratio >= 0.95,
  });
  if (anchored.length)
    out.push(
      atMost(
        "ours/hand-written anchor, wall (largest of every N and operation)",
        Math.max(...anchored.map((a) => a.ratio)),
        "1.00",
      ),
    );
  if (anchorCpus.length)
    out.push(
      atMost("ours/hand-written anchor, all CPU (largest of every N and operation)", Math.max(...anchorCpus), "1.00"),
    );
  return out;
}

/**
 * A target met at or below `limit` (as the report prints it). `readFloorValue`: for a target that
 * holds ours against the no-op floor, the read floor's own value of the same measure (null elsewhere).
 */
const atMost = (name: string, value: number, limit: string, readFloorValue: number | null = null) => ({
  name,
  limit: `<= ${limit}`,
  value,
  readFloorValue,
  met: value <= Number(limit),
});

const MIX_TEXT: Record<Mix, string> = {
  cycle: "each kind in turn, one API object per resource",
  account:
    "shaped like an account: per 49 resources 4 VoD push zones x 8 AdBreakSlots, 10 StreamStatus, 2 TimeshiftStreams, " +
    "2 PushZoneSettings, 2 VodPullDomainLocks, 1 CampaignArchive; one HttpDomainLockBulk",
};

const mb = (x: number | null) => (x === null ? "n/a" : x.toFixed(0));
const num = (x: number | null | undefined) => (x === null || x === undefined ? "n/a" : x.toFixed(2));
const pair = (a: number | null | undefined, b: number | null | undefined) => `${num(a)} / ${num(b)}`;

/** A fixed cost's table: ours, the floor's and what ours adds (CPU ms, medians), then a blank line. */
function fixedCost(title: string, cost: HostStartResult, [ours, floor] = ["ours", "floor"]): string[] {
  return [
    `| ${title} | CPU ms, median |`,
    "|---|---:|",
    `| ${ours} | ${cost.oursMs.toFixed(1)} |`,
    `| ${floor} | ${cost.floorMs.toFixed(1)} |`,
    `| ours - floor | ${cost.extraMs.toFixed(1)} |`,
    "",
  ];
}

const cpuText = (c: CpuSplit | null) =>
  c ? `${c.engine.toFixed(2)} / ${c.host.toFixed(2)} / ${c.program.toFixed(2)}` : "n/a";

/**
 * The cost curve: per size, operation and side, wall time and CPU per resource (ms), so growth with
 * N shows side by side: ours, the plugin path, the read floor and the floor.
 */
function costCurve(results: OpRow[]): string[] {
  const ms = (seconds: number, n: number) => ((seconds / n) * 1000).toFixed(2);
  const cpu = (c: CpuSplit | null, n: number) =>
    c ? `${ms(c.engine, n)} / ${ms(c.host, n)} / ${ms(c.program, n)}` : "n/a";
  const line = (x: OpRow, side: string, seconds: number, c: CpuSplit | null) =>
    `| ${x.n} | ${x.op} | ${side} | ${ms(seconds, x.n)} | ${cpu(c, x.n)} |`;
  return [
    "The cost curve: per resource, milliseconds of wall time and of CPU (engine / provider host / program, median " +
      "runs; the host's start-up included, so small N carry more of it).",
    "",
    "| N | operation | side | wall ms / resource | CPU ms / resource, engine / host / program |",
    "|---:|---|---|---:|---:|",
    ...[...results]
      .sort((a, b) => OPS_ORDER.indexOf(a.op) - OPS_ORDER.indexOf(b.op) || a.n - b.n)
      .flatMap((x) => [
        line(x, "dynamic (ours)", x.oursSeconds, x.oursCpu),
        line(x, "plugin", x.plugin.seconds, x.plugin.cpu),
        line(x, "read floor", x.readFloorSeconds, x.readFloorCpu),
        line(x, "floor", x.floorSeconds, x.floorCpu),
      ]),
    "",
  ];
}
const OPS_ORDER = ["up", "preview", "refresh", "destroy"];

/** The markdown on stdout (and in docs/benchmarks.md). */
export function markdown(r: Report): string {
  const m = r.machine;
  const c = r.client;
  const engineEnv = Object.entries(r.engineEnv).map(([k, v]) => `${k}=${v}`);
  /** `text`, then a table of one row per result: N, the operation, then `columns` (cells joined by " | "). */
  const opTable = <T extends OpRow>(
    text: string,
    columns: string,
    row: (x: T) => string,
    results: T[] = r.results as T[],
  ) => [
    text,
    "",
    `| N | operation | ${columns} |`,
    `|---:|---|${"---:|".repeat(columns.split(" | ").length)}`,
    ...results.map((x) => `| ${x.n} | ${x.op} | ${row(x)} |`),
    "",
  ];
  const anchored = r.results.flatMap((x) => (x.anchor ? [{ ...x, anchor: x.anchor }] : []));
  const satOut = r.anchorUpTo !== null && r.sizes.some((n) => n > r.anchorUpTo!);
  const lines = [
    `Machine: ${m.cpus} × ${m.model}, ${m.memoryGb} GB, ${m.platform}; Node ${m.node}; Pulumi ${m.pulumi} ` +
      `(default parallelism ${m.pulumiParallel ?? "?"}, both sides); load average ${m.loadAverage.join(" / ")} at start, ` +
      `${r.loadAverageAtEnd.join(" / ")} at end (1 / 5 / 15 min); ${r.startedAt.slice(0, 16).replace("T", " ")} UTC.`,
    "",
    ...(engineEnv.length ? [`Engine environment of both sides: ${engineEnv.join(" ")}.`, ""] : []),
    `Stacks: the ${r.mix} mix (${MIX_TEXT[r.mix]}).`,
    "",
    ...opTable(
      `Wall times, medians of ${r.repeat} cycles of up, preview, refresh and destroy per side, sides alternating (ABBA).`,
      "ours (s) | floor (s) | ours / floor | API calls | provider host peak RSS, ours / floor (MB) | read floor (s) | ours / read floor",
      (x) =>
        `${x.oursSeconds.toFixed(2)} | ${x.floorSeconds.toFixed(2)} | ${x.ratio.toFixed(2)} | ${x.apiCalls} | ${mb(x.oursPeakRssMb)} / ${mb(x.floorPeakRssMb)} | ` +
        `${x.readFloorSeconds.toFixed(2)} | ${x.readFloorRatio.toFixed(2)}`,
    ),
    ...opTable(
      "Both paths, same run: the dynamic provider (ours, above) and the provider plugin (each resource given a " +
        "cdnstream `Provider`, the path of other languages, `pulumi import` and several accounts), against the floor.",
      "dynamic (s) | plugin (s) | floor (s) | dynamic / floor | plugin / floor | plugin / dynamic | API calls, dynamic / plugin | provider host peak RSS, dynamic / plugin (MB) | plugin / read floor",
      (x) =>
        `${x.oursSeconds.toFixed(2)} | ${x.plugin.seconds.toFixed(2)} | ${x.floorSeconds.toFixed(2)} | ` +
        `${x.ratio.toFixed(2)} | ${x.plugin.ratio.toFixed(2)} | ${x.plugin.oursRatio.toFixed(2)} | ${x.apiCalls} / ${x.plugin.apiCalls} | ` +
        `${mb(x.oursPeakRssMb)} / ${mb(x.plugin.peakRssMb)} | ${x.plugin.readFloorRatio.toFixed(2)}`,
    ),
    ...opTable(
      "The read floor, same run: a dynamic provider as thin as the floor's that sends the requests ours sends (the " +
        "client's operation declarations, its headers and connection settings, undici directly; checked request by " +
        "request against ours on the first cycle), parses each answer with `JSON.parse` and returns what it read: no " +
        "validation, no client, no retries (scripts/bench/read-floor-provider.ts), against an emulator of its own.",
      "read floor (s) | dynamic / read floor | plugin / read floor | all CPU, dynamic / read floor | all CPU, plugin / read floor | " +
        "CPU s, read floor, engine / host / program | host CPU ms / resource, dynamic / read floor | API calls, dynamic / read floor",
      (x) =>
        `${x.readFloorSeconds.toFixed(2)} | ${x.readFloorRatio.toFixed(2)} | ${x.plugin.readFloorRatio.toFixed(2)} | ` +
        `${num(x.readFloorCpuRatio)} | ${num(x.plugin.readFloorCpuRatio)} | ${cpuText(x.readFloorCpu)} | ` +
        `${pair(x.hostCpuMsPerResource.ours, x.hostCpuMsPerResource.readFloor)} | ${x.apiCalls} / ${x.readFloorApiCalls}`,
    ),
    ...costCurve(r.results),
    ...opTable(
      "Where the CPU goes, seconds, ours / floor: the engine (the `pulumi` CLI, its state writes included), the " +
        "dynamic-provider host, the program (the bench process, which hosts the language runtime); and the emulator " +
        "serving ours, on the same cores (sampled every 100 ms, so slightly under).",
      "engine | provider host | program | emulator | all CPU, ours / floor",
      (x) =>
        `${pair(x.oursCpu?.engine, x.floorCpu?.engine)} | ${pair(x.oursCpu?.host, x.floorCpu?.host)} | ` +
        `${pair(x.oursCpu?.program, x.floorCpu?.program)} | ${num(x.emulatorCpuSeconds)} | ${num(x.cpuRatio)}`,
    ),
    ...opTable(
      "Per resource and operation: provider-host CPU (ms; the host's start-up included), state bytes (what the operation " +
        "wrote, or for preview and destroy worked from), and API calls against the distinct API objects the stack manages.",
      "host CPU ms / resource, ours / floor | state bytes / resource, ours / floor | API calls / objects",
      (x) =>
        `${pair(x.hostCpuMsPerResource.ours, x.hostCpuMsPerResource.floor)} | ` +
        `${x.stateBytesPerResource.ours} / ${x.stateBytesPerResource.floor} | ${x.apiCalls} / ${x.distinctObjects} = ${x.apiCallsPerObject.toFixed(2)}`,
    ),
    ...opTable(
      "The hand-written anchor: a dynamic provider in the style of Pulumi's documentation (one object literal serialized " +
        "by the closure serializer, `fetch` inside, no validation, scripts/bench/anchor.ts) making the same API calls on the " +
        "same stacks, in the same run, against an emulator of its own. Below 1, ours is cheaper." +
        (satOut ? ` It sat out the sizes above ${r.anchorUpTo} (\`--anchor-up-to\`).` : ""),
      "ours / anchor (s) | ours / anchor | all CPU, ours / anchor | host CPU ms / resource, ours / anchor | " +
        "state bytes / resource, ours / anchor | API calls, ours / anchor | host peak RSS, ours / anchor (MB)",
      (x) =>
        `${x.oursSeconds.toFixed(2)} / ${x.anchor.seconds.toFixed(2)} | ${x.anchor.ratio.toFixed(2)} | ` +
        `${num(x.anchor.cpuRatio)} | ${pair(x.hostCpuMsPerResource.ours, x.anchor.hostCpuMsPerResource)} | ` +
        `${x.stateBytesPerResource.ours} / ${x.anchor.stateBytesPerResource} | ${x.apiCalls} / ${x.anchor.apiCalls} | ` +
        `${mb(x.oursPeakRssMb)} / ${mb(x.anchor.peakRssMb)}`,
      anchored,
    ),
    "| per resource | ours | floor | anchor | read floor |",
    "|---|---:|---:|---:|---:|",
    ...r.bytesBySize.flatMap((b) => [
      `| \`__provider\` bytes, N=${b.n} (mean / largest) | ${b.ours.provider.mean} / ${b.ours.provider.max} | ${b.floor.provider.mean} / ${b.floor.provider.max} | ` +
        `${b.anchor ? `${b.anchor.provider.mean} / ${b.anchor.provider.max}` : "sat out"} | ${b.readFloor.provider.mean} / ${b.readFloor.provider.max} |`,
      `| state bytes, N=${b.n} (mean) | ${b.ours.state} | ${b.floor.state} | ${b.anchor?.state ?? "sat out"} | ${b.readFloor.state} |`,
    ]),
    "",
    ...fixedCost(
      `a provider host's first call (a StreamStatus check, module loading included), ${r.hostStart.runs} fresh hosts per side`,
      r.hostStart,
    ),
    ...fixedCost(
      `a refresh host's first call (a StreamStatus read, module loading included), ${r.hostRead.runs} fresh hosts per side`,
      r.hostRead,
    ),
    ...fixedCost(
      `a program's import of the package, after \`@pulumi/pulumi\` (every \`up\` and \`preview\` starts a program), ${r.programImport.runs} fresh programs per side`,
      r.programImport,
      ["ours (`pulumi-cdnstream`)", "floor (its provider's package)"],
    ),
    `| client, ${c.path}, ${c.concurrency} in flight, ${c.runs.raw.length} runs of ${c.secondsPerRun} s each | value |`,
    "|---|---:|",
    `| raw undici \`request()\` | ${c.rawRps} req/s |`,
    `| \`CdnstreamClient\` | ${c.oursRps} req/s (${c.ratio.toFixed(2)} of raw) |`,
    `| client-process CPU per call, raw / ours | ${c.cpuPerCallUs.raw} / ${c.cpuPerCallUs.ours} µs |`,
    `| \`getHttpPullZones()\`, ${c.allPages.items} zones, all pages | ${c.allPages.coldSeconds.toFixed(2)} s first call, ${c.allPages.warmSeconds.toFixed(2)} s warm, ${c.allPages.requests} requests |`,
    "",
    "The read floor's own value, beside each target that holds ours against the no-op floor, is what a provider sending ours's requests and nothing else measured in the same run: a limit below it is met by no such provider.",
    "",
    "| target | limit | value | read floor's own | met |",
    "|---|---|---:|---:|---|",
    ...r.targets.map(
      (t) => `| ${t.name} | ${t.limit} | ${t.value} | ${t.readFloorValue ?? ""} | ${t.met ? "yes" : "**no**"} |`,
    ),
  ];
  return lines.join("\n");
}
