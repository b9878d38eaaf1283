/** getHttpPullZones (§4.10) and getPurgeOperation (§4.12) against the emulator (47 pull zones, two purges). */
import * as pulumi from "@pulumi/pulumi";
import * as cdn from "../../sdk/data-sources";
import { NotFoundError, ValidationError } from "../../client";
import { switchProfile, useDataSourceEmulator, valueOf } from "./helpers";

const LIST = "GET /v2/zones/http/pull";
const PURGE = "GET /v2/zones/http/push/{zoneid}/purge/{purgeId}";
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("zone data sources", () => {
  const ds = useDataSourceEmulator();

  describe("getHttpPullZones", () => {
    it("returns all 47 zones in order with 5 requests (page 1, then 2 and 3, then 4, empty, and 5 beside it)", async () => {
      const result = await cdn.getHttpPullZones({}, ds.options);
      expect(result.zones.map((z) => z.id)).toEqual(range(201, 247));
      expect(result).not.toHaveProperty("page");
      expect(result).not.toHaveProperty("lastPage");
      // §4.10 gives no page size: the short page 3 is not taken for the end; the empty page 4 is.
      expect(await ds.emulator.requestCounts()).toEqual({ [LIST]: 5 });
    });

    it("names every field in camelCase, keeping data-keyed maps and unknown keys as sent", async () => {
      const [zone] = (await cdn.getHttpPullZones({ page: 1 }, ds.options)).zones;
      expect(zone).toMatchObject({
        id: 201,
        serviceId: 418223,
        hashId: "497ac7f4e5dd",
        modeI: "vod",
        originIp: { enabled: "N" },
        customHostHeader: "N",
        dnsCheck: 1,
        isCms: "0",
        createdAt: "2024-03-12 09:30:00",
        cache: { queryString: "N", cacheControl: "Y", useStale: "Y", expiryInMins: 43200 },
        edge: { stripCookie: "Y", compressionLevel: 6 },
        originAuth: { s3MidgressCacheSize: "0", s3AccessKeyId: "********" },
        seo: { robotsTxt: "default" },
        domainLock: { noReferer: "N", policy: "N" },
        userAgent: { caseSensitive: "N", listArr: [] },
        secureToken: { keyIp: "N", policy: "F" },
        bwLimit: { rateAfter: 0 },
        cdnService: { purgeUrls: [expect.any(String)], authToken: expect.any(String) },
        playbackUrls: {
          urlPrefix: expect.any(String),
          players: { own: { hashes: { "assets-497ac7.pull.cdnstream.example": "497ac7f4e5dd" } } },
        },
      });
      // The issuer-branded key of §2.3 ssl is kept; snake_case keys inside it are converted.
      expect((zone!.ssl as Record<string, any>).letsencrypt.dbRow).toEqual({
        id: 55201,
        zoneId: 201,
        expiresAt: "2025-04-06T09:30:00Z",
      });
      expect(JSON.stringify(zone)).not.toMatch(/"(serviceid|created_at|domainlock|cdnservice|origin_auth|url_prefix)"/);
    });

    it("returns one page with its paging fields, lastPage read from the page after it", async () => {
      const second = await cdn.getHttpPullZones({ page: 2 }, ds.options);
      expect(second.zones.map((z) => z.id)).toEqual(range(221, 240));
      expect(second).toMatchObject({ page: 2, lastPage: false });
      const third = await cdn.getHttpPullZones({ page: 3 }, ds.options);
      expect(third.zones.map((z) => z.id)).toEqual(range(241, 247));
      expect(third).toMatchObject({ page: 3, lastPage: true });
      expect(await ds.emulator.requestCounts()).toEqual({ [LIST]: 4 }); // each page and the one after it
    });

    it("refuses page 0 before sending", async () => {
      const bad = cdn.getHttpPullZones({ page: 0 }, ds.options);
      await expect(bad).rejects.toBeInstanceOf(ValidationError);
      await expect(bad).rejects.toThrow(
        /^getHttpPullZones: invalid argument, nothing was sent to the API: `page` must be 1 or more/,
      );
      expect(await ds.emulator.requestCounts()).toEqual({});
    });

    it("getHttpPullZonesOutput is secret as a whole (zones carry credentials) and takes Inputs", async () => {
      const all = cdn.getHttpPullZonesOutput(undefined, ds.options);
      expect(await pulumi.isSecret(all)).toBe(true);
      expect((await valueOf(all)).zones).toHaveLength(47);
      const page = cdn.getHttpPullZonesOutput({ page: pulumi.output(3) }, ds.options);
      expect((await valueOf(page)).zones).toHaveLength(7);
    });
  });

  describe("getHttpPullZones under each server profile", () => {
    afterEach(() => switchProfile(ds.emulator, "default"));

    it.each([
      ["pages-of-1", 49], // 47 pages, then 48 (empty) with 49 beside it
      ["pages-of-2-repeating", 25], // 24 pages, then 25 (page 24 again)
      ["pages-of-1000", 3], // page 1, then 2 (empty) with 3 beside it
    ] as const)("%s: every zone once, in order, with %i requests", async (profile, requests) => {
      await switchProfile(ds.emulator, profile);
      const result = await cdn.getHttpPullZones({}, ds.options);
      expect(result.zones.map((z) => z.id)).toEqual(range(201, 247));
      expect(await ds.emulator.requestCounts()).toEqual({ [LIST]: requests });
    });

    it("pages-of-2-repeating: lastPage is false before the end, true on the last page and on a page past it", async () => {
      await switchProfile(ds.emulator, "pages-of-2-repeating");
      expect(await cdn.getHttpPullZones({ page: 23 }, ds.options)).toMatchObject({
        page: 23,
        lastPage: false,
        zones: [{ id: 245 }, { id: 246 }],
      });
      expect(await cdn.getHttpPullZones({ page: 24 }, ds.options)).toMatchObject({
        page: 24,
        lastPage: true,
        zones: [{ id: 247 }],
      });
      expect(await cdn.getHttpPullZones({ page: 30 }, ds.options)).toMatchObject({ page: 30, lastPage: true });
    });

    it("pages-of-1000: page 1 holds every zone and is the last", async () => {
      await switchProfile(ds.emulator, "pages-of-1000");
      const one = await cdn.getHttpPullZones({ page: 1 }, ds.options);
      expect(one.zones).toHaveLength(47);
      expect(one.lastPage).toBe(true);
    });

    it("other-words: a deleted zone's `deleted` as Unix seconds is accepted and returned as sent", async () => {
      await ds.emulator.mutate("httpPullZones", 247, { deleted: "2025-01-06 09:30:00" });
      try {
        const asDate = (await cdn.getHttpPullZones({ page: 3 }, ds.options)).zones.find((z) => z.id === 247);
        expect(asDate?.deleted).toBe("2025-01-06 09:30:00");
        await switchProfile(ds.emulator, "other-words");
        const all = await cdn.getHttpPullZones({}, ds.options);
        expect(all.zones).toHaveLength(47);
        expect(all.zones.find((z) => z.id === 247)?.deleted).toBe(Date.UTC(2025, 0, 6, 9, 30) / 1000);
      } finally {
        await ds.emulator.mutate("httpPullZones", 247, { deleted: null });
      }
    });
  });

  describe("getPurgeOperation", () => {
    it("reports a completed purge: not pending, every server's progress, both ways of counting", async () => {
      const purge = await cdn.getPurgeOperation({ zoneId: 101, purgeId: "pg-7f3a9c21" }, ds.options);
      expect(purge).toMatchObject({
        id: "pg-7f3a9c21",
        serviceId: 418223,
        zone: "101",
        type: "url",
        completedAt: "1735983042",
        errors: "",
        pending: false,
      });
      expect(purge.logs.map((l) => [l.serverName, l.completed])).toEqual([
        ["dispatcher", false],
        ["edge-fra1", true],
        ["edge-ams2", true],
        ["edge-lon1", true],
        ["edge-par1", true],
      ]);
      expect(purge.logCounts).toEqual({ total: 5, completed: 4, pending: 1 });
      expect(purge.historyView).toEqual({ totalServer: 4, cachePending: 0 });
      expect(await ds.emulator.requestCounts()).toEqual({ [PURGE]: 1 });
    });

    it("reports a pending prefetch (empty completed_at) with the servers still to go", async () => {
      const purge = await cdn.getPurgeOperation({ zoneId: 101, purgeId: "pg-8b41d0e5" }, ds.options);
      expect(purge).toMatchObject({ type: "fetch", completedAt: "", pending: true });
      expect(purge.logs.filter((l) => !l.completed).map((l) => l.serverName)).toEqual([
        "dispatcher",
        "edge-lon1",
        "edge-par1",
      ]);
      expect(purge.logs[1]!.purged).toEqual(["/video/intro.mp4", "/img/hero.webp", "/fonts/inter.woff2"]);
      expect(purge.logCounts).toEqual({ total: 5, completed: 2, pending: 3 });
      expect(purge.historyView).toEqual({ totalServer: 4, cachePending: 2 });
    });

    it("counts null completed_at as pending and applies the history formulas unclamped", async () => {
      await ds.emulator.mutate("purges", "pg-8b41d0e5", { completed_at: null, logs: [] });
      const purge = await cdn.getPurgeOperation({ zoneId: 101, purgeId: "pg-8b41d0e5" }, ds.options);
      expect(purge.pending).toBe(true);
      expect(purge.logCounts).toEqual({ total: 0, completed: 0, pending: 0 });
      expect(purge.historyView).toEqual({ totalServer: -1, cachePending: -1 });
    });

    it("refuses a fractional zone id before sending, saying it must be whole and what was given", async () => {
      await expect(cdn.getPurgeOperation({ zoneId: 101.5, purgeId: "pg-7f3a9c21" }, ds.options)).rejects.toThrow(
        "getPurgeOperation: invalid argument, nothing was sent to the API: `zoneId` must be a whole number above 0 (the HTTP push zone's id), not 101.5. Fix the value and run again.",
      );
      expect(await ds.emulator.requestCounts()).toEqual({});
    });

    it("getPurgeOperationOutput takes Inputs", async () => {
      const purge = cdn.getPurgeOperationOutput(
        { zoneId: pulumi.output(101), purgeId: pulumi.output("pg-7f3a9c21") },
        ds.options,
      );
      expect(await valueOf(purge.pending)).toBe(false);
      expect(await valueOf(purge.logCounts)).toEqual({ total: 5, completed: 4, pending: 1 });
    });

    it("refuses an empty purge id before sending, and names the function on a 404", async () => {
      await expect(cdn.getPurgeOperation({ zoneId: 101, purgeId: "" }, ds.options)).rejects.toThrow(
        /^getPurgeOperation: invalid argument.*`purgeId`/,
      );
      expect(await ds.emulator.requestCounts()).toEqual({});
      const missing = cdn.getPurgeOperation({ zoneId: 101, purgeId: "pg-nope" }, ds.options);
      await expect(missing).rejects.toBeInstanceOf(NotFoundError);
      await expect(missing).rejects.toThrow(/^getPurgeOperation: Not found \(404\)/);
    });
  });
});
