/**
 * Every kind in one stack: the API calls each engine operation costs, from the emulator's
 * request log. A write per declared object on `up` and no read, none on `preview`, one read per object on
 * `refresh`; and each resource's serialized provider stays a one-line require.
 */
import type { TestStack } from "../helpers/engine";
import type { TestEmulator } from "../helpers/emulator";
import { startEmulatedStack, stopEmulatedStack } from "../helpers/emulated-stack";
import { loadSdk } from "../helpers/package";

const cdn = loadSdk();

describe("API calls per operation, every kind", () => {
  let emulator: TestEmulator;
  let test: TestStack;

  const program = async () => {
    new cdn.PushZoneSettings("zone", { zoneId: 101, customDomains: ["media.example.com"] });
    new cdn.VodPullDomainLock("lock", { zoneId: 401, enabled: true, domains: ["player.example.com"] });
    new cdn.HttpDomainLockBulk("bulk", { mode: "save", enabled: true, domains: ["example.com"] });
    new cdn.StreamStatus("status", { streamKind: "push", streamId: 3001, disabled: false });
    new cdn.AdBreakSlot("preroll", { zoneId: 301, type: "preroll", maxDurationS: 30 });
    new cdn.CampaignArchive("archive", { projectId: 1, campaignId: "cmp_7Hq2xK9d" });
    new cdn.TimeshiftStream("delayed", { name: "delayed", parent: 3001, timeshift: 60 });
    return {};
  };

  beforeAll(async () => ({ emulator, test } = await startEmulatedStack(program)));
  afterAll(() => stopEmulatedStack(test, emulator));

  it("up writes each object once", async () => {
    await emulator.clearRequests();
    const up = await test.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 8 });
    expect(await emulator.requestCounts()).toEqual({
      "POST /v2/zones/http/push/{zoneid}": 1,
      "POST /v2/zones/vod/pull/{zoneid}/domainlock": 1,
      // §4.11 answers without the settings; what was sent is recorded, never read back (the
      // account default's read is not in the spec).
      "POST /v2/zones/http/settings/security/domainlock": 1,
      "POST /v2/streams/push/{streamid}/status": 1,
      "POST /v2/zones/vod/push/{zoneid}/adinsertion/schedule": 1,
      "POST /v2/ad-manager/{pid}/campaigns/{cid}/archive": 1,
      "POST /v2/streams/timeshift/new": 1,
    });
  });

  it("preview calls nothing", async () => {
    await emulator.clearRequests();
    expect((await test.stack.preview()).changeSummary).toEqual({ same: 8 });
    expect(await emulator.requestCounts()).toEqual({});
  });

  it("refresh reads each object once", async () => {
    await emulator.clearRequests();
    const refresh = await test.stack.refresh();
    expect(refresh.summary.resourceChanges).toEqual({ same: 8 });
    expect(await emulator.requestCounts()).toEqual({
      "GET /v2/zones/http/push/{zoneid}": 1,
      "GET /v2/zones/vod/pull/{zoneid}": 1,
      "GET /v2/zones/http/settings/security/domainlock": 1,
      "GET /v2/streams/push/{streamid}": 1,
      "GET /v2/zones/vod/push/{zoneid}/adinsertion": 1,
      "GET /v2/ad-manager/{pid}/campaigns/{cid}": 1,
      "GET /v2/streams/timeshift/{streamid}": 1,
    });
  });

  it("stores no secret for a credential the API did not send (each would be a ciphertext in every checkpoint)", async () => {
    const state = await test.stack.exportStack();
    const delayed = (state.deployment.resources ?? []).find((r: any) => String(r.urn).endsWith("::delayed"));
    expect(delayed.outputs.streamId).toMatch(/^\d+$/);
    for (const key of ["secureTokenKey", "rtmpAuthPassword", "tokenizedPlaybackUrls"])
      expect(delayed.outputs).not.toHaveProperty(key);
    expect(JSON.stringify(delayed)).not.toContain("4dabf18193072939515e22adb298388d");
  });

  it("keeps every kind's serialized provider a one-line require under 1 KB", async () => {
    const state = await test.stack.exportStack();
    const providers = (state.deployment.resources ?? [])
      .filter((r: any) => String(r.type).startsWith("pulumi-nodejs:dynamic/cdnstream:"))
      .map((r: any) => r.inputs.__provider as string);
    expect(providers).toHaveLength(7);
    for (const provider of providers) {
      expect(Buffer.byteLength(provider)).toBeLessThanOrEqual(1024);
      expect(provider).toMatch(/require\("pulumi-cdnstream\/provider\/shims\/[a-z-]+"\)/);
    }
  });
});
