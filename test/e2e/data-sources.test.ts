/**
 * Data sources in a real Pulumi program, through the real CLI against the emulator: a program
 * exports results of every data source (Promise and Output forms mixed) as stack outputs, with
 * the key taken from secret stack config; nothing of it reaches outputs or state. The same stack
 * and emulator then run under each server profile that touches data sources (page sizes 1, 2
 * with the last page repeated, 1000; other words for `deleted`; no unlisted reads), switched
 * through the admin door between runs: every listing comes back whole, each item once, with the
 * API's totals. And a plain Node program that calls a data source exits at once: the client's
 * connections do not hold it.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { DEFAULT_PROFILE, PROFILES, type ProfileName } from "../../emulator";
import { createTestStack, TestStack } from "../helpers/engine";
import { startTestEmulator, TestEmulator } from "../helpers/emulator";
import { installedPackageDir, loadSdk } from "../helpers/package";

const cdn = loadSdk();

const PULL = "GET /v2/zones/http/pull";
const BREAKS = "GET /v2/zones/vod/pull/{zoneid}/adinsertion/ad-breaks";
const POD_REQUESTS = "POST /v2/ad-manager/{pid}/requests";
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Marked deleted out of band, to see how each profile writes `deleted` (§2.2, §2.17 "null or timestamp"). */
const DELETED_AT = "2025-01-06 09:30:00";
const DELETED_UNIX = Date.UTC(2025, 0, 6, 9, 30) / 1000;

/** Requests of one `up` under the default profile: every data source once, the listings page by page. */
const DEFAULT_COUNTS = {
  "GET /v2/dns": 1,
  "GET /v2/ad-manager": 1,
  [PULL]: 7, // all pages: 1, then 2+3, then 4 (empty) +5; page 3: 3 and 4 beside it (lastPage)
  "GET /v2/zones/http/push/{zoneid}/purge/{purgeId}": 1,
  "GET /v2/ad-manager/{pid}/campaigns/{cid}/targeting": 1,
  "GET /v2/streams/push/{streamid}/adinsertion/tracking/reports": 1,
  "POST /v2/streams/pull/{streamid}/adinsertion/consumption": 1,
  "GET /v2/cb/{backupid}": 1,
  "GET /v2/cb": 1,
  [BREAKS]: 3,
  [POD_REQUESTS]: 3,
  "GET /v2/zones/vod/push/{zoneid}/adinsertion/creatives/{crid}": 1,
};

/** What each profile changes in the outputs and the request counts; the rest is as under the default. */
const CASES: {
  profile: ProfileName;
  page3: { ids: number[]; lastPage: boolean };
  counts: Partial<typeof DEFAULT_COUNTS>;
  deleted: string | number;
}[] = [
  // 47 zones in 47 pages: 48 (empty) ends the listing, read with 49 (2 at a time); 45 log items in 45 counted pages.
  {
    profile: "pages-of-1",
    page3: { ids: [203], lastPage: false },
    counts: { [PULL]: 49 + 2, [BREAKS]: 45, [POD_REQUESTS]: 45 },
    deleted: DELETED_AT,
  },
  // 24 pages; 25 repeats page 24 and ends the listing. Logs: 23 counted pages, nothing past them.
  {
    profile: "pages-of-2-repeating",
    page3: { ids: [205, 206], lastPage: false },
    counts: { [PULL]: 25 + 2, [BREAKS]: 23, [POD_REQUESTS]: 23 },
    deleted: DELETED_AT,
  },
  // One page; page 3 is past the end (empty).
  {
    profile: "pages-of-1000",
    page3: { ids: [], lastPage: true },
    counts: { [PULL]: 3 + 2, [BREAKS]: 1, [POD_REQUESTS]: 1 },
    deleted: DELETED_AT,
  },
  { profile: "other-words", page3: { ids: range(241, 247), lastPage: true }, counts: {}, deleted: DELETED_UNIX },
  // Data sources use only operations the spec lists: nothing changes without the extension reads.
  { profile: "no-reads", page3: { ids: range(241, 247), lastPage: true }, counts: {}, deleted: DELETED_AT },
];

describe("data sources in a Pulumi program", () => {
  let emulator: TestEmulator;
  let test: TestStack;

  const program = async () => {
    const dns = cdn.getDnsZones(); // Promise forms and Output forms, mixed as programs do
    const projects = cdn.getAdManagerProjects();
    const pull = cdn.getHttpPullZonesOutput();
    const purge = cdn.getPurgeOperationOutput({ zoneId: 101, purgeId: "pg-8b41d0e5" });
    // An Input that is a Promise of another data source's result.
    const targeting = cdn.getCampaignTargetingOutput({
      projectId: projects.then((p) => p.projects[0]!.id),
      campaignId: "cmp_7Hq2xK9d",
    });
    const tracking = cdn.getAdTrackingReport({
      streamId: 3001,
      r: "2025-01-06 00:00:00 - 2025-01-06 12:00:00",
      granularity: 60,
    });
    const consumption = cdn.getAdConsumptionOutput({
      streamId: 4001,
      groupBy: "day",
      r: "2025-01-01 00:00:00 - 2025-01-03 00:00:00",
    });
    const adBreaks = cdn.getAdBreaksOutput({ zoneId: 401 });
    const podRequests = cdn.getAdPodRequests({ projectId: 1 });
    const listed = (items: { id: string }[], total?: number) => ({
      count: items.length,
      distinct: new Set(items.map((i) => i.id)).size,
      total,
    });
    return {
      domains: dns.then((r) => r.domains.map((d) => d.domain)),
      firstDnsZone: dns.then((r) => r.domains[0]),
      backupName: cdn.getCriticalBackupOutput({ backupId: 61 }).name,
      backupIds: cdn.getCriticalBackups().then((r) => r.backups.map((b) => b.id)),
      pullZoneIds: pull.zones.apply((zones) => zones.map((z) => z.id)),
      pullZoneDeleted: pull.zones.apply((zones) => zones.find((z) => z.id === 247)?.deleted ?? "absent"),
      pullZonePage3: cdn
        .getHttpPullZones({ page: 3 })
        .then((r) => ({ count: r.zones.length, lastPage: r.lastPage, ids: r.zones.map((z) => z.id) })),
      purge: purge.apply((p) => ({ pending: p.pending, logCounts: p.logCounts, historyView: p.historyView })),
      projectsLimit: projects.then((p) => p.projectsLimit),
      includeTags: targeting.includeTags,
      trackingBuckets: tracking.then((r) => r.data?.length),
      consumptionDays: consumption.apply((c) => c.adInsertionsChart?.map((p) => p.key)),
      adBreakCount: adBreaks.items.apply((items) => items.length),
      adBreaks: adBreaks.apply((r) => listed(r.items, r.total)),
      podRequestCount: podRequests.then((r) => r.items.length),
      podRequests: podRequests.then((r) => listed(r.items, r.total)),
      creativeTitle: cdn.getAdCreativeOutput({ zoneId: 301, crid: "cr-10452" }).adTitle,
    };
  };

  const upOutputs = async () => {
    const up = await test.stack.up();
    return {
      up,
      out: Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, v.value])) as Record<string, any>,
    };
  };

  beforeAll(async () => {
    emulator = await startTestEmulator();
    await emulator.mutate("httpPullZones", 247, { deleted: DELETED_AT });
    await emulator.mutate("dnsZones", 8801, { deleted: DELETED_AT });
    test = await createTestStack({ program, config: emulator.stackConfig() }); // key as secret stack config
  });
  afterAll(async () => {
    await test?.cleanup();
    await emulator?.close();
  });

  it("exports every data source's result as stack outputs, reading each once", async () => {
    await emulator.clearRequests();
    const { up, out } = await upOutputs();
    expect(out.domains).toEqual(["northwind.example", expect.any(String), expect.any(String)]);
    expect(out.firstDnsZone).toMatchObject({
      id: 8801,
      serviceId: 418223,
      preferredType: "All",
      dnssec: { dsRecords: [{ keyTag: 2371 }] },
      deleted: DELETED_AT,
    });
    expect(out.backupName).toBe("assets nightly");
    expect(out.backupIds).toEqual([61, 62]);
    expect(out.pullZoneIds).toEqual(range(201, 247));
    expect(up.outputs.pullZoneIds!.secret).toBe(true); // pull zones carry credentials
    expect(out.pullZoneDeleted).toBe(DELETED_AT);
    expect(out.pullZonePage3).toEqual({ count: 7, lastPage: true, ids: range(241, 247) });
    expect(out.purge).toEqual({
      pending: true,
      logCounts: { total: 5, completed: 2, pending: 3 },
      historyView: { totalServer: 4, cachePending: 2 },
    });
    expect(out.projectsLimit).toBe(5);
    expect(out.includeTags).toEqual(["outdoor", "sports"]);
    expect(out.trackingBuckets).toBe(12);
    expect(out.consumptionDays).toEqual(["2025-01-01", "2025-01-02"]);
    expect(out.adBreakCount).toBe(45);
    expect(out.adBreaks).toEqual({ count: 45, distinct: 45, total: 45 });
    expect(out.podRequestCount).toBe(45);
    expect(out.podRequests).toEqual({ count: 45, distinct: 45, total: 45 });
    expect(out.creativeTitle).toBe("Spring hiking boots 30s");
    expect(up.stdout).not.toMatch(/is a secret/);

    expect(await emulator.requestCounts()).toEqual(DEFAULT_COUNTS);
  });

  it.each(CASES)(
    "under the $profile profile: every listing whole, each item once, with the API's totals",
    async ({ profile, page3, counts, deleted }) => {
      expect(await emulator.setProfile({ ...DEFAULT_PROFILE, ...PROFILES[profile] })).toEqual({
        ...DEFAULT_PROFILE,
        ...PROFILES[profile],
      });
      await emulator.clearRequests();
      const { out } = await upOutputs();
      expect(out.pullZoneIds).toEqual(range(201, 247));
      expect(out.pullZonePage3).toEqual({ count: page3.ids.length, ...page3 });
      expect(out.adBreaks).toEqual({ count: 45, distinct: 45, total: 45 });
      expect(out.podRequests).toEqual({ count: 45, distinct: 45, total: 45 });
      expect(out.pullZoneDeleted).toBe(deleted);
      expect(out.firstDnsZone).toMatchObject({ id: 8801, deleted });
      // The rest reads as under the default profile.
      expect(out.purge).toEqual({
        pending: true,
        logCounts: { total: 5, completed: 2, pending: 3 },
        historyView: { totalServer: 4, cachePending: 2 },
      });
      expect([
        out.backupName,
        out.backupIds,
        out.projectsLimit,
        out.includeTags,
        out.trackingBuckets,
        out.creativeTitle,
      ]).toEqual(["assets nightly", [61, 62], 5, ["outdoor", "sports"], 12, "Spring hiking boots 30s"]);
      expect(out.consumptionDays).toEqual(["2025-01-01", "2025-01-02"]);
      expect(await emulator.requestCounts()).toEqual({ ...DEFAULT_COUNTS, ...counts });
    },
  );

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
        env: {
          ...process.env,
          CDNSTREAM_BASE_URL: emulator.url,
          CDNSTREAM_API_KEY: emulator.apiKey,
          CDNSTREAM_KEEP_ALIVE_TIMEOUT_MS: "120000",
        },
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
