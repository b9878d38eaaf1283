/**
 * Data sources in a real Pulumi program, through the real CLI against the emulator: a program
 * exports results of every data source (Promise and Output forms mixed) as stack outputs, with
 * the key taken from secret stack config; nothing of it reaches outputs or state. And a plain
 * Node program that calls a data source exits at once: the client's connections do not hold it.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { createTestStack, TestStack } from "../helpers/engine";
import { startTestEmulator, TestEmulator } from "../helpers/emulator";
import { installedPackageDir, loadSdk } from "../helpers/package";

const cdn = loadSdk();

describe("data sources in a Pulumi program", () => {
  let emulator: TestEmulator;
  let test: TestStack;

  const program = async () => {
    const dns = cdn.getDnsZones(); // Promise forms and Output forms, mixed as programs do
    const projects = cdn.getAdManagerProjects();
    const pull = cdn.getHttpPullZonesOutput();
    const purge = cdn.getPurgeOperationOutput({ zoneId: 101, purgeId: "pg-8b41d0e5" });
    // An Input that is a Promise of another data source's result.
    const targeting = cdn.getCampaignTargetingOutput({ projectId: projects.then((p) => p.projects[0]!.id), campaignId: "cmp_7Hq2xK9d" });
    const tracking = cdn.getAdTrackingReport({ streamId: 3001, r: "2025-01-06 00:00:00 - 2025-01-06 12:00:00", granularity: 60 });
    const consumption = cdn.getAdConsumptionOutput({ streamId: 4001, groupBy: "day", r: "2025-01-01 00:00:00 - 2025-01-03 00:00:00" });
    return {
      domains: dns.then((r) => r.domains.map((d) => d.domain)),
      firstDnsZone: dns.then((r) => r.domains[0]),
      backupName: cdn.getCriticalBackupOutput({ backupId: 61 }).name,
      backupIds: cdn.getCriticalBackups().then((r) => r.backups.map((b) => b.id)),
      pullZoneIds: pull.zones.apply((zones) => zones.map((z) => z.id)),
      pullZonePage3: cdn.getHttpPullZones({ page: 3 }).then((r) => ({ count: r.zones.length, lastPage: r.lastPage })),
      purge: purge.apply((p) => ({ pending: p.pending, logCounts: p.logCounts, historyView: p.historyView })),
      projectsLimit: projects.then((p) => p.projectsLimit),
      includeTags: targeting.includeTags,
      trackingBuckets: tracking.then((r) => r.data?.length),
      consumptionDays: consumption.apply((c) => c.adInsertionsChart?.map((p) => p.key)),
      adBreakCount: cdn.getAdBreaksOutput({ zoneId: 401 }).items.apply((items) => items.length),
      podRequestCount: cdn.getAdPodRequests({ projectId: 1 }).then((r) => r.items.length),
      creativeTitle: cdn.getAdCreativeOutput({ zoneId: 301, crid: "cr-10452" }).adTitle,
    };
  };

  beforeAll(async () => {
    emulator = await startTestEmulator();
    test = await createTestStack({ program, config: emulator.stackConfig() }); // key as secret stack config
  });
  afterAll(async () => {
    await test?.cleanup();
    await emulator?.close();
  });

  it("exports every data source's result as stack outputs, reading each once", async () => {
    await emulator.clearRequests();
    const up = await test.stack.up();
    const out = Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, v.value]));
    expect(out.domains).toEqual(["northwind.example", expect.any(String), expect.any(String)]);
    expect(out.firstDnsZone).toMatchObject({ id: 8801, serviceId: 418223, preferredType: "All", dnssec: { dsRecords: [{ keyTag: 2371 }] } });
    expect(out.backupName).toBe("assets nightly");
    expect(out.backupIds).toEqual([61, 62]);
    expect(out.pullZoneIds).toHaveLength(47);
    expect(up.outputs.pullZoneIds!.secret).toBe(true); // pull zones carry credentials
    expect(out.pullZonePage3).toEqual({ count: 7, lastPage: true });
    expect(out.purge).toEqual({ pending: true, logCounts: { total: 5, completed: 2, pending: 3 }, historyView: { totalServer: 4, cachePending: 2 } });
    expect(out.projectsLimit).toBe(5);
    expect(out.includeTags).toEqual(["outdoor", "sports"]);
    expect(out.trackingBuckets).toBe(12);
    expect(out.consumptionDays).toEqual(["2025-01-01", "2025-01-02"]);
    expect(out.adBreakCount).toBe(45);
    expect(out.podRequestCount).toBe(45);
    expect(out.creativeTitle).toBe("Spring hiking boots 30s");
    expect(up.stdout).not.toMatch(/is a secret/);

    expect(await emulator.requestCounts()).toEqual({
      "GET /v2/dns": 1,
      "GET /v2/ad-manager": 1,
      "GET /v2/zones/http/pull": 4, // all pages: 3; page 3: 1
      "GET /v2/zones/http/push/{zoneid}/purge/{purgeId}": 1,
      "GET /v2/ad-manager/{pid}/campaigns/{cid}/targeting": 1,
      "GET /v2/streams/push/{streamid}/adinsertion/tracking/reports": 1,
      "POST /v2/streams/pull/{streamid}/adinsertion/consumption": 1,
      "GET /v2/cb/{backupid}": 1,
      "GET /v2/cb": 1,
      "GET /v2/zones/vod/pull/{zoneid}/adinsertion/ad-breaks": 3,
      "POST /v2/ad-manager/{pid}/requests": 3,
      "GET /v2/zones/vod/push/{zoneid}/adinsertion/creatives/{crid}": 1,
    });
  });

  it("keeps the key out of every output and the state, even with secrets shown", async () => {
    const outputs = await test.stack.outputs();
    expect(JSON.stringify(outputs)).not.toContain(emulator.apiKey);
    const state = await test.stack.exportStack(); // `--show-secrets`
    expect(JSON.stringify(state)).not.toContain(emulator.apiKey);
    expect(JSON.stringify(state)).toContain("assets nightly"); // the outputs are in it, in plain text
  });
});

describe("a plain Node program calling data sources", () => {
  it("exits as soon as its work is done, though idle keep-alive connections are open", async () => {
    const emulator = await startTestEmulator();
    try {
      const script = `require(${JSON.stringify(installedPackageDir)}).getDnsZones().then((r) => console.log(r.domains.length));`;
      const started = Date.now();
      // Asynchronous: the emulator serves from this process, so it must keep running meanwhile.
      const run = await promisify(execFile)(process.execPath, ["-e", script], {
        encoding: "utf8",
        timeout: 60_000,
        env: { ...process.env, CDNSTREAM_BASE_URL: emulator.url, CDNSTREAM_API_KEY: emulator.apiKey, CDNSTREAM_KEEP_ALIVE_TIMEOUT_MS: "120000" },
      });
      const seconds = (Date.now() - started) / 1000;
      expect(run.stderr).toBe(""); // execFile rejects on a non-zero exit
      expect(run.stdout.trim()).toBe("3");
      // A pool that held the process would keep it for the 120 s keep-alive.
      expect(seconds).toBeLessThan(20);
    } finally {
      await emulator.close();
    }
  });
});
