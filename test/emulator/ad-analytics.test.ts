/** §4.6 tracking report, §4.8 consumption, §4.9 ad-break log. */
import { expectError, expectFields, Harness, harness } from "./helpers";
import { AD_BREAK } from "./shapes";

let h: Harness;
beforeAll(async () => {
  h = await harness({ now: () => new Date("2025-01-06T12:00:00.000Z") });
});
afterAll(() => h.close());
beforeEach(() => h.admin("POST", "/__emulator/reset"));

const REPORT = "/v2/streams/push/3001/adinsertion/tracking/reports";
const report = (q: Record<string, string>) => h.api("GET", `${REPORT}?${new URLSearchParams(q)}`);
const plan = (patch: Record<string, boolean>) => h.admin("POST", "/__emulator/mutate", { kind: "account", patch });

describe("§4.6 tracking report", () => {
  it("returns a summary and one §2.9 point per bucket", async () => {
    const res = await report({ r: "2025-01-01 00:00:00 - 2025-01-01 06:00:00", granularity: "60", crid: "cr-10452" });
    expect(res.status).toBe(200);
    expect(res.body.result).toBe("success");
    expect(res.body.summary).toMatchObject({ from: "2025-01-01T00:00:00Z", to: "2025-01-01T06:00:00Z" });
    for (const k of [
      "impressions",
      "starts",
      "first_quartiles",
      "midpoints",
      "third_quartiles",
      "completes",
      "unique_sessions",
      "view_rate_25",
      "view_rate_50",
      "view_rate_75",
      "completion_rate",
    ]) {
      expect(typeof res.body.summary[k]).toBe("number");
    }
    expect(res.body.data).toHaveLength(6);
    expect(res.body.data[0]).toEqual(
      expect.objectContaining({
        time: "2025-01-01T00:00:00Z",
        impressions: expect.any(Number),
        completes: expect.any(Number),
      }),
    );
    expect(res.body.summary.impressions).toBe(
      res.body.data.reduce((n: number, d: { impressions: number }) => n + d.impressions, 0),
    );
    // Deterministic: the same query gives the same numbers.
    expect(
      (await report({ r: "2025-01-01 00:00:00 - 2025-01-01 06:00:00", granularity: "60", crid: "cr-10452" })).body,
    ).toEqual(res.body);
  });

  it("defaults to the last day at granularity 60", async () => {
    const res = await report({});
    expect(res.body.data).toHaveLength(24);
    expect(res.body.summary.to).toBe("2025-01-06T12:00:00Z");
  });

  it("caps the range at granularity x 1440 minutes, naming the largest valid range", async () => {
    expect((await report({ r: "2025-01-01 00:00:00 - 2025-01-02 00:00:00", granularity: "1" })).body.data).toHaveLength(
      1440,
    );
    const over = await report({ r: "2025-01-01 00:00:00 - 2025-01-02 00:01:00", granularity: "1" });
    expectError(over, 422, "r:", "1441 minutes", "1440", "granularity 5");
    expect((await report({ r: "2025-01-01 00:00:00 - 2025-01-06 00:00:00", granularity: "5" })).status).toBe(200);
  });

  it.each([
    [{ granularity: "7" }, "granularity: must be one of 1, 5, 10, 15, 30, 60, 180, 360, 720, 1440, 2880, 10080"],
    [{ r: "2025-01-01 - 2025-01-02" }, "r: must be"],
    [{ r: "2025-01-02 00:00:00 - 2025-01-01 00:00:00" }, "r: the start must be before the end"],
    [{ r: "2025-02-30 00:00:00 - 2025-03-01 00:00:00" }, "r: must be"],
    [{ country_geoname_id: "DE" }, "country_geoname_id: must be an integer"],
    [{ subdivision_1_geoname_id: "1" }, "subdivision_1_geoname_id: unknown query parameter"],
  ])("rejects %j with 422", async (q, fragment) => {
    expectError(await report(q), 422, fragment);
  });

  it("gates add-on filters, but not crid and session_id", async () => {
    await plan({ advancedAnalytics: false });
    expect((await report({ crid: "cr-10452", session_id: "sess-1" })).status).toBe(200);
    expectError(
      await report({ os: "ios", city_geoname_id: "2950159" }),
      403,
      "advanced analytics add-on",
      "os",
      "city_geoname_id",
    );
    await plan({ advancedAnalytics: true });
    expect((await report({ os: "ios", city_geoname_id: "2950159" })).status).toBe(200);
    await plan({ customPlan: false });
    expectError(await report({}), 403, "custom plan");
  });

  it("answers 404 for a stream that is not a push stream", async () => {
    expectError(await h.api("GET", "/v2/streams/push/4001/adinsertion/tracking/reports"), 404, "push stream 4001");
  });
});

describe("§4.8 ad consumption", () => {
  const CONSUMPTION = "/v2/streams/pull/4001/adinsertion/consumption";

  // §2.10: the response's groupBy is `day` or `hour`; the bucket labels name the requested periods.
  it.each([
    [
      "hour",
      "hour",
      "2025-01-01 00:00:00 - 2025-01-01 03:00:00",
      ["2025-01-01 00:00", "2025-01-01 01:00", "2025-01-01 02:00"],
    ],
    ["day", "day", "2025-01-01 00:00:00 - 2025-01-03 12:00:00", ["2025-01-01", "2025-01-02", "2025-01-03"]],
    ["week", "day", "2025-01-01 00:00:00 - 2025-01-13 00:00:00", ["2025-W01", "2025-W02"]],
    ["month", "day", "2025-01-15 00:00:00 - 2025-03-01 00:00:00", ["2025-01", "2025-02"]],
    ["year", "day", "2024-06-01 00:00:00 - 2025-02-01 00:00:00", ["2024", "2025"]],
  ])("groups by %s (response groupBy %s)", async (groupBy, answered, r, keys) => {
    const res = await h.api("POST", CONSUMPTION, { groupBy, r });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      result: "success",
      message: expect.any(String),
      groupBy: answered,
      serviceIds: [418223],
      from: r.slice(0, 19),
      to: r.slice(22),
    });
    expect(res.body.adInsertionsChart.map((x: { key: string }) => x.key)).toEqual(keys);
    const sum = (chart: { value: number }[]) => chart.reduce((n, x) => n + x.value, 0);
    expect(res.body.totalAdInsertions).toBe(sum(res.body.adInsertionsChart));
    expect(res.body.totalAdImpressions).toBe(sum(res.body.adImpressionsChart));
    expect(res.body.totalEgress).toBe(sum(res.body.egressChart));
    const d = res.body.egressDetails;
    expect(d.manifests + d.segments + d.ssat + d.transcoding + d.other).toBe(res.body.totalEgress);
  });

  it.each([
    [{ r: "2025-01-01 00:00:00 - 2025-01-02 00:00:00" }, "groupBy: required"],
    [{ groupBy: "day" }, "r: required"],
    [{ groupBy: "minute", r: "2025-01-01 00:00:00 - 2025-01-02 00:00:00" }, "groupBy: must be one of"],
    [{ groupBy: "hour", r: "2000-01-01 00:00:00 - 2025-01-01 00:00:00" }, "emulator limit"],
  ])("rejects %j with 422", async (body, fragment) => {
    expectError(await h.api("POST", CONSUMPTION, body), 422, fragment);
  });

  it("needs the custom plan and a known pull stream", async () => {
    expectError(
      await h.api("POST", "/v2/streams/pull/3001/adinsertion/consumption", {
        groupBy: "day",
        r: "2025-01-01 00:00:00 - 2025-01-02 00:00:00",
      }),
      404,
    );
    await plan({ customPlan: false });
    expectError(
      await h.api("POST", CONSUMPTION, { groupBy: "day", r: "2025-01-01 00:00:00 - 2025-01-02 00:00:00" }),
      403,
      "custom plan",
    );
  });
});

describe("§4.9 list ad breaks", () => {
  const BREAKS = "/v2/zones/vod/pull/401/adinsertion/ad-breaks";

  it("pages 20 items with total/page/limit/pages; past the end is empty", async () => {
    const p1 = await h.api("GET", BREAKS);
    expect(p1.body).toMatchObject({ result: "success", total: 45, page: 1, limit: 20, pages: 3 });
    expect(p1.body.items).toHaveLength(20);
    for (const item of p1.body.items) expectFields(item, AD_BREAK);
    expect((await h.api("GET", `${BREAKS}?page=3`)).body.items).toHaveLength(5);
    expect((await h.api("GET", `${BREAKS}?page=4`)).body).toMatchObject({
      result: "success",
      items: [],
      page: 4,
      pages: 3,
    });
  });

  it("filters by break type, fill status, vast outcome and range", async () => {
    const pre = await h.api("GET", `${BREAKS}?break_type=pre-roll`);
    expect(pre.body.total).toBe(15);
    expect(pre.body.items.every((i: { breakType: string }) => i.breakType === "pre-roll")).toBe(true);
    const noFill = await h.api("GET", `${BREAKS}?fill_status=no_fill&vast_outcome=timeout`);
    expect(
      noFill.body.items.every(
        (i: { fillStatus: string; vastOutcome: string }) => i.fillStatus === "no_fill" && i.vastOutcome === "timeout",
      ),
    ).toBe(true);
    const r = await h.api(
      "GET",
      `${BREAKS}?${new URLSearchParams({ r: "2025-01-05 09:30:00 - 2025-01-06 09:30:00" })}`,
    );
    expect(r.body.total).toBe(5);
  });

  it.each(["break_type=post-roll", "fill_status=partial", "vast_outcome=http_3xx", "page=0", "client_ip=nope"])(
    "rejects ?%s with 422",
    async (q) => {
      expect((await h.api("GET", `${BREAKS}?${q}`)).status).toBe(422);
    },
  );

  it("needs the custom plan and the add-on", async () => {
    await plan({ advancedAnalytics: false });
    expectError(await h.api("GET", BREAKS), 403, "advanced analytics add-on");
    await plan({ customPlan: false, advancedAnalytics: true });
    expectError(await h.api("GET", BREAKS), 403, "custom plan");
  });
});
