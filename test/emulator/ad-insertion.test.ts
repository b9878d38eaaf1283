/** §4.2 ad break schedule (slot rules), §4.18 creative, plan gates, the ad insertion read. */
import { expectError, expectFields, suiteHarness } from "./helpers";
import { AD_CONFIG, CREATIVE } from "./shapes";

const h = suiteHarness();

const SCHEDULE = "/v2/zones/vod/push/301/adinsertion/schedule";
const slot = (body: Record<string, unknown>) => h.api("POST", SCHEDULE, { _METHOD: "PUT", ...body });
const policy = async (zone = 301) =>
  (await h.api("GET", `/v2/zones/vod/push/${zone}/adinsertion`)).body.vodAdBreakPolicy;

describe("§4.2 add ad break schedule", () => {
  it("starts with no slots and returns the §2.8 configuration", async () => {
    expect(await policy()).toMatchObject({ preRoll: null, postRoll: null, midRollInterval: null, midRolls: [] });
    const res = await slot({ type: "preroll", maxDurationS: 30 });
    expect(res.status).toBe(200);
    expectFields(res.body, AD_CONFIG);
    expect(res.body).toMatchObject({
      result: "success",
      statusCode: 200,
      type: "ad-insertion",
      state: "enabled",
      insertionMode: "ssai",
    });
    expect(res.body.updateDate).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(res.body.vodAdBreakPolicy.preRoll).toEqual({ maxDurationS: 30, minAdLengthS: 0 });
  });

  it("upserts by identity: one preroll, one postroll, one midrollinterval, midrolls keyed by offset", async () => {
    await slot({ type: "preroll", maxDurationS: 30 });
    await slot({ type: "preroll", maxDurationS: 45, maxAds: 2, breakId: "pre-a" });
    await slot({ type: "postroll", maxDurationS: 20, fillCeilingS: 5 });
    await slot({ type: "midroll", offset: 600, maxDurationS: 60 });
    await slot({ type: "midroll", offset: 300, maxDurationS: 90 });
    await slot({ type: "midroll", offset: 600, maxDurationS: 120 });
    const p = await policy();
    expect(p.preRoll).toEqual({ maxDurationS: 45, minAdLengthS: 0, breakId: "pre-a", maxAds: 2 });
    expect(p.postRoll).toEqual({ maxDurationS: 20, minAdLengthS: 0, fillCeilingS: 5 });
    expect(p.midRolls).toEqual([
      { offsetS: 300, maxDurationS: 90 },
      { offsetS: 600, maxDurationS: 120 },
    ]);
    // Other zones are untouched.
    expect((await policy(302)).midRolls).toEqual([]);
  });

  it("stores a midrollinterval with its defaults (maxBreaks 0 = unlimited, breakId mid)", async () => {
    const res = await slot({ type: "midrollinterval", intervalS: 600, intervalSeconds: 600, maxDurationS: 90 });
    expect(res.body.vodAdBreakPolicy.midRollInterval).toEqual({
      intervalS: 600,
      maxDurationS: 90,
      maxBreaks: 0,
      breakId: "mid",
    });
    const upd = await slot({
      type: "midrollinterval",
      intervalS: 900,
      intervalSeconds: 900,
      maxDurationS: 60,
      maxBreaks: 4,
      breakId: "ad",
    });
    expect(upd.body.vodAdBreakPolicy.midRollInterval).toEqual({
      intervalS: 900,
      maxDurationS: 60,
      maxBreaks: 4,
      breakId: "ad",
    });
  });

  it("keeps midroll and midrollinterval mutually exclusive on a zone", async () => {
    await slot({ type: "midroll", offset: 0, maxDurationS: 60 });
    expectError(
      await slot({ type: "midrollinterval", intervalS: 60, intervalSeconds: 60, maxDurationS: 30 }),
      422,
      "type:",
      "mutually exclusive",
    );
    await h.admin("POST", "/__emulator/reset");
    await slot({ type: "midrollinterval", intervalS: 60, intervalSeconds: 60, maxDurationS: 30 });
    expectError(await slot({ type: "midroll", offset: 10, maxDurationS: 30 }), 422, "type:", "mutually exclusive");
  });

  it.each([
    [{ maxDurationS: 0 }, "maxDurationS: must be at least 1"],
    [{ maxDurationS: 3601 }, "maxDurationS: must be at most 3600"],
    [{ maxDurationS: 12.5 }, "maxDurationS: must be an integer"],
    [{ maxDurationS: undefined }, "maxDurationS: required"],
    [{ type: "bumper" }, "type: must be one of"],
    [{ _METHOD: "POST" }, '_METHOD: must be one of "PUT"'],
    [{ _METHOD: undefined }, "_METHOD: required"],
    [{ maxAds: -1 }, "maxAds: must be at least 0"],
    [{ fillCeilingS: -1 }, "fillCeilingS: must be at least 0"],
    [{ offset: 10 }, "offset: only allowed for type midroll"],
    [{ maxBreaks: 2 }, "maxBreaks: only allowed for type midrollinterval"],
    [{ color: "red" }, "color: unknown field"],
  ])("rejects preroll with %j", async (patch, fragment) => {
    expectError(
      await h.api("POST", SCHEDULE, { _METHOD: "PUT", type: "preroll", maxDurationS: 30, ...patch }),
      422,
      fragment,
    );
  });

  it.each([
    [{ type: "midroll", maxDurationS: 30 }, "offset: required for type midroll"],
    [{ type: "midroll", offset: -1, maxDurationS: 30 }, "offset: must be at least 0"],
    [{ type: "midrollinterval", maxDurationS: 30, intervalS: 60 }, "intervalSeconds: required"],
    [{ type: "midrollinterval", maxDurationS: 30, intervalSeconds: 60 }, "intervalS: required"],
    [
      { type: "midrollinterval", maxDurationS: 30, intervalS: 60, intervalSeconds: 90 },
      "intervalSeconds: must equal intervalS",
    ],
    [
      { type: "midrollinterval", maxDurationS: 30, intervalS: 60, intervalSeconds: 60, maxBreaks: -1 },
      "maxBreaks: must be at least 0",
    ],
  ])("rejects %j", async (body, fragment) => {
    expectError(await slot(body), 422, fragment);
  });

  it("accepts the boundary values", async () => {
    expect((await slot({ type: "midroll", offset: 0, maxDurationS: 1, maxAds: 0, fillCeilingS: 0 })).status).toBe(200);
    expect((await slot({ type: "postroll", maxDurationS: 3600 })).status).toBe(200);
  });

  it("answers 404 for an unknown zone and 422 for a zone without ad insertion", async () => {
    expectError(
      await h.api("POST", "/v2/zones/vod/push/399/adinsertion/schedule", {
        _METHOD: "PUT",
        type: "preroll",
        maxDurationS: 30,
      }),
      404,
    );
    expectError(
      await h.api("POST", "/v2/zones/vod/push/303/adinsertion/schedule", {
        _METHOD: "PUT",
        type: "preroll",
        maxDurationS: 30,
      }),
      422,
      "not enabled",
    );
    expectError(await h.api("GET", "/v2/zones/vod/push/303/adinsertion"), 404, "not enabled");
  });

  it("requires the custom plan (403 naming it)", async () => {
    await h.admin("POST", "/__emulator/mutate", { kind: "account", patch: { customPlan: false } });
    expectError(await slot({ type: "preroll", maxDurationS: 30 }), 403, "custom plan");
  });
});

describe("§4.18 show creative", () => {
  it("returns the §2.12 fields", async () => {
    const res = await h.api("GET", "/v2/zones/vod/push/301/adinsertion/creatives/cr-10452");
    expect(res.status).toBe(200);
    expect(res.body.result).toBe("success");
    expectFields(res.body, CREATIVE);
    expect(res.body).toMatchObject({ crid: "cr-10452", mediaWidth: 1920, durationS: 30 });
  });

  it("answers 404 for unknown creatives and zones", async () => {
    expectError(await h.api("GET", "/v2/zones/vod/push/301/adinsertion/creatives/cr-0"), 404, "cr-0");
    expectError(await h.api("GET", "/v2/zones/vod/push/1/adinsertion/creatives/cr-10452"), 404, "VoD push zone 1");
  });

  it("needs the custom plan and the advanced analytics add-on", async () => {
    await h.admin("POST", "/__emulator/mutate", { kind: "account", patch: { advancedAnalytics: false } });
    expectError(
      await h.api("GET", "/v2/zones/vod/push/301/adinsertion/creatives/cr-10452"),
      403,
      "advanced analytics add-on",
    );
    await h.admin("POST", "/__emulator/mutate", {
      kind: "account",
      patch: { customPlan: false, advancedAnalytics: true },
    });
    expectError(await h.api("GET", "/v2/zones/vod/push/301/adinsertion/creatives/cr-10452"), 403, "custom plan");
  });
});
