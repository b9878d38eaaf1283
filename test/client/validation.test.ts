/** Rules knowable before sending are checked before sending: a ValidationError, and no request. */
import { adInsertion, adManager, streams, ValidationError, zones } from "../../client";
import { JSON_HEADERS, mockClient, rejection } from "./helpers";

async function refused(
  run: (c: ReturnType<typeof mockClient>["client"]) => Promise<unknown>,
): Promise<ValidationError> {
  const { client, calls } = mockClient();
  const err = await rejection(run(client));
  expect(err).toBeInstanceOf(ValidationError);
  expect((err as ValidationError).sent).toBe(false);
  expect(calls()).toHaveLength(0);
  return err as ValidationError;
}

describe("§4.2 ad break slots", () => {
  it.each([
    [{ type: "preroll", maxDurationS: 0 }, "maxDurationS", "must be at least 1 (seconds)"],
    [{ type: "preroll", maxDurationS: 3601 }, "maxDurationS", "must be at most 3600 seconds"],
    [{ type: "preroll", maxDurationS: 1.5 }, "maxDurationS", "must be an integer (seconds)"],
    [{ type: "postroll" }, "maxDurationS", "is required (1 to 3600 seconds)"],
    [{ type: "midroll", maxDurationS: 30 }, "offset", "is required for a midroll slot (seconds from asset start)"],
    [{ type: "midroll", maxDurationS: 30, offset: -1 }, "offset", "must be at least 0 (seconds from asset start)"],
    [
      { type: "midrollinterval", maxDurationS: 30 },
      "intervalS",
      "is required for a midrollinterval slot (seconds between breaks)",
    ],
    [
      { type: "midrollinterval", maxDurationS: 30, intervalS: 60, intervalSeconds: 90 },
      "intervalSeconds",
      "must equal intervalS (it is its alias)",
    ],
    [
      { type: "midrollinterval", maxDurationS: 30, intervalS: 60, maxBreaks: -1 },
      "maxBreaks",
      "must be at least 0 (0 = unlimited)",
    ],
    [{ type: "preroll", maxDurationS: 30, offset: 10 }, "offset", "is not a field of this request; remove it"],
    [{ type: "preroll", maxDurationS: 30, maxAds: -2 }, "maxAds", "must be at least 0 (ads per break)"],
    [{ type: "preroll", maxDurationS: 30, fillCeilingS: -2 }, "fillCeilingS", "must be at least 0 (seconds)"],
    [{ type: "overlay", maxDurationS: 30 }, "type", "must be preroll, midroll, postroll or midrollinterval"],
  ])("%j -> %s %s", async (body, field, rule) => {
    const err = await refused((c) => adInsertion.addAdBreakSlot(c, 1, body as adInsertion.AdBreakSlotBody));
    expect(err.issues).toContainEqual({ field, rule });
    expect(err.message).toContain(`\`${field}\` ${rule}`);
    expect(err.message).toMatch(/Nothing was sent; fix the value and run again\.$/);
  });

  it("sends a valid midrollinterval with the method override and both interval names", async () => {
    const { pool, client, calls } = mockClient();
    pool
      .intercept({ path: "/v2/zones/vod/push/8/adinsertion/schedule", method: "POST" })
      .reply(200, { result: "success", state: "enabled" }, { headers: JSON_HEADERS });
    await adInsertion.addAdBreakSlot(client, 8, {
      type: "midrollinterval",
      maxDurationS: 60,
      intervalSeconds: 300,
      maxBreaks: 0,
    });
    expect(JSON.parse(String(calls()[0]!.body))).toEqual({
      type: "midrollinterval",
      maxDurationS: 60,
      intervalS: 300,
      intervalSeconds: 300,
      maxBreaks: 0,
      _METHOD: "PUT",
    });
  });
});

describe("§4.6 tracking report", () => {
  it("refuses a granularity outside the set", async () => {
    const err = await refused((c) => adInsertion.getTrackingReport(c, 1, { granularity: 7 as 5 }));
    expect(err.field).toBe("granularity");
    expect(err.rule).toBe("must be one of 1, 5, 10, 15, 30, 60, 180, 360, 720, 1440, 2880, 10080 minutes");
  });

  it("refuses a range longer than granularity x 1440 minutes, naming the largest valid range", async () => {
    const err = await refused((c) =>
      adInsertion.getTrackingReport(c, 1, { r: "2024-03-01 00:00:00 - 2024-03-03 00:00:00", granularity: 1 }),
    );
    expect(err.field).toBe("r");
    expect(err.rule).toBe(
      'spans 2880 minutes, more than granularity 1 x 1440 = 1440 minutes: the largest valid range from that start is "2024-03-01 00:00:00 - 2024-03-02 00:00:00", or use granularity 5 or more',
    );
  });

  it("accepts a range exactly at the cap", async () => {
    const { pool, client } = mockClient();
    pool
      .intercept({ path: /^\/v2\/streams\/push\/1\/adinsertion\/tracking\/reports\?/, method: "GET" })
      .reply(200, { result: "success", summary: {}, data: [] }, { headers: JSON_HEADERS });
    await adInsertion.getTrackingReport(client, 1, { r: "2024-03-01 00:00:00 - 2024-03-02 00:00:00", granularity: 1 });
  });

  it.each([
    "2024-03-01 - 2024-03-02",
    "2024-02-30 00:00:00 - 2024-03-02 00:00:00",
    "2024-03-02 00:00:00 - 2024-03-01 00:00:00",
  ])("refuses the range %j", async (r) => {
    const err = await refused((c) => adInsertion.getTrackingReport(c, 1, { r }));
    expect(err.field).toBe("r");
  });

  it("refuses unknown query parameters", async () => {
    const err = await refused((c) => adInsertion.getTrackingReport(c, 1, { region: "eu" } as never));
    expect(err.issues).toEqual([{ field: "region", rule: "is not a field of this request; remove it" }]);
  });
});

describe("§4.8 consumption, §4.9 ad breaks, §4.7 requests", () => {
  it("requires groupBy from the set and a well-formed r", async () => {
    const a = await refused((c) =>
      adInsertion.getConsumption(c, 2, { groupBy: "minute" as "hour", r: "2024-01-01 00:00:00 - 2024-01-02 00:00:00" }),
    );
    expect(a.issues).toEqual([{ field: "groupBy", rule: "must be year, month, week, day or hour" }]);
    const b = await refused((c) => adInsertion.getConsumption(c, 2, { groupBy: "day" } as never));
    expect(b.issues).toEqual([{ field: "r", rule: "is required" }]);
  });

  it("checks §4.9 enums and §4.7 dates", async () => {
    const a = await refused((c) =>
      adInsertion.listAdBreaks(c, 2, { fill_status: "partial" as "full", vast_outcome: "ok" }),
    );
    expect(a.field).toBe("fill_status");
    const b = await refused((c) => adManager.listAdPodRequests(c, 2, { from: "2024-01-31", to: "2024-01-01" }));
    expect(b.issues).toEqual([{ field: "to", rule: "must not be before from" }]);
    const d = await refused((c) => adManager.listAdPodRequests(c, 2, { devices: ["tv"] as never }));
    expect(d.field).toBe("devices.0");
  });
});

describe("§4.4, §4.5, §4.11, §4.19", () => {
  it("§4.4 disabled must be 0 or 1", async () => {
    const err = await refused((c) => streams.setStreamStatus(c, "timeshift", "9", { disabled: 2 as 1 }));
    expect(err.issues).toEqual([{ field: "disabled", rule: "must be 0 (enable) or 1 (disable)" }]);
  });

  it("§4.5 and §4.11 allowed values", async () => {
    const a = await refused((c) => zones.updateVodPullDomainLock(c, 3, { enabled: "yes" as "Y", mode: "X" as "S" }));
    expect(a.issues).toEqual([
      { field: "enabled", rule: 'must be "Y" or "N"' },
      { field: "mode", rule: 'must be "S" (shared)' },
    ]);
    const b = await refused((c) => zones.updateBulkDomainLock(c, { mode: "merge" as "append" }));
    expect(b.issues).toEqual([{ field: "mode", rule: 'must be "save", "append" or "overwrite"' }]);
  });

  it("§4.19 retention maxima and allowed values", async () => {
    const err = await refused((c) =>
      streams.createTimeshiftStream(c, {
        codec: "vp9" as "h264",
        protocols: ["HLS", "SRT" as "HLS"],
        ndvr: { retention: 181 },
        record: { retention: 91 },
        securetoken: { policy: "X" as "D", session: "forever" },
        geoblock: { list: ["DEU"] },
      }),
    );
    expect(err.issues).toEqual(
      expect.arrayContaining([
        { field: "codec", rule: 'must be "h264" or "h265"' },
        { field: "protocols.1", rule: "must be HLS, RTMP, DASH or RTSP" },
        { field: "ndvr.retention", rule: "must be at most 180 days (ndvr retention)" },
        { field: "record.retention", rule: "must be at most 90 days (record retention)" },
        { field: "securetoken.policy", rule: 'must be "D" (dynamic) or "F" (fixed)' },
        { field: "geoblock.list.0", rule: "must be a two-letter country code" },
      ]),
    );
  });

  it("§4.19 flattens groups to bracketed keys with the method override", async () => {
    const { pool, client, calls } = mockClient();
    pool
      .intercept({ path: "/v2/streams/timeshift/new", method: "POST" })
      .reply(200, { result: "success", stream: { id: 77 }, errors: null }, { headers: JSON_HEADERS });
    await streams.createTimeshiftStream(client, {
      name: "late",
      codec: "h264",
      protocols: ["HLS"],
      timeshift: 60,
      parent: 12,
      ndvr: { enabled: "Y", retention: 180 },
      geoblock: { list: ["DE", "FR"] },
    });
    expect(JSON.parse(String(calls()[0]!.body))).toEqual({
      _METHOD: "PUT",
      name: "late",
      codec: "h264",
      protocols: ["HLS"],
      timeshift: 60,
      parent: 12,
      "ndvr[enabled]": "Y",
      "ndvr[retention]": 180,
      "geoblock[list]": ["DE", "FR"],
    });
  });

  it("§4.1 webhook must be a URL", async () => {
    const err = await refused((c) => zones.updatePushZone(c, 1, { webhook: "ftp://x" }));
    expect(err.field).toBe("webhook");
  });
});
