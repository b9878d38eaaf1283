/**
 * getAdTrackingReport (§4.6), getAdConsumption (§4.8), getAdBreaks (§4.9), getAdCreative (§4.18)
 * against the emulator: results, pages, checks made before sending, and the plan gates (403).
 */
import * as pulumi from "@pulumi/pulumi";
import * as cdn from "../../sdk/data-sources";
import { PermissionDeniedError, ValidationError } from "../../client";
import {
  failureOf,
  readUnderProfile,
  startDataSourceEmulator,
  useDataSourceEmulator,
  valueOf,
  type DataSourceEmulator,
} from "./helpers";

const BREAKS = "GET /v2/zones/vod/pull/{zoneid}/adinsertion/ad-breaks";
const DAY = "2025-01-06 00:00:00 - 2025-01-07 00:00:00";

describe("ad insertion data sources", () => {
  const ds = useDataSourceEmulator();

  describe("getAdTrackingReport", () => {
    it("returns the summary and one bucket per granularity step, camelCased", async () => {
      const report = await cdn.getAdTrackingReport(
        { streamId: 3001, r: "2025-01-06 00:00:00 - 2025-01-06 06:00:00", granularity: 60, crid: "cr-10452" },
        ds.options,
      );
      expect(report.data).toHaveLength(6);
      expect(report.data![0]).toEqual(
        expect.objectContaining({
          time: expect.any(String),
          firstQuartiles: expect.any(Number),
          thirdQuartiles: expect.any(Number),
        }),
      );
      expect(report.summary).toEqual(
        expect.objectContaining({
          uniqueSessions: expect.any(Number),
          viewRate25: expect.any(Number),
          viewRate75: expect.any(Number),
          completionRate: expect.any(Number),
        }),
      );
      expect(report.summary!.impressions).toBe(report.data!.reduce((sum, b) => sum + b.impressions!, 0));
      expect(JSON.stringify(report)).not.toMatch(/_/);
    });

    it("refuses a range over granularity x 1440 minutes before sending, naming the largest valid range", async () => {
      // 1440 minutes at granularity 1 is exactly the cap: accepted.
      expect((await cdn.getAdTrackingReport({ streamId: 3001, r: DAY, granularity: 1 }, ds.options)).data).toHaveLength(
        1440,
      );
      await ds.emulator.clearRequests();
      const twoDays = cdn.getAdTrackingReport(
        { streamId: 3001, r: "2025-01-06 00:00:00 - 2025-01-08 00:00:00", granularity: 1 },
        ds.options,
      );
      await expect(twoDays).rejects.toBeInstanceOf(ValidationError);
      await expect(twoDays).rejects.toThrow(
        /^getAdTrackingReport: invalid argument, nothing was sent to the API: `r` spans 2880 minutes, more than granularity 1 x 1440 = 1440 minutes: the largest valid range from that start is "2025-01-06 00:00:00 - 2025-01-07 00:00:00", or use granularity 5 or more\. Fix the value/,
      );
      const odd = cdn.getAdTrackingReport({ streamId: 3001, granularity: 7 as 5 }, ds.options);
      await expect(odd).rejects.toThrow(
        /`granularity` must be one of 1, 5, 10, 15, 30, 60, 180, 360, 720, 1440, 2880, 10080 minutes/,
      );
      const malformed = cdn.getAdTrackingReport(
        { streamId: 3001, r: "2025-01-06 - 2025-01-07", sessionId: 5 as unknown as string },
        ds.options,
      );
      await expect(malformed).rejects.toThrow(
        /invalid arguments, .*`r` must be "YYYY-MM-DD HH:MM:SS - YYYY-MM-DD HH:MM:SS".*; `sessionId` /,
      );
      expect(await ds.emulator.requestCounts()).toEqual({});
    });

    it("getAdTrackingReportOutput takes Inputs", async () => {
      const report = cdn.getAdTrackingReportOutput(
        {
          streamId: pulumi.output(3001),
          r: pulumi.output("2025-01-06 00:00:00 - 2025-01-06 02:00:00"),
          granularity: 30,
        },
        ds.options,
      );
      expect(await valueOf(report.apply((r) => r.data))).toHaveLength(4);
    });
  });

  describe("getAdConsumption", () => {
    it("returns totals, egress details and charts by day", async () => {
      const usage = await cdn.getAdConsumption(
        { streamId: 4001, groupBy: "day", r: "2025-01-01 00:00:00 - 2025-01-04 00:00:00" },
        ds.options,
      );
      expect(usage).toMatchObject({ groupBy: "day", serviceIds: [418223] });
      expect(usage.adInsertionsChart!.map((p) => p.key)).toEqual(["2025-01-01", "2025-01-02", "2025-01-03"]);
      const d = usage.egressDetails!;
      expect(usage.totalEgress).toBe(d.manifests! + d.segments! + d.ssat! + d.transcoding! + d.other!);
      expect(
        await valueOf(
          cdn.getAdConsumptionOutput(
            { streamId: 4001, groupBy: pulumi.output("day" as const), r: "2025-01-01 00:00:00 - 2025-01-04 00:00:00" },
            ds.options,
          ),
        ),
      ).toEqual(usage);
    });

    it("checks groupBy and r before sending", async () => {
      const bad = cdn.getAdConsumption({ streamId: 4001, groupBy: "minute" as "day", r: DAY }, ds.options);
      await expect(bad).rejects.toThrow(
        /^getAdConsumption: invalid argument, nothing was sent to the API: `groupBy` must be year, month, week, day or hour/,
      );
      const missing = cdn.getAdConsumption({ streamId: 4001, groupBy: "day" } as cdn.GetAdConsumptionArgs, ds.options);
      await expect(missing).rejects.toThrow(/`r` is required/);
      expect(await ds.emulator.requestCounts()).toEqual({});
    });
  });

  describe("getAdBreaks", () => {
    it("returns all 45 ad breaks with 3 requests, in the API's order", async () => {
      const all = await cdn.getAdBreaks({ zoneId: 401 }, ds.options);
      expect(all.items).toHaveLength(45);
      expect(new Set(all.items.map((b) => b.id)).size).toBe(45);
      expect(all).not.toHaveProperty("pages");
      expect(all.total).toBe(45); // the API's count, kept in the all-pages form
      expect(await ds.emulator.requestCounts()).toEqual({ [BREAKS]: 3 });
      const pages = await Promise.all([1, 2, 3].map((page) => cdn.getAdBreaks({ zoneId: 401, page }, ds.options)));
      expect(pages.flatMap((p) => p.items)).toEqual(all.items);
    });

    it("returns one page with its paging fields, and passes filters under the API's names", async () => {
      const third = await cdn.getAdBreaks({ zoneId: 401, page: 3 }, ds.options);
      expect(third).toMatchObject({ total: 45, page: 3, limit: 20, pages: 3 });
      expect(third.items).toHaveLength(5);
      const mid = await cdn.getAdBreaksOutput(
        { zoneId: 401, breakType: pulumi.output("mid-roll" as const), fillStatus: "full" },
        ds.options,
      );
      const items = (await valueOf(mid)).items;
      expect(items.length).toBeGreaterThan(0);
      expect(items.every((b) => b.breakType === "mid-roll" && b.fillStatus === "full")).toBe(true);
    });

    it.each([
      ["pages-of-1", 45],
      ["pages-of-2-repeating", 23],
      ["pages-of-1000", 1],
    ] as const)(
      "under %s: every ad break once, total 45, %i requests (the reported pages)",
      async (profile, requests) => {
        const { inDefault, inProfile, counts } = await readUnderProfile(ds.emulator, profile, () =>
          cdn.getAdBreaks({ zoneId: 401 }, ds.options),
        );
        expect(inProfile.items.map((b) => b.id)).toEqual(inDefault.items.map((b) => b.id));
        expect(inProfile.total).toBe(45);
        expect(counts).toEqual({ [BREAKS]: requests });
      },
    );

    it("checks allowed values before sending", async () => {
      const bad = cdn.getAdBreaks({ zoneId: 401, vastOutcome: "oops" as "ok" }, ds.options);
      await expect(bad).rejects.toThrow(
        /^getAdBreaks: invalid argument, nothing was sent to the API: `vastOutcome` must be ok, timeout/,
      );
      expect(await ds.emulator.requestCounts()).toEqual({});
    });
  });

  describe("getAdCreative", () => {
    it("returns the creative's fields, flat", async () => {
      const creative = await cdn.getAdCreative({ zoneId: 301, crid: "cr-10452" }, ds.options);
      expect(creative).toMatchObject({
        crid: "cr-10452",
        adTitle: "Spring hiking boots 30s",
        mediaWidth: 1920,
        durationS: 30,
        universalAdId: "UAID-63F37D07",
      });
      expect(creative).not.toHaveProperty("result");
      expect(
        await valueOf(cdn.getAdCreativeOutput({ zoneId: 301, crid: pulumi.output("cr-10452") }, ds.options)),
      ).toEqual(creative);
    });
  });
});

describe("ad insertion plan gates (403)", () => {
  let noPlan: DataSourceEmulator;
  let noAddOn: DataSourceEmulator;
  beforeAll(async () => {
    noPlan = await startDataSourceEmulator({ customPlan: false, advancedAnalytics: false });
    noAddOn = await startDataSourceEmulator({ customPlan: true, advancedAnalytics: false });
  });
  afterAll(async () => {
    await cdn.closeDataSourceClients();
    await noPlan?.emulator.close();
    await noAddOn?.emulator.close();
  });

  it("without the custom plan, names the custom plan", async () => {
    const consumption = cdn.getAdConsumption({ streamId: 4001, groupBy: "hour", r: DAY }, noPlan.options);
    await expect(consumption).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(consumption).rejects.toThrow(
      /^getAdConsumption: permission denied \(403\): reading ad consumption needs the custom plan \(POST \/v2\/streams\/pull\/\{streamid\}\/adinsertion\/consumption\)\. The API said: ".*custom plan.*"\. Add the custom plan to the account/,
    );
    await expect(cdn.getAdTrackingReport({ streamId: 3001 }, noPlan.options)).rejects.toThrow(
      /tracking report needs the custom plan/,
    );
    await expect(cdn.getAdBreaks({ zoneId: 401 }, noPlan.options)).rejects.toThrow(
      /the ad-break log needs the custom plan and the advanced analytics add-on/,
    );
  });

  it("without the add-on, names the add-on and the filters that need it; other reports still work", async () => {
    const filtered = cdn.getAdTrackingReport(
      { streamId: 3001, os: "ios", countryGeonameId: 2921044, crid: "cr-10452" },
      noAddOn.options,
    );
    await expect(filtered).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(filtered).rejects.toThrow(
      /^getAdTrackingReport: permission denied \(403\): reading the ad insertion tracking report needs the custom plan; the filters `os`, `countryGeonameId` need the advanced analytics add-on \(GET \/v2\/streams\/push\/\{streamid\}\/adinsertion\/tracking\/reports\)\..*or drop those filters/,
    );
    expect(
      (await cdn.getAdTrackingReport({ streamId: 3001, crid: "cr-10452", sessionId: "s-1" }, noAddOn.options)).data,
    ).toBeDefined();
    await expect(cdn.getAdCreative({ zoneId: 301, crid: "cr-10452" }, noAddOn.options)).rejects.toThrow(
      /^getAdCreative: permission denied \(403\): reading ad insertion creatives needs the custom plan and the advanced analytics add-on \(GET \/v2\/zones\/vod\/push\/\{zoneid\}\/adinsertion\/creatives\/\{crid\}\)\. The API said: ".*add-on.*"/,
    );
    const viaOutput = await failureOf(cdn.getAdBreaksOutput({ zoneId: 401 }, noAddOn.options));
    expect(viaOutput).toBeInstanceOf(PermissionDeniedError);
    expect((viaOutput as Error).message).toMatch(
      /^getAdBreaks: .*needs the custom plan and the advanced analytics add-on/,
    );
  });
});
