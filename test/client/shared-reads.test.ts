/**
 * One request per object: overlapping reads of one path share one request, counted by the
 * emulator's request log; reads one after another each go to the API (not a cache).
 */
import { request } from "undici";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { adInsertion, CdnstreamClient, NotFoundError, streams, zones } from "../../client";
import { rejection } from "./helpers";

const KEY = "emu_shared_reads_key_3f9a";
const N = 6;
const READ = "GET /v2/zones/http/push/{zoneid}";
let emu: RunningEmulator;
let client: CdnstreamClient;

const counts = async (): Promise<Record<string, number>> => {
  const res = await request(`${emu.url}/__emulator/requests`);
  return ((await res.body.json()) as { counts: Record<string, number> }).counts;
};

beforeAll(async () => {
  emu = await startEmulator({ apiKey: KEY });
  client = new CdnstreamClient({ apiKey: KEY, baseUrl: emu.url, env: {}, retryBaseDelayMs: 10, retryMaxDelayMs: 20 });
});
afterAll(async () => {
  await client.close();
  await emu.close();
});
beforeEach(async () => {
  await request(`${emu.url}/__emulator/reset`, { method: "POST" }).then((r) => r.body.dump());
  await request(`${emu.url}/__emulator/requests`, { method: "DELETE" }).then((r) => r.body.dump());
});

describe("overlapping reads of one path", () => {
  it(`${N} concurrent reads of one zone make 1 request; each caller gets its own copy`, async () => {
    const results = await Promise.all(Array.from({ length: N }, () => zones.getPushZone(client, 101)));
    expect((await counts())[READ]).toBe(1);
    for (const r of results) expect(r).toStrictEqual(results[0]);
    expect(new Set(results).size).toBe(N);
    expect(new Set(results.map((r) => r.zone)).size).toBe(N);
    // One caller changing what it got changes nobody else's.
    results[0]!.zone.cnames = "changed.example.com";
    delete results[0]!.zone.cache;
    expect(results[1]!.zone.cnames).not.toBe("changed.example.com");
    expect(results[1]!.zone.cache).toBeDefined();
  });

  it(`${N} sequential reads of one zone make ${N} requests (not a cache)`, async () => {
    for (let i = 0; i < N; i++) await zones.getPushZone(client, 101);
    expect((await counts())[READ]).toBe(N);
  });

  it("a read that starts after the shared answer arrived is sent again, and sees a write made in between", async () => {
    await Promise.all([zones.getPushZone(client, 101), zones.getPushZone(client, 101)]);
    await zones.updatePushZone(client, 101, { cnames: "later.example.com" });
    const after = await zones.getPushZone(client, 101);
    expect(after.zone.cnames).toBe("later.example.com");
    expect((await counts())[READ]).toBe(2);
  });

  it("a read that starts after a write of this client never joins a read sent before it", async () => {
    // The first read is held 400 ms by the emulator, so it is still in flight after the write.
    const fault = { latencyMs: 400, operation: READ, count: 1 };
    await request(`${emu.url}/__emulator/faults`, {
      method: "POST",
      body: JSON.stringify(fault),
      headers: { "content-type": "application/json" },
    }).then((r) => r.body.dump());
    const before = zones.getPushZone(client, 101);
    await zones.updatePushZone(client, 101, { cnames: "written.example.com" });
    const after = await zones.getPushZone(client, 101);
    expect(after.zone.cnames).toBe("written.example.com");
    await before;
    expect((await counts())[READ]).toBe(2);
  });

  it("reads of different objects are not shared: one request per object", async () => {
    await Promise.all([101, 102, 101, 102, 101].map((id) => zones.getPushZone(client, id)));
    await Promise.all([
      streams.getStream(client, "push", 3001),
      streams.getStream(client, "push", "3001"),
      streams.getStream(client, "timeshift", 5001),
    ]);
    const c = await counts();
    expect(c[READ]).toBe(2);
    expect(c["GET /v2/streams/push/{streamid}"]).toBe(1);
    expect(c["GET /v2/streams/timeshift/{streamid}"]).toBe(1);
  });

  it("several slots of one zone read one roster once", async () => {
    const rosters = await Promise.all(Array.from({ length: 8 }, () => adInsertion.getAdInsertion(client, 301)));
    expect((await counts())["GET /v2/zones/vod/push/{zoneid}/adinsertion"]).toBe(1);
    expect(new Set(rosters).size).toBe(8);
  });

  it("writes are never shared, even with the same body", async () => {
    await Promise.all(
      Array.from({ length: 3 }, () => zones.updatePushZone(client, 101, { cnames: "same.example.com" })),
    );
    expect((await counts())["POST /v2/zones/http/push/{zoneid}"]).toBe(3);
  });

  it("a read with its own AbortSignal is sent on its own", async () => {
    const controller = new AbortController();
    await Promise.all([zones.getPushZone(client, 101), zones.getPushZone(client, 101, { signal: controller.signal })]);
    expect((await counts())[READ]).toBe(2);
  });

  it("two clients (two configurations) do not share", async () => {
    const other = new CdnstreamClient({ apiKey: KEY, baseUrl: emu.url, env: {} });
    try {
      await Promise.all([zones.getPushZone(client, 101), zones.getPushZone(other, 101)]);
      expect((await counts())[READ]).toBe(2);
    } finally {
      await other.close();
    }
  });

  it("a failure is shared: one request, every caller gets the API's 404", async () => {
    const errors = await Promise.all(Array.from({ length: 3 }, () => rejection(zones.getPushZone(client, 999_999))));
    for (const e of errors) expect(e).toBeInstanceOf(NotFoundError);
    expect((await counts())[READ]).toBe(1);
  });

  it("shareReads: false sends every read", async () => {
    const own = new CdnstreamClient({ apiKey: KEY, baseUrl: emu.url, env: {}, shareReads: false });
    try {
      await Promise.all(Array.from({ length: 3 }, () => zones.getPushZone(own, 101)));
      expect((await counts())[READ]).toBe(3);
    } finally {
      await own.close();
    }
  });
});

describe("reuseReads: each object read once between writes (the provider host)", () => {
  // A host of its own per test, as each engine operation starts one.
  let host: CdnstreamClient;
  beforeEach(() => {
    host = new CdnstreamClient({ apiKey: KEY, baseUrl: emu.url, env: {}, reuseReads: true });
  });
  afterEach(() => host.close());

  it(`${N} sequential reads of one zone make 1 request, each caller getting its own copy`, async () => {
    const results = [];
    for (let i = 0; i < N; i++) results.push(await zones.getPushZone(host, 101));
    expect((await counts())[READ]).toBe(1);
    expect(new Set(results).size).toBe(N);
    results[0]!.zone.cnames = "changed.example.com";
    expect(results[1]!.zone.cnames).not.toBe("changed.example.com");
  });

  it("a write forgets every answer kept: the next read goes to the API and sees it", async () => {
    await zones.getPushZone(host, 101);
    await zones.getPushZone(host, 102);
    await zones.updatePushZone(host, 101, { cnames: "kept.example.com" });
    expect((await zones.getPushZone(host, 101)).zone.cnames).toBe("kept.example.com");
    await zones.getPushZone(host, 102);
    expect((await counts())[READ]).toBe(4);
  });

  it("keeps no failure: a read that failed is sent again", async () => {
    await expect(zones.getPushZone(host, 999_999)).rejects.toBeInstanceOf(NotFoundError);
    await expect(zones.getPushZone(host, 999_999)).rejects.toBeInstanceOf(NotFoundError);
    expect((await counts())[READ]).toBe(2);
  });
});
