/** AdBreakSlot check and diff (§4.2): per-type rules before any request, identity replaces; and its answers to an add-only API. */
import { handler as handlerFor } from "./handler";
import { HandlerContext } from "../common/context";
import { UNKNOWN } from "../common/inputs";
import type { TestEmulator } from "../../test/helpers/emulator";
import { handlerAgainstEmulator, type HandlerAgainstEmulator } from "../../test/provider/against-emulator";

/** The handler as a provider host makes it: one context for the file, as for one run. */
const handler = handlerFor(new HandlerContext());

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
      { property: "offset", reason: "is only allowed for a midroll slot, not preroll" },
    ]);
    expect(
      await failures({ zoneId: 301, type: "midroll", maxDurationS: 30, offset: 5, intervalS: 60, maxBreaks: 2 }),
    ).toEqual([
      { property: "intervalS", reason: "is only allowed for a midrollinterval slot, not midroll" },
      { property: "maxBreaks", reason: "is only allowed for a midrollinterval slot, not midroll" },
    ]);
    expect(
      await failures({ zoneId: 301, type: "midrollinterval", maxDurationS: 30, intervalS: 60, offset: 0 }),
    ).toEqual([
      { property: "offset", reason: expect.stringMatching(/only allowed for a midroll slot, not midrollinterval/) },
    ]);
    expect((await failures({ zoneId: 301, type: "postroll", maxDurationS: 30, maxBreaks: 0 }))[0].property).toBe(
      "maxBreaks",
    );
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
    expect((await failures({ zoneId: 1, type: "midroll", maxDurationS: 5, offset: -1 }))[0]).toMatchObject({
      property: "offset",
      reason: expect.stringMatching(/at least 0/),
    });
    const interval = await failures({
      zoneId: 1,
      type: "midrollinterval",
      maxDurationS: 5,
      intervalS: 0,
      maxBreaks: -1,
    });
    expect(interval.map((f) => f.property)).toEqual(["intervalS", "maxBreaks"]);
  });

  it("rejects unknown properties, naming them (intervalSeconds is sent for you)", async () => {
    const found = await failures({
      zoneId: 302,
      type: "midrollinterval",
      maxDurationS: 5,
      intervalS: 60,
      intervalSeconds: 60,
    });
    expect(found.map((f) => f.reason).join()).toMatch(/intervalSeconds/);
  });

  it("does not judge rules that depend on a value unknown during preview", async () => {
    expect(await failures({ zoneId: UNKNOWN, type: "preroll", maxDurationS: 30 })).toEqual([]);
    expect(await failures({ zoneId: 301, type: UNKNOWN, maxDurationS: 30, offset: 10 })).toEqual([]);
    expect(await failures({ zoneId: 301, type: "midroll", maxDurationS: 30, offset: UNKNOWN })).toEqual([]);
  });

  it("refuses a resource the program found claiming a slot another resource claims, dropping the marker from the inputs", async () => {
    const slot = { zoneId: 301, type: "preroll", maxDurationS: 30 };
    const conflict = 'AdBreakSlot "b" and AdBreakSlot "a" both claim slot 301/preroll';
    expect(await check({ ...slot, slotClaimConflict: conflict })).toEqual({
      inputs: slot,
      failures: [{ property: "", reason: conflict }],
    });
    // Unknown at preview (the identity is not known yet): nothing to judge, and no input recorded.
    expect(await check({ ...slot, slotClaimConflict: UNKNOWN })).toEqual({ inputs: slot });
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
    expect(await handler.diff("301/midroll/60", outputs, { ...slot, offset: UNKNOWN })).toMatchObject({
      changes: true,
      replaces: ["offset"],
    });
  });
});

/**
 * Against an add-only API (§4.2 "adds"; a second slot of an identity is refused with 422): a
 * change fails saying the slot exists, what it holds, and what to do, never to correct a value;
 * a create that finds its slot already there succeeds where the roster shows the declared values.
 * First with the roster readable, then where the API has no read for it.
 */
describe("AdBreakSlot on an add-only API", () => {
  let emulator: TestEmulator;
  let stderr: jest.SpyInstance;
  let against: HandlerAgainstEmulator;
  const said = () => against.said();
  const preroll = async () => (await emulator.object("vodPushZones", 301)).adinsertion.vodAdBreakPolicy.preRoll;
  const slot = { zoneId: 301, type: "preroll", maxDurationS: 30 };
  let recorded: Record<string, unknown>;

  beforeAll(async () => {
    against = await handlerAgainstEmulator(handler, {
      apiKey: "emu_slot_unit_key_7a1d",
      profile: { slots: "add-only" },
    });
    ({ emulator, stderr } = against);
  });
  afterAll(() => against?.close());

  it("creates a slot once", async () => {
    const created = await handler.create(slot);
    expect(created.id).toBe("301/preroll");
    recorded = created.outs;
    expect(await preroll()).toEqual({ maxDurationS: 30, minAdLengthS: 0 });
  });

  it("refuses a change to the slot, saying it exists, what it holds and what to do, and changes nothing", async () => {
    const failure = await handler.update("301/preroll", recorded, { ...slot, maxDurationS: 45 }).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(failure?.message).toBe(
      "AdBreakSlot 301/preroll: the slot already exists on VoD push zone 301, and the API has no operation that updates or removes a slot " +
        '(the API only adds slots; it answered: "zone already has a preroll slot (at most one per zone): VoD push zone 301 keeps its slot; slots are ' +
        "only added, never updated or removed\"). It holds maxDurationS: 30 live (read from the zone's ad insertion settings), where the " +
        "program declares maxDurationS: 45. Either keep the live value (declare maxDurationS: 30), or remove the slot in the dashboard " +
        "and run `pulumi up` again to add it with the declared values.",
    );
    expect(failure?.message).not.toMatch(/[Cc]orrect the value/);
    expect(await preroll()).toEqual({ maxDurationS: 30, minAdLengthS: 0 });
  });

  it("succeeds where the slot already holds the declared values (changed in the dashboard to what is now declared)", async () => {
    await emulator.mutate("vodPushZones", 301, {
      adinsertion: { vodAdBreakPolicy: { preRoll: { maxDurationS: 45 } } },
    });
    const updated = await handler.update("301/preroll", recorded, { ...slot, maxDurationS: 45 });
    expect(updated.outs).toMatchObject({ maxDurationS: 45, live: { maxDurationS: 45, minAdLengthS: 0 } });
    await emulator.mutate("vodPushZones", 301, {
      adinsertion: { vodAdBreakPolicy: { preRoll: { maxDurationS: 30 } } },
    });
  });

  it("on create, takes over a slot already there with the declared values (an interrupted run)", async () => {
    stderr.mockClear();
    const created = await handler.create(slot);
    expect(created).toEqual({ id: "301/preroll", outs: recorded });
    expect(said()).toMatch(
      /AdBreakSlot 301\/preroll: already on the zone with the declared values \(the API refused a second one\); recorded as it is/,
    );
  });

  it("on create, says to take over a slot already there with other values by declaring them with adoptId", async () => {
    await expect(handler.create({ ...slot, maxDurationS: 20 })).rejects.toThrow(
      /It holds maxDurationS: 30 live .* where the program declares maxDurationS: 20\. To take it over as it is, declare maxDurationS: 30 with adoptId: "301\/preroll"; or remove the slot in the dashboard/,
    );
  });

  it("on create, says to adopt a slot already there whose declared setting the roster does not show", async () => {
    await expect(handler.create({ ...slot, maxAds: 3 })).rejects.toThrow(
      /It holds maxDurationS: 30 live \(read from the zone's ad insertion settings\); they do not show maxAds, so whether it holds the declared maxAds: 3 cannot be checked\. If it does \(say, an interrupted run added it\), take it over: set adoptId: "301\/preroll"/,
    );
  });

  it("says a midroll at a taken offset exists, naming the offset", async () => {
    const mid = { zoneId: 301, type: "midroll", offset: 60, maxDurationS: 20 };
    const created = await handler.create(mid);
    await expect(handler.update("301/midroll/60", created.outs, { ...mid, maxAds: 2 })).rejects.toThrow(
      /AdBreakSlot 301\/midroll\/60: the slot already exists .* "zone already has a midroll slot at offset 60 \(midroll offsets are unique per zone\)/,
    );
  });

  describe("where the API has no read for the roster", () => {
    beforeAll(() => emulator.setProfile({ reads: "spec-only" }));

    it("refuses a change, naming what the stack last recorded, and tries the read once", async () => {
      await emulator.clearRequests();
      stderr.mockClear();
      for (let i = 0; i < 2; i++) {
        await expect(handler.update("301/preroll", recorded, { ...slot, maxDurationS: 45 })).rejects.toThrow(
          /the slot already exists on VoD push zone 301, .* What it holds now cannot be shown \(the API has no read for a zone's slots\); the stack last recorded maxDurationS: 30, and the program declares maxDurationS: 45\. Either keep the value it holds \(declare it again\), or remove the slot in the dashboard/,
        );
      }
      expect(await emulator.requestCounts()).toEqual({
        "POST /v2/zones/vod/push/{zoneid}/adinsertion/schedule": 2,
        "GET /v2/zones/vod/push/{zoneid}/adinsertion": 1,
      });
      expect(said().match(/^warning: .*cannot detect drift for AdBreakSlot resources/gm)).toHaveLength(1);
    });

    it("on create, says to take the slot over with adoptId, and adoption then succeeds without a read", async () => {
      await expect(handler.create(slot)).rejects.toThrow(
        /Whether it holds the declared values cannot be checked \(the API has no read for a zone's slots\)\. If it does \(say, an interrupted run added it\), take it over: set adoptId: "301\/preroll" and run `pulumi up` again/,
      );
      stderr.mockClear();
      const adopted = await handler.create({ ...slot, adoptId: "301/preroll" });
      expect(adopted).toEqual({
        id: "301/preroll",
        outs: { ...slot, adoptId: "301/preroll", live: null, state: null, name: null },
      });
      expect(said()).toMatch(/warning: AdBreakSlot 301\/preroll: adopted on the declared values without reading it/);
    });

    it("keeps the state on refresh", async () => {
      expect(await handler.read("301/preroll", recorded)).toEqual({ id: "301/preroll", props: recorded });
    });
  });
});
