/** AdBreakSlot check and diff (§4.2): per-type rules before any request, identity replaces. */
import { handler } from "../../provider/resources/ad-break-slot";
import { UNKNOWN } from "../../provider/inputs";

const check = (news: Record<string, unknown>) => handler.check({}, news);
const failures = async (news: Record<string, unknown>) => (await check(news)).failures ?? [];

describe("AdBreakSlot check", () => {
  it.each([
    { zoneId: 301, type: "preroll", maxDurationS: 30 },
    { zoneId: 301, type: "postroll", maxDurationS: 3600, breakId: "post", maxAds: 0, fillCeilingS: 0 },
    { zoneId: 301, type: "midroll", maxDurationS: 1, offset: 0 },
    { zoneId: 302, type: "midrollinterval", maxDurationS: 15, intervalS: 300, maxBreaks: 0 },
  ])("accepts a valid $type slot unchanged", async (news) => {
    expect(await check(news)).toEqual({ inputs: news });
  });

  it("requires offset for a midroll and intervalS for a midrollinterval, naming the rule", async () => {
    expect(await failures({ zoneId: 301, type: "midroll", maxDurationS: 30 })).toEqual([
      { property: "offset", reason: expect.stringMatching(/required for a midroll slot/) },
    ]);
    expect(await failures({ zoneId: 301, type: "midrollinterval", maxDurationS: 30 })).toEqual([
      { property: "intervalS", reason: expect.stringMatching(/required for a midrollinterval slot/) },
    ]);
  });

  it("forbids each per-type field on the other types", async () => {
    expect(await failures({ zoneId: 301, type: "preroll", maxDurationS: 30, offset: 5 })).toEqual([
      { property: "offset", reason: "is only allowed for a midroll slot, not preroll (§4.2)" },
    ]);
    expect(await failures({ zoneId: 301, type: "midroll", maxDurationS: 30, offset: 5, intervalS: 60, maxBreaks: 2 })).toEqual([
      { property: "intervalS", reason: "is only allowed for a midrollinterval slot, not midroll (§4.2)" },
      { property: "maxBreaks", reason: "is only allowed for a midrollinterval slot, not midroll (§4.2)" },
    ]);
    expect(await failures({ zoneId: 301, type: "midrollinterval", maxDurationS: 30, intervalS: 60, offset: 0 })).toEqual([
      { property: "offset", reason: expect.stringMatching(/only allowed for a midroll slot, not midrollinterval/) },
    ]);
    expect((await failures({ zoneId: 301, type: "postroll", maxDurationS: 30, maxBreaks: 0 }))[0].property).toBe("maxBreaks");
  });

  it.each([
    [{ maxDurationS: 0 }, "maxDurationS", /at least 1/],
    [{ maxDurationS: 3601 }, "maxDurationS", /at most 3600/],
    [{ maxDurationS: 1.5 }, "maxDurationS", /whole number/],
    [{ maxDurationS: undefined }, "maxDurationS", /is required/],
    [{ maxAds: -1 }, "maxAds", /at least 0/],
    [{ fillCeilingS: -1 }, "fillCeilingS", /at least 0/],
    [{ breakId: "" }, "breakId", /must not be empty/],
    [{ zoneId: 0 }, "zoneId", /positive/],
    [{ type: "bumper" }, "type", /preroll, midroll, postroll, midrollinterval/],
  ])("enforces ranges and enums: %j", async (patch, property, reason) => {
    const found = await failures({ zoneId: 301, type: "preroll", maxDurationS: 30, ...patch });
    expect(found).toEqual([{ property, reason: expect.stringMatching(reason) }]);
  });

  it("enforces the per-type minima of offset, intervalS and maxBreaks", async () => {
    expect((await failures({ zoneId: 1, type: "midroll", maxDurationS: 5, offset: -1 }))[0]).toMatchObject({ property: "offset", reason: expect.stringMatching(/at least 0/) });
    const interval = await failures({ zoneId: 1, type: "midrollinterval", maxDurationS: 5, intervalS: 0, maxBreaks: -1 });
    expect(interval.map((f) => f.property)).toEqual(["intervalS", "maxBreaks"]);
  });

  it("rejects unknown properties, naming them (intervalSeconds is sent for you)", async () => {
    const found = await failures({ zoneId: 302, type: "midrollinterval", maxDurationS: 5, intervalS: 60, intervalSeconds: 60 });
    expect(found.map((f) => f.reason).join()).toMatch(/intervalSeconds/);
  });

  it("does not judge rules that depend on a value unknown during preview", async () => {
    expect(await failures({ zoneId: UNKNOWN, type: "preroll", maxDurationS: 30 })).toEqual([]);
    expect(await failures({ zoneId: 301, type: UNKNOWN, maxDurationS: 30, offset: 10 })).toEqual([]);
    expect(await failures({ zoneId: 301, type: "midroll", maxDurationS: 30, offset: UNKNOWN })).toEqual([]);
  });

  it("requires adoptId to be the id the inputs name", async () => {
    const slot = { zoneId: 301, type: "midroll", maxDurationS: 30, offset: 60 };
    expect(await failures({ ...slot, adoptId: "301/midroll/60" })).toEqual([]);
    expect(await failures({ ...slot, adoptId: "301/preroll" })).toEqual([
      { property: "adoptId", reason: expect.stringContaining('"301/midroll/60"') },
    ]);
  });
});

describe("AdBreakSlot diff", () => {
  const slot = { zoneId: 301, type: "midroll", offset: 60, maxDurationS: 30, maxAds: 2 };
  const outputs = { ...slot, live: { offsetS: 60, maxDurationS: 30 }, state: "enabled", name: "x" };

  it("reports no change when the declared inputs equal the recorded ones", async () => {
    expect(await handler.diff("301/midroll/60", outputs, slot)).toMatchObject({ changes: false, replaces: [] });
  });

  it("updates settings in place", async () => {
    expect(await handler.diff("301/midroll/60", outputs, { ...slot, maxDurationS: 45 })).toEqual({
      changes: true,
      replaces: [],
      stables: ["zoneId", "type", "offset"],
      deleteBeforeReplace: false,
    });
  });

  it.each([
    ["zoneId", { zoneId: 302 }],
    ["type", { type: "preroll", offset: undefined }],
    ["offset", { offset: 120 }],
  ])("replaces on a new %s", async (key, patch) => {
    const diff = await handler.diff("301/midroll/60", outputs, { ...slot, ...patch });
    expect(diff).toMatchObject({ changes: true, replaces: [key] });
  });

  it("treats a removed setting as a change: the schedule PUT clears it", async () => {
    const { maxAds: _dropped, ...rest } = slot;
    expect(await handler.diff("301/midroll/60", outputs, rest)).toMatchObject({ changes: true, replaces: [] });
  });

  it("treats an unknown identity as a possible replacement", async () => {
    expect(await handler.diff("301/midroll/60", outputs, { ...slot, offset: UNKNOWN })).toMatchObject({ changes: true, replaces: ["offset"] });
  });
});
