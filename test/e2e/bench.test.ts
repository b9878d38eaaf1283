/**
 * `npm run bench` kept working: the bench code run at N=5 (no warm-up, two cycles of every
 * operation, short client runs) and its account-shaped mix at N=12, its JSON report's shape, and
 * the two targets that do not depend on the machine: a preview makes zero API calls and each
 * resource's `__provider` is the one-line module of kinds/resource.ts (at most 100 bytes). Timing
 * targets are not asserted here: at small N fixed start-up costs dominate, and the machine is shared.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { main } from "../../scripts/bench/index";
import { PROVIDER_BYTES_LIMIT, targets } from "../../scripts/bench/report";
import { expectedCliVersion, repoRoot } from "../helpers/engine";

describe("the report's targets against the read floor and across sizes", () => {
  // Rows as the bench writes them, with only what the targets read (the smoke runs below are too small to judge them).
  const row = (n: number, op: string, readFloorRatio: number, pluginRatio: number, hostMs: number) => ({
    n,
    op,
    ratio: 1,
    readFloorRatio,
    plugin: { readFloorRatio: pluginRatio },
    hostCpuMsPerResource: { ours: hostMs, floor: 1, readFloor: 1 },
    floorSeconds: 1,
    readFloorSeconds: 1,
    oursPeakRssMb: null,
    floorPeakRssMb: null,
    readFloorPeakRssMb: null,
    apiCalls: op === "preview" ? 0 : n,
    apiCallsPerObject: 1,
    anchor: null,
  });
  const client = { ratio: 1 } as any;

  it("judges ours and the plugin against the read floor at N=500, and host CPU per resource at N=2000 against N=500", () => {
    const rows = [
      row(500, "up", 1.1, 0.99, 2),
      row(500, "refresh", 1.11, 1.01, 2),
      row(2000, "up", 1.2, 1, 2.2),
      row(2000, "refresh", 1.2, 1, 2.21),
    ];
    const judged = Object.fromEntries(targets(rows as any, 84, client, "cycle").map((t) => [t.name, [t.value, t.met]]));
    expect(judged).toMatchObject({
      "up ours/read floor at N=500": [1.1, true],
      "refresh ours/read floor at N=500": [1.11, false],
      "up plugin/read floor at N=500": [0.99, true],
      "refresh plugin/read floor at N=500": [1.01, false],
      "up host CPU per resource, ours at N=2000 / N=500": [1.1, true],
      "refresh host CPU per resource, ours at N=2000 / N=500": [1.105, false],
    });
    // No N=2000 row at N=500 only, and no anchor target when the anchor sat every size out.
    const names = targets(rows.slice(0, 2) as any, 84, client, "cycle").map((t) => t.name);
    expect(names.filter((n) => /N=2000|anchor/.test(n))).toEqual([]);
  });

  it("sets the read floor's own value beside each target against the no-op floor, and only there", () => {
    const refresh = {
      ...row(500, "refresh", 1.05, 0.9, 2.5),
      ratio: 1.3,
      floorSeconds: 1.5,
      readFloorSeconds: 1.8,
      hostCpuMsPerResource: { ours: 2.5, floor: 1.6, readFloor: 2.1 },
      oursPeakRssMb: 170,
      floorPeakRssMb: 150,
      readFloorPeakRssMb: 176,
    };
    const small = { ...row(50, "preview", 1, 0.8, 12), ratio: 1.12, floorSeconds: 0.9, readFloorSeconds: 0.95 };
    const judged = Object.fromEntries(
      targets([refresh, small] as any, 84, client, "cycle").map((t) => [t.name, [t.value, t.readFloorValue, t.met]]),
    );
    expect(judged).toMatchObject({
      "refresh ours/floor at N=500": [1.3, 1.2, false],
      "preview ours/floor at N=50": [1.12, 1.056, false],
      "refresh host CPU per resource, ours/floor at N=500": [1.563, 1.313, false],
      "host peak RSS, ours - floor (MB, largest of every N and operation)": [20, 26, true],
      "refresh ours/read floor at N=500": [1.05, null, true],
      "API calls of preview (every N)": [0, null, true],
      "client req/s, ours/raw undici": [1, null, true],
    });
  });
});

describe("npm run bench, smoke run at N=5", () => {
  const file = path.join(repoRoot, ".tmp", `bench-smoke-${process.pid}.json`);
  let stdout = "";
  let stderr = "";
  let report: any;

  beforeAll(async () => {
    const io = { stdout: (t: string) => void (stdout += t), stderr: (t: string) => void (stderr += t) };
    const code = await main(
      ["--sizes", "5", "--json", file, "--repeat", "2", "--client-seconds", "0.5", "--host-starts", "2", "--no-warmup"],
      io,
    );
    if (code !== 0) throw new Error(`the bench exited ${code}:\n${stderr}`);
    report = JSON.parse(fs.readFileSync(file, "utf8"));
    // Five sides, two cycles each: on a busy shared machine this takes longer than a test's default.
  }, 900_000);
  afterAll(() => fs.rmSync(file, { force: true }));

  it("writes the machine it ran on", () => {
    expect(report.machine).toEqual({
      cpus: expect.any(Number),
      model: expect.any(String),
      memoryGb: expect.any(Number),
      platform: expect.any(String),
      node: process.version,
      pulumi: expectedCliVersion(),
      pulumiParallel: expect.any(Number),
      loadAverage: [expect.any(Number), expect.any(Number), expect.any(Number)],
    });
    expect(report.machine.cpus).toBeGreaterThan(0);
  });

  it("times every operation of ours and of the floor, with the API calls of ours", () => {
    expect(report.results.map((r: any) => [r.n, r.op])).toEqual([
      [5, "up"],
      [5, "preview"],
      [5, "refresh"],
      [5, "destroy"],
    ]);
    for (const r of report.results) {
      expect(r.oursSeconds).toBeGreaterThan(0);
      expect(r.floorSeconds).toBeGreaterThan(0);
      // Two cycles: every operation ran twice per side, and the median of two is their mean.
      expect(r.oursRuns).toHaveLength(2);
      expect(r.floorRuns).toHaveLength(2);
      expect(r.oursSeconds).toBeCloseTo((r.oursRuns[0] + r.oursRuns[1]) / 2, 2);
      // On Linux the dynamic-provider host is found below the bench process and measured.
      expect(r.oursPeakRssMb).toBeGreaterThan(0);
      expect(r.floorCpu.host).toBeGreaterThan(0);
      expect(r.oursCpu.engine).toBeGreaterThan(0);
      expect(r.ratio).toBeCloseTo(r.oursSeconds / r.floorSeconds, 1);
      const all = (c: any) => c.engine + c.host + c.program;
      expect(r.cpuRatio).toBeCloseTo(all(r.oursCpu) / all(r.floorCpu), 2);
      expect(r.apiCalls).toBe(Object.values(r.apiCallsByOperation).reduce((a: number, b: any) => a + b, 0));
    }
    const calls = Object.fromEntries(report.results.map((r: any) => [r.op, r.apiCalls]));
    // N=5 declares StreamStatus, TimeshiftStream, PushZoneSettings, VodPullDomainLock, AdBreakSlot:
    // one write each on up, one read each on refresh, and only the timeshift stream is disabled on destroy.
    expect(calls).toEqual({ up: 5, preview: 0, refresh: 5, destroy: 1 });
  });

  it("times the same stack through the provider plugin, same run, with its host measured and the same API calls", () => {
    for (const r of report.results) {
      expect(r.plugin.runs).toHaveLength(2);
      expect(r.plugin.seconds).toBeGreaterThan(0);
      expect(r.plugin.ratio).toBeCloseTo(r.plugin.seconds / r.floorSeconds, 1);
      expect(r.plugin.oursRatio).toBeCloseTo(r.plugin.seconds / r.oursSeconds, 1);
      // The plugin's process is found below the bench, as the dynamic host is.
      expect(r.plugin.peakRssMb).toBeGreaterThan(0);
      // The same handlers: the same requests for the same stack.
      expect([r.op, r.plugin.apiCalls]).toEqual([r.op, r.apiCalls]);
    }
    expect(stdout).toMatch(/\| 5 \| refresh \| [\d.]+ \| [\d.]+ \| [\d.]+ \|/);
  });

  it("times the read floor on the same stack, same run, which sent exactly the requests ours sent", () => {
    for (const r of report.results) {
      expect(r.readFloorRuns).toHaveLength(2);
      expect(r.readFloorSeconds).toBeGreaterThan(0);
      expect(r.readFloorRatio).toBeCloseTo(r.oursSeconds / r.readFloorSeconds, 1);
      expect(r.plugin.readFloorRatio).toBeCloseTo(r.plugin.seconds / r.readFloorSeconds, 1);
      expect(r.readFloorCpu.host).toBeGreaterThan(0);
      expect(r.readFloorPeakRssMb).toBeGreaterThan(0);
      expect(r.hostCpuMsPerResource.readFloor).toBeCloseTo((r.readFloorCpu.host / 5) * 1000, 0);
      expect(r.stateBytesPerResource.readFloor).toBeGreaterThan(0);
      // The emulators' request logs of the first cycle: the same requests (method, path, query,
      // body), as many as ours made, on each side's emulator.
      expect(r.readFloorApiCalls).toBe(r.apiCalls);
      expect(r.firstCycleRequests.count).toBe(r.apiCalls);
      expect(r.firstCycleRequests.readFloor).toBe(r.firstCycleRequests.ours);
    }
    const byOp = Object.fromEntries(report.results.map((r: any) => [r.op, r]));
    // Writes and reads differ, so the digests do tell requests apart.
    expect(byOp.up.firstCycleRequests.ours).not.toBe(byOp.refresh.firstCycleRequests.ours);
    expect(stdout).toContain("| N | operation | read floor (s) | dynamic / read floor | plugin / read floor |");
    expect(stdout).toMatch(/\| 5 \| refresh \| read floor \| [\d.]+ \| [\d.]+ \/ [\d.]+ \/ [\d.]+ \|/);
    // The N=500 and N=2000 targets are left out at N=5.
    expect(report.targets.map((t: any) => t.name).filter((n: string) => /read floor|N=2000/.test(n))).toEqual([]);
  });

  it("times the hand-written anchor on the same stack, same run, and sets the targets against it", () => {
    for (const r of report.results) {
      expect(r.anchor.runs).toHaveLength(2);
      expect(r.anchor.seconds).toBeGreaterThan(0);
      expect(r.anchor.ratio).toBeCloseTo(r.oursSeconds / r.anchor.seconds, 1);
      expect(r.anchor.peakRssMb).toBeGreaterThan(0);
    }
    const calls = Object.fromEntries(report.results.map((r: any) => [r.op, r.anchor.apiCalls]));
    // One write per resource on up, one read per resource on refresh, none on preview.
    expect(calls).toMatchObject({ up: expect.any(Number), preview: 0 });
    expect(calls.up).toBeGreaterThanOrEqual(5);
    expect(calls.refresh).toBeGreaterThanOrEqual(5);
    expect(report.targets.map((t: any) => t.name)).toContain(
      "ours/hand-written anchor, wall (largest of every N and operation)",
    );
    expect(stdout).toMatch(/The hand-written anchor/);
  });

  it("reports per operation the host CPU and the state bytes per resource of both sides, and calls per object", () => {
    expect(report.mix).toBe("cycle");
    for (const r of report.results) {
      expect(r.mix).toBe("cycle");
      expect(r.hostCpuMsPerResource).toEqual({
        ours: expect.any(Number),
        floor: expect.any(Number),
        readFloor: expect.any(Number),
      });
      expect(r.hostCpuMsPerResource.floor).toBeGreaterThan(0);
      // The host's CPU over N, in milliseconds.
      expect(r.hostCpuMsPerResource.ours).toBeCloseTo((r.oursCpu.host / 5) * 1000, 0);
      expect(r.stateBytesPerResource).toEqual({
        ours: expect.any(Number),
        floor: expect.any(Number),
        readFloor: expect.any(Number),
      });
      expect(r.stateBytesPerResource.floor).toBeGreaterThan(0);
      // Each of the cycle mix's resources has an object of its own.
      expect(r.distinctObjects).toBe(5);
      expect(r.apiCallsPerObject).toBeCloseTo(r.apiCalls / 5, 2);
    }
    const byOp = Object.fromEntries(report.results.map((r: any) => [r.op, r]));
    // Preview works from the state up wrote, destroy from the one refresh wrote.
    expect(byOp.preview.stateBytesPerResource).toEqual(byOp.up.stateBytesPerResource);
    expect(byOp.destroy.stateBytesPerResource).toEqual(byOp.refresh.stateBytesPerResource);
    expect(byOp.up.stateBytesPerResource).toEqual(report.stateBytesPerResource);
    expect(stdout).toContain(
      "| N | operation | host CPU ms / resource, ours / floor | state bytes / resource, ours / floor | API calls / objects |",
    );
  });

  it("keeps __provider the one-line module (at most 100 bytes) and reports state bytes of both sides", () => {
    expect(PROVIDER_BYTES_LIMIT).toBe(100);
    expect(report.providerBytesPerResource).toBeGreaterThan(0);
    expect(report.providerBytesPerResource).toBeLessThanOrEqual(PROVIDER_BYTES_LIMIT);
    // Stored in inputs and outputs alike; the floor's serialized closure is over 250 bytes.
    expect(report.bytesBySize[0].floor.provider.max).toBeGreaterThan(250);
    expect(report.stateBytesPerResource).toEqual({
      ours: expect.any(Number),
      floor: expect.any(Number),
      readFloor: expect.any(Number),
    });
    expect(report.stateBytesPerResource.floor).toBeGreaterThan(0);
    expect(report.stateBytesPerResource.ours).toBeGreaterThan(report.providerBytesPerResource);
  });

  it("compares the client with raw undici and fetches 1,000 pull zones through every page", () => {
    const { client } = report;
    expect(client.oursRps).toBeGreaterThan(0);
    expect(client.rawRps).toBeGreaterThan(0);
    expect(client.ratio).toBeCloseTo(client.oursRps / client.rawRps, 2);
    // 20 zones a page: 50 full pages, and §4.10 gives no count, so an empty page 51 ends it.
    expect(client.allPages).toMatchObject({ items: 1000, requests: 51 });
  });

  // Ours loads its handler, the client, undici (and for a check zod) on a host's first call, and
  // the resource classes and their identities on a program's import; the floor loads one small file.
  it.each([
    {
      key: "hostStart",
      what: "a fresh provider host's first call",
      row: "| a provider host's first call (a StreamStatus check, module loading included), 2 fresh hosts per side |",
    },
    {
      key: "hostRead",
      what: "a fresh refresh host's first read",
      row: "| a refresh host's first call (a StreamStatus read, module loading included), 2 fresh hosts per side |",
    },
    {
      key: "programImport",
      what: "a fresh program's import of the package",
      row: "| a program's import of the package, after `@pulumi/pulumi` (every `up` and `preview` starts a program), 2 fresh programs per side |",
    },
  ] as const)("measures $what against the floor's", ({ key, row }) => {
    const measured = report[key];
    expect(measured).toEqual({
      runs: 2,
      oursMs: expect.any(Number),
      floorMs: expect.any(Number),
      extraMs: expect.any(Number),
    });
    expect(measured.floorMs).toBeGreaterThan(0);
    expect(measured.oursMs).toBeGreaterThan(measured.floorMs);
    expect(measured.extraMs).toBeCloseTo(measured.oursMs - measured.floorMs, 0);
    expect(stdout).toContain(row);
  });

  it("holds the run to the targets it can judge: no N=50 or N=500 rows at N=5, the host's CPU and memory against the floor's", () => {
    const names = report.targets.map((t: any) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "refresh host CPU per resource, ours/floor at N=5",
        "host peak RSS, ours - floor (MB, largest of every N and operation)",
        "client req/s, ours/raw undici",
      ]),
    );
    expect(names.filter((n: string) => /at N=(50|500)$/.test(n))).toEqual([]);
    const refresh = report.results.find((r: any) => r.op === "refresh");
    const cpu = report.targets.find((t: any) => t.name.startsWith("refresh host CPU"));
    expect(cpu.value).toBeCloseTo(refresh.hostCpuMsPerResource.ours / refresh.hostCpuMsPerResource.floor, 2);
    expect(cpu.met).toBe(cpu.value <= 1.3);
    const { readFloor, floor } = refresh.hostCpuMsPerResource;
    expect(cpu.readFloorValue).toBeCloseTo(readFloor / floor, 2);
  });

  it("prints the markdown table and the targets on stdout, progress on stderr", () => {
    expect(stdout).toContain("| N | operation | ours (s) | floor (s) | ours / floor | API calls |");
    expect(stdout).toMatch(/\| API calls of preview \(every N\) \| 0 \| 0 \| {2}\| yes \|/);
    expect(stdout).toContain("| target | limit | value | read floor's own | met |");
    expect(stdout).not.toContain("bench:");
    expect(stderr).toMatch(/bench: n=5 up /);
  });
});

describe("npm run bench --mix account, smoke run at N=12", () => {
  let report: any;
  let stdout = "";
  const engineProfiles = fs.mkdtempSync(path.join(os.tmpdir(), "bench-engine-profiles-"));
  afterAll(() => fs.rmSync(engineProfiles, { recursive: true, force: true }));

  beforeAll(async () => {
    const file = path.join(repoRoot, ".tmp", `bench-smoke-account-${process.pid}.json`);
    let stderr = "";
    const io = { stdout: (t: string) => void (stdout += t), stderr: (t: string) => void (stderr += t) };
    try {
      const args = [
        "--mix",
        "account",
        "--sizes",
        "12",
        "--json",
        file,
        "--repeat",
        "1",
        "--client-seconds",
        "0.2",
        "--host-starts",
        "1",
        "--no-warmup",
        "--profile-engine",
        engineProfiles,
      ];
      const code = await main(args, io);
      if (code !== 0) throw new Error(`the bench exited ${code}:\n${stderr}`);
      report = JSON.parse(fs.readFileSync(file, "utf8"));
    } finally {
      fs.rmSync(file, { force: true });
    }
  }, 900_000);

  it("declares zones shared by several AdBreakSlots and reports calls against the distinct objects", () => {
    expect(report.mix).toBe("account");
    expect(stdout).toContain("Stacks: the account mix");
    // N=12: eight AdBreakSlots on one zone, the account's HttpDomainLockBulk, three StreamStatus.
    for (const r of report.results) {
      expect(r.n).toBe(12);
      expect(r.distinctObjects).toBe(5);
      expect(r.apiCallsPerObject).toBeCloseTo(r.apiCalls / 5, 2);
      expect(r.hostCpuMsPerResource.ours).toBeGreaterThan(0);
      expect(r.stateBytesPerResource.ours).toBeGreaterThan(0);
    }
    const byOp = Object.fromEntries(report.results.map((r: any) => [r.op, r]));
    expect(byOp.preview.apiCalls).toBe(0);
    // Every slot is written (§4.2 has one call per slot) and the zone's roster read at least once on refresh.
    expect(byOp.up.apiCallsByOperation["POST /v2/zones/vod/push/{zoneid}/adinsertion/schedule"]).toBe(8);
    expect(byOp.refresh.apiCalls).toBeGreaterThanOrEqual(5);
    // The read floor reads each object once too: the same requests as ours, the roster's one read included.
    for (const r of report.results) {
      expect(r.readFloorApiCalls).toBe(r.apiCalls);
      expect(r.firstCycleRequests.readFloor).toBe(r.firstCycleRequests.ours);
    }
    expect(report.providerBytesPerResource).toBeLessThanOrEqual(PROVIDER_BYTES_LIMIT);
    // A refresh reads each object once: the zone's roster serves its eight slots.
    expect(report.targets).toContainEqual({
      name: "refresh API calls per distinct object (every N)",
      limit: "1",
      value: 1,
      readFloorValue: null,
      met: true,
    });
  });

  it("writes the engine's own CPU profile of each operation of every side with --profile-engine, and only those", () => {
    const files = fs.readdirSync(engineProfiles);
    for (const side of ["ours", "floor", "readFloor", "plugin", "anchor"])
      for (const op of ["up", "preview", "refresh", "destroy"]) {
        const cpu = files.filter((f) => new RegExp(`^bench-${side}-n12-${op}\\.\\d+\\.cpu$`).test(f));
        expect([side, op, cpu.length]).toEqual([side, op, 1]);
        // A pprof profile is gzipped protobuf.
        expect(fs.readFileSync(path.join(engineProfiles, cpu[0])).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
      }
    // One run of each operation per side (--repeat 1), and no profile of the CLI's other commands.
    expect(files.filter((f) => f.endsWith(".cpu"))).toHaveLength(20);
    expect(stdout).toContain(`CDNSTREAM_BENCH_ENGINE_PROFILE_DIR=${engineProfiles}`);
  });
});

describe("npm run bench --drift-fleet, smoke run at 2 stacks of 1 resource", () => {
  let report: any;
  let stdout = "";
  let stderr = "";

  beforeAll(async () => {
    const file = path.join(repoRoot, ".tmp", `bench-smoke-drift-fleet-${process.pid}.json`);
    const io = { stdout: (t: string) => void (stdout += t), stderr: (t: string) => void (stderr += t) };
    try {
      const code = await main(["--drift-fleet", "2x1", "--drift-concurrency", "1,2", "--json", file], io);
      if (code !== 0) throw new Error(`the bench exited ${code}:\n${stderr}`);
      report = JSON.parse(fs.readFileSync(file, "utf8"));
    } finally {
      fs.rmSync(file, { force: true });
    }
  });

  it("measures one drift run per concurrency over the fleet, which found the stack drifted out of band", () => {
    expect(report.driftFleet.sizes).toEqual([{ stacks: 2, resources: 1 }]);
    expect(report.driftFleet.rows.map((r: any) => r.concurrency)).toEqual([1, 2]);
    for (const r of report.driftFleet.rows) {
      expect(r).toMatchObject({ stacks: 2, resourcesPerStack: 1, driftedStacks: 1 });
      expect(r.wallSeconds).toBeGreaterThan(0);
      expect(r.cpuSeconds).toBeGreaterThan(0);
      expect(r.peakMemoryMb).toBeGreaterThan(0);
      // A refreshing preview reads each of the two streams once.
      expect(r.apiCalls).toBe(2);
    }
    expect(stdout).toContain("| stacks x resources | concurrency | wall (s) |");
    expect(stdout).toMatch(/\| 2 x 1 \| 2 \| [\d.]+ \|/);
    // Only the drift section: the default sections did not run.
    expect(report.results).toBeUndefined();
    expect(stderr).not.toMatch(/bench: n=\d+ up /);
  });
});
