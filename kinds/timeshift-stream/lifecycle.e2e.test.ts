/**
 * TimeshiftStream lifecycle through the real CLI against the emulator: exactly one stream per
 * resource, no false diff after refresh (composed name, protocol order), the secure token key
 * encrypted in the raw state, replace (a new stream, the old one disabled), disable in place,
 * drift, adoption, a 503 on the never-retried create, destroy (disabled, not deleted).
 */
import * as path from "node:path";
import type { TestStack } from "../../test/helpers/engine";
import type { TestEmulator } from "../../test/helpers/emulator";
import { startEmulatedStack, stopEmulatedStack } from "../../test/helpers/emulated-stack";
import { changedProperties, expectCleanState, filesUnder } from "../../test/helpers/state";
import { loadSdk } from "../../test/helpers/package";

const cdn = loadSdk();
const CREATE = "POST /v2/streams/timeshift/new";
const STATUS = "POST /v2/streams/timeshift/{streamid}/status";
const TOKEN_KEY = "e2e-token-key-7Qx2Lm9v";

type StreamArgs = ConstructorParameters<typeof cdn.TimeshiftStream>[1];

describe("TimeshiftStream", () => {
  let emulator: TestEmulator;
  let test: TestStack;
  let streams: Record<string, StreamArgs>;

  const program = async () =>
    Object.fromEntries(
      Object.entries(streams).map(([name, args]) => {
        const stream = new cdn.TimeshiftStream(name, args);
        return [name, { id: stream.id, composedName: stream.composedName, playbackUrls: stream.playbackUrls }];
      }),
    );
  const timeshiftStreams = async () => (await emulator.state()).timeshiftStreams ?? {};
  const count = async () => Object.keys(await timeshiftStreams()).length;

  beforeAll(async () => ({ emulator, test } = await startEmulatedStack(program)));
  afterAll(() => stopEmulatedStack(test, emulator));

  let firstId: string;
  let secondId: string;

  it("creates exactly one stream, and a second up, a refresh and a preview change nothing", async () => {
    const before = await count();
    streams = {
      delayed: {
        name: "e2e-delayed",
        parent: 3001,
        timeshift: 300,
        codec: "h264",
        protocols: ["HLS", "DASH"],
        domainLock: { enabled: true, policy: "Y", domains: ["player.example"] },
        ndvr: { enabled: true, retentionDays: 30 },
        secureToken: { enabled: true, policy: "dynamic", key: TOKEN_KEY, timeoutSeconds: 600 },
      },
    };
    const up = await test.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 2 });
    expect(await count()).toBe(before + 1);
    const out = up.outputs.delayed.value;
    firstId = out.id;
    expect(out.composedName).toBe("k3v9q2-e2e-delayed");
    expect(out.playbackUrls.hls).toMatch(/k3v9q2-e2e-delayed\/playlist_dvr\.m3u8$/);
    const live = (await timeshiftStreams())[firstId];
    expect(live).toMatchObject({
      parentid: 3001,
      timeshift: { shift: 300 },
      disabled: "0",
      securetoken: { policy: "D", list: TOKEN_KEY },
    });

    expect((await test.stack.up()).summary.resourceChanges).toEqual({ same: 2 });
    expect(await count()).toBe(before + 1);

    // The API answers protocols in its own order and composes the name: neither is drift.
    await emulator.mutate("timeshiftStreams", firstId, { protocols: [["DASH", "HLS"]] });
    await test.stack.refresh();
    await emulator.clearRequests();
    expect((await test.stack.preview()).changeSummary).toEqual({ same: 2 });
    expect(await emulator.requestCounts()).toEqual({});
  });

  it("keeps the secure token key encrypted in the raw state files, and the provider small", async () => {
    const state = await test.stack.exportStack(); // --show-secrets: the key is in state...
    expect(JSON.stringify(state)).toContain(TOKEN_KEY);
    expectCleanState(state, emulator.apiKey);
    // §2.7 RTMP and RTSP playback addresses, plain and (secret) tokenized.
    const urls = (await timeshiftStreams())[firstId].playbackurls;
    const recorded = state.deployment.resources.find((r: any) => String(r.urn).endsWith("::delayed")).outputs;
    expect(recorded.playbackUrls).toMatchObject({ rtmp: urls.rtmp, rtsp: urls.rtsp });
    expect(JSON.parse(recorded.tokenizedPlaybackUrls.plaintext)).toEqual({
      hls: urls.tokenized.hls,
      dash: urls.tokenized.dash,
      rtmp: urls.tokenized.rtmp,
      rtsp: urls.tokenized.rtsp,
    });
    const raw = filesUnder(path.join(test.dir, "backend")); // ...but only as ciphertext on disk
    expect(raw.length).toBeGreaterThan(0);
    expect(raw.filter(([, text]) => text.includes(TOKEN_KEY) || text.includes(urls.tokenized.token.hls))).toEqual([]);
  });

  it("replaces on a new delay: one new stream, the old one disabled, and says so", async () => {
    const before = await count();
    streams.delayed = { ...streams.delayed, timeshift: 450 };
    const up = await test.stack.up();
    expect(up.summary.resourceChanges).toEqual({ replace: 1, same: 1 });
    secondId = up.outputs.delayed.value.id;
    expect(secondId).not.toBe(firstId);
    expect(await count()).toBe(before + 1);
    const all = await timeshiftStreams();
    expect(all[firstId].disabled).toBe("1");
    expect(all[secondId]).toMatchObject({ disabled: "0", timeshift: { shift: 450 } });
    expect(up.stdout).toMatch(new RegExp(`TimeshiftStream ${firstId} \\(k3v9q2-e2e-delayed\\): disabled, not deleted`));
  });

  it("disables in place through §4.4, creating nothing", async () => {
    const before = await count();
    streams.delayed = { ...streams.delayed, disabled: true };
    await emulator.clearRequests();
    const up = await test.stack.up();
    expect(up.summary.resourceChanges).toEqual({ update: 1, same: 1 });
    expect((await timeshiftStreams())[secondId].disabled).toBe("1");
    expect(await count()).toBe(before);
    expect((await emulator.requestCounts())[CREATE]).toBeUndefined();
  });

  it("finds drift on refresh, shows exactly that property, and reconverges", async () => {
    await emulator.mutate("timeshiftStreams", secondId, { disabled: "0" });
    await test.stack.refresh();
    const events: any[] = [];
    const preview = await test.stack.preview({ onEvent: (e) => events.push(e) });
    expect(preview.changeSummary).toEqual({ update: 1, same: 1 });
    expect(changedProperties(events)).toEqual({ delayed: ["disabled"] });

    await test.stack.up();
    expect((await timeshiftStreams())[secondId].disabled).toBe("1");
    expect((await test.stack.preview()).changeSummary).toEqual({ same: 2 });
  });

  it("refuses to adopt a stream whose readable fields differ, writing nothing", async () => {
    const before = await count();
    streams.adopted = { name: "main-event-delayed", parent: 3001, timeshift: 300, adoptId: "5001" };
    await emulator.clearRequests();
    await expect(test.stack.up()).rejects.toThrow(/adoptId "5001": .*timeshift is 600 live but declared 300/);
    const counts = await emulator.requestCounts();
    expect([counts[CREATE], counts[STATUS]]).toEqual([undefined, undefined]);
    expect(await count()).toBe(before);
  });

  it("adopts a stream whose readable fields match, reading it and writing nothing", async () => {
    const before = await count();
    streams.adopted = {
      name: "main-event-delayed",
      parent: 3001,
      timeshift: 600,
      protocols: ["HLS"],
      ndvr: { enabled: true, retentionDays: 7 },
      adoptId: "5001",
    };
    await emulator.clearRequests();
    const up = await test.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 1, same: 2 });
    expect(up.outputs.adopted.value.id).toBe("5001");
    const counts = await emulator.requestCounts();
    expect([counts[CREATE], counts[STATUS], counts["GET /v2/streams/timeshift/{streamid}"]]).toEqual([
      undefined,
      undefined,
      1,
    ]);
    expect(await count()).toBe(before);
    expect((await test.stack.preview()).changeSummary).toEqual({ same: 3 });
  });

  it("fails a create hit by a 503 without retrying it or duplicating, pointing at adoptId", async () => {
    const before = await count();
    streams.second = { name: "e2e-second", parent: 3001, timeshift: 60 };
    await emulator.clearRequests();
    await emulator.inject({ status: 503, count: 1 });
    await expect(test.stack.up()).rejects.toThrow(/may have reached the API.*adoptId/s);
    expect((await emulator.requestCounts())[CREATE]).toBe(1);
    expect((await count()) - before).toBeLessThanOrEqual(1);

    // The fault hit before the emulator created anything, so running again makes exactly one.
    const up = await test.stack.up();
    expect(up.summary.resourceChanges).toEqual({ create: 1, same: 3 });
    expect(await count()).toBe(before + 1);
  });

  it("destroys by disabling every stream, deleting none, and says so", async () => {
    const before = await count();
    const destroy = await test.stack.destroy();
    expect(destroy.summary.resourceChanges).toEqual({ delete: 4 });
    expect(destroy.stdout).toMatch(/TimeshiftStream 5001 \(k3v9q2-main-event-delayed\): disabled, not deleted/);
    const all = await timeshiftStreams();
    expect(Object.keys(all)).toHaveLength(before);
    for (const stream of Object.values(all)) expect(stream.disabled).toBe("1");
  });
});
