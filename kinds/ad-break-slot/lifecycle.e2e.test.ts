/**
 * AdBreakSlot lifecycle through the real CLI against the emulator, on VoD push zones 301 and 302
 * (ad insertion on, no slots in the fixture): schedule, empty preview, in-place update by
 * re-sending an identity (never a duplicate), replace on a new midroll offset (the old slot stays
 * live), drift and a slot gone from the roster, the midroll/midrollinterval exclusivity, adoption,
 * two resources claiming one slot refused at preview, destroy (slots stay live).
 */
import * as pulumi from "@pulumi/pulumi";
import type { TestStack } from "../../test/helpers/engine";
import type { TestEmulator } from "../../test/helpers/emulator";
import { startEmulatedStack, stopEmulatedStack } from "../../test/helpers/emulated-stack";
import { changedProperties } from "../../test/helpers/state";
import { loadSdk } from "../../test/helpers/package";

const cdn = loadSdk();
const SCHEDULE = "POST /v2/zones/vod/push/{zoneid}/adinsertion/schedule";

type SlotArgs = ConstructorParameters<typeof cdn.AdBreakSlot>[1];

describe("AdBreakSlot", () => {
  let emulator: TestEmulator;
  let test: TestStack;
  let slots: Record<string, SlotArgs>;

  const program = async () =>
    Object.fromEntries(Object.entries(slots).map(([name, args]) => [name, new cdn.AdBreakSlot(name, args).id]));
  const policy = async (zoneId: number) => (await emulator.object("vodPushZones", zoneId)).adinsertion.vodAdBreakPolicy;

  beforeAll(async () => ({ emulator, test } = await startEmulatedStack(program)));
  afterAll(() => stopEmulatedStack(test, emulator));

  it("schedules each slot once, then previews no changes with zero API calls", async () => {
    slots = {
      pre: { zoneId: 301, type: "preroll", maxDurationS: 30 },
      mid60: { zoneId: 301, type: "midroll", offset: 60, maxDurationS: 20 },
      mid120: { zoneId: 301, type: "midroll", offset: 120, maxDurationS: 20, breakId: "b120" },
      every: { zoneId: 302, type: "midrollinterval", intervalS: 300, maxDurationS: 15, maxBreaks: 4 },
    };
    const up = await test.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 5 });
    expect([up.outputs.pre.value, up.outputs.mid60.value, up.outputs.mid120.value, up.outputs.every.value]).toEqual([
      "301/preroll",
      "301/midroll/60",
      "301/midroll/120",
      "302/midrollinterval",
    ]);
    const zone301 = await policy(301);
    expect(zone301.preRoll).toEqual({ maxDurationS: 30, minAdLengthS: 0 });
    expect(zone301.midRolls).toEqual([
      { offsetS: 60, maxDurationS: 20 },
      { offsetS: 120, maxDurationS: 20, breakId: "b120" },
    ]);
    expect((await policy(302)).midRollInterval).toEqual({
      intervalS: 300,
      maxDurationS: 15,
      maxBreaks: 4,
      breakId: "mid",
    });
    // Each slot records its own roster entry, not the zone's whole roster (which would grow with
    // the square of the slots on a zone).
    const recorded = (await test.stack.exportStack()).deployment.resources ?? [];
    const live = (name: string) => recorded.find((r: any) => String(r.urn).endsWith(`::${name}`))?.outputs.live;
    expect(live("mid60")).toEqual({ offsetS: 60, maxDurationS: 20 });
    expect(live("pre")).toEqual({ maxDurationS: 30, minAdLengthS: 0 });
    expect(recorded.some((r: any) => "roster" in (r.outputs ?? {}))).toBe(false);

    await emulator.clearRequests();
    expect((await test.stack.preview()).changeSummary).toEqual({ same: 5 });
    expect(await emulator.requestCounts()).toEqual({});
  });

  it("refuses two resources claiming one slot at preview, naming both and sending nothing", async () => {
    await emulator.clearRequests();
    slots.twin = { zoneId: 301, type: "preroll", maxDurationS: 60 };
    let printed = "";
    const failure = await test.stack
      .preview({ onOutput: (text) => void (printed += text) })
      .then(() => undefined)
      .catch((err: Error) => err);
    expect(failure).toBeInstanceOf(Error);
    // One error of the second resource, naming the slot and what to do: not an unhandled
    // exception of the program with its stack trace.
    const said =
      /resource 'twin' has a problem: AdBreakSlot "twin" and AdBreakSlot "pre" both claim slot 301\/preroll \(VoD push zone 301 has one preroll slot\): .*Keep one resource for the slot, or give the other another zone, type or offset\./;
    expect(failure!.message).toMatch(said);
    const diagnostics = printed.slice(printed.indexOf("Diagnostics:"));
    expect(diagnostics.split("\n").filter((line) => /error: /.test(line))).toEqual([expect.stringMatching(said)]);
    expect(`${printed}\n${failure!.message}`).not.toMatch(/Unhandled exception|\bat new AdBreakSlot\b/);
    // Identities known only when an Output resolves are compared then, and the provider's check
    // refuses the second resource: at preview, and in an up, before anything is sent.
    slots.twin = {
      zoneId: pulumi.output(301),
      type: pulumi.output("midroll" as const),
      offset: pulumi.output(120),
      maxDurationS: 20,
    };
    const conflict =
      /resource 'twin' has a problem: AdBreakSlot "twin" and AdBreakSlot "mid120" both claim slot 301\/midroll\/120 \(VoD push zone 301 has one midroll slot per offset\)/;
    await expect(test.stack.preview()).rejects.toThrow(conflict);
    await expect(test.stack.up()).rejects.toThrow(conflict);
    expect(await emulator.requestCounts()).toEqual({});
    // Each run starts with no claims: the same program without the twin previews clean.
    delete slots.twin;
    expect((await test.stack.preview()).changeSummary).toEqual({ same: 5 });
  });

  it("updates in place by re-sending the identity: one slot per identity, a removed setting cleared", async () => {
    slots.pre = { ...slots.pre, maxDurationS: 45, maxAds: 3 };
    slots.mid60 = { ...slots.mid60, maxDurationS: 25 };
    slots.mid120 = { zoneId: 301, type: "midroll", offset: 120, maxDurationS: 20 }; // breakId dropped
    await emulator.clearRequests();
    const up = await test.stack.up();
    expect(up.summary.resourceChanges).toEqual({ update: 3, same: 2 });
    expect((await emulator.requestCounts())[SCHEDULE]).toBe(3);
    const zone301 = await policy(301);
    expect(zone301.preRoll).toEqual({ maxDurationS: 45, minAdLengthS: 0, maxAds: 3 });
    expect(zone301.midRolls).toEqual([
      { offsetS: 60, maxDurationS: 25 },
      { offsetS: 120, maxDurationS: 20 },
    ]);
  });

  it("replaces a midroll on a new offset and warns that the old slot stays live", async () => {
    slots.mid120 = { zoneId: 301, type: "midroll", offset: 180, maxDurationS: 20 };
    const up = await test.stack.up();
    expect(up.summary.resourceChanges).toEqual({ replace: 1, same: 4 });
    expect(up.outputs.mid120.value).toBe("301/midroll/180");
    expect(up.stdout).toMatch(
      /AdBreakSlot 301\/midroll\/120: no longer managed by the stack \(destroyed or replaced\), but the slot stays live/,
    );
    expect((await policy(301)).midRolls.map((m: { offsetS: number }) => m.offsetS)).toEqual([60, 120, 180]);
  });

  it("finds a changed slot on refresh, shows exactly that property, and reconverges", async () => {
    await emulator.mutate("vodPushZones", 301, {
      adinsertion: { vodAdBreakPolicy: { preRoll: { maxDurationS: 99 } } },
    });
    await test.stack.refresh();
    const events: any[] = [];
    const preview = await test.stack.preview({ onEvent: (e) => events.push(e) });
    expect(preview.changeSummary).toEqual({ update: 1, same: 4 });
    expect(changedProperties(events)).toEqual({ pre: ["maxDurationS"] });

    await test.stack.up();
    expect((await policy(301)).preRoll.maxDurationS).toBe(45);
    expect((await test.stack.preview()).changeSummary).toEqual({ same: 5 });
  });

  it("drops a slot gone from the roster on refresh, and the next up schedules it again", async () => {
    await emulator.mutate("vodPushZones", 301, { adinsertion: { vodAdBreakPolicy: { preRoll: null } } });
    const refresh = await test.stack.refresh();
    expect(refresh.summary.resourceChanges?.delete).toBe(1);
    expect((await test.stack.preview()).changeSummary).toEqual({ create: 1, same: 4 });
    await test.stack.up();
    expect((await policy(301)).preRoll).toEqual({ maxDurationS: 45, minAdLengthS: 0, maxAds: 3 });
  });

  it("fails clearly on a midrollinterval for a zone that holds midrolls, changing nothing", async () => {
    slots.bad = { zoneId: 301, type: "midrollinterval", intervalS: 600, maxDurationS: 10 };
    await expect(test.stack.up()).rejects.toThrow(
      /VoD push zone 301 already has midroll slots at offsets 60, 120, 180, and midroll and midrollinterval slots are mutually exclusive on a zone/,
    );
    expect((await policy(301)).midRollInterval).toBeNull();
    delete slots.bad;
  });

  it("refuses to adopt a slot whose live settings differ, sending no schedule", async () => {
    await emulator.mutate("vodPushZones", 302, {
      adinsertion: { vodAdBreakPolicy: { preRoll: { maxDurationS: 20, minAdLengthS: 0 } } },
    });
    slots.adopted = { zoneId: 302, type: "preroll", maxDurationS: 25, adoptId: "302/preroll" };
    await emulator.clearRequests();
    await expect(test.stack.up()).rejects.toThrow(/maxDurationS is 20 live but declared 25/);
    expect((await emulator.requestCounts())[SCHEDULE]).toBeUndefined();
  });

  it("adopts a slot whose live settings match, reading the roster and writing nothing", async () => {
    slots.adopted = { zoneId: 302, type: "preroll", maxDurationS: 20, adoptId: "302/preroll" };
    await emulator.clearRequests();
    const up = await test.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 1, same: 5 });
    expect(up.outputs.adopted.value).toBe("302/preroll");
    const counts = await emulator.requestCounts();
    expect(counts[SCHEDULE]).toBeUndefined();
    expect(counts["GET /v2/zones/vod/push/{zoneid}/adinsertion"]).toBe(1);
    expect((await test.stack.preview()).changeSummary).toEqual({ same: 6 });
  });

  it("destroys by releasing the slots, which stay live, and says so", async () => {
    const destroy = await test.stack.destroy();
    expect(destroy.summary.resourceChanges).toEqual({ delete: 6 });
    expect(destroy.stdout).toMatch(
      /AdBreakSlot 301\/preroll: no longer managed .* stays live on VoD push zone 301's ad-break timeline/,
    );
    const zone301 = await policy(301);
    expect(zone301.preRoll).not.toBeNull();
    expect(zone301.midRolls).toHaveLength(3);
    expect((await policy(302)).midRollInterval).not.toBeNull();
  });
});
