/**
 * Integration: every operation of the client against the real emulator (emulator/index.ts) over
 * real HTTP, then faults injected through its admin door.
 */
import { request } from "undici";
import { startEmulator, type RunningEmulator } from "../../emulator";
import {
  adInsertion,
  adManager,
  AuthenticationError,
  backups,
  CdnstreamClient,
  dns,
  NotFoundError,
  PermissionDeniedError,
  ServerError,
  streams,
  ValidationError,
  zones,
  type ClientOptions,
} from "../../client";
import { expectNoKey, rejection } from "./helpers";
import { stackWording } from "../../kinds/common/advice";

const KEY = "emu_test_key_5d1c0a7e93b2";
const FORBIDDEN = "emu_forbidden_key_0a9f3";
let emu: RunningEmulator;
let client: CdnstreamClient;

const admin = async (method: "GET" | "POST", path: string, body?: unknown) => {
  const res = await request(`${emu.url}/__emulator/${path}`, {
    method,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: { "content-type": "application/json" },
  });
  const json = (await res.body.json()) as Record<string, unknown>;
  if (res.statusCode >= 300) throw new Error(`admin ${path}: ${res.statusCode} ${JSON.stringify(json)}`);
  return json;
};
const counts = async () => ((await admin("GET", "requests")) as { counts: Record<string, number> }).counts;
const makeClient = (options: Partial<ClientOptions> = {}) =>
  new CdnstreamClient({
    ...stackWording(), // the advice a Pulumi user reads
    apiKey: KEY,
    baseUrl: emu.url,
    env: {},
    retryBaseDelayMs: 20,
    retryMaxDelayMs: 100,
    ...options,
  });

beforeAll(async () => {
  emu = await startEmulator({ apiKey: KEY, forbiddenKey: FORBIDDEN });
  client = makeClient();
});
afterAll(async () => {
  await client.close();
  await emu.close();
});
beforeEach(async () => {
  await admin("POST", "reset");
  await request(`${emu.url}/__emulator/requests`, { method: "DELETE" }).then((r) => r.body.dump());
});

describe("every operation against the emulator", () => {
  it("4.1 update HTTP push zone", async () => {
    const r = await zones.updatePushZone(client, 101, {
      cnames: "cdn.example.com",
      webhook: "https://hooks.example.com/transcoded",
    });
    expect(r.result).toBe("success");
    expect(r.zone.id).toBe(101);
  });

  it("4.2 add ad break slot", async () => {
    const r = await adInsertion.addAdBreakSlot(client, 301, { type: "midroll", maxDurationS: 60, offset: 600 });
    expect(r.result).toBe("success");
  });

  it("4.3 archive campaign", async () => {
    const r = await adManager.archiveCampaign(client, 1, "cmp_7Hq2xK9d");
    expect(r.campaign.id).toBe("cmp_7Hq2xK9d");
  });

  it("4.4 disable and enable push and timeshift streams", async () => {
    expect((await streams.setStreamStatus(client, "push", 3001, { disabled: 1 })).stream.disabled).toBe("1");
    expect((await streams.setStreamStatus(client, "push", "3001", { disabled: 0 })).stream.disabled).toBe("0");
    expect((await streams.setStreamStatus(client, "timeshift", 5001, { disabled: 1 })).stream.disabled).toBe("1");
  });

  it("4.5 update VoD pull domain lock", async () => {
    const r = await zones.updateVodPullDomainLock(client, 401, {
      enabled: "Y",
      policy: "Y",
      list: "example.com,example.org",
      noreferer: "N",
    });
    expect(r.zone.domainlock).toMatchObject({ enabled: "Y", list: "example.com,example.org" });
  });

  it("4.6 tracking report", async () => {
    const r = await adInsertion.getTrackingReport(client, 3001, {
      r: "2025-01-06 00:00:00 - 2025-01-07 00:00:00",
      granularity: 60,
    });
    expect(r.result).toBe("success");
    expect(Array.isArray(r.data)).toBe(true);
  });

  it("4.7 ad-pod requests, one page and all pages", async () => {
    const page = await adManager.listAdPodRequests(client, 1, { page: 1 });
    expect(page.items.length).toBeGreaterThan(0);
    const all = await adManager.adPodRequests(client, 1).all();
    expect(all.length).toBe(page.total);
    const iterated: string[] = [];
    for await (const item of adManager.adPodRequests(client, 1)) iterated.push(String(item.id));
    expect(iterated).toEqual(all.map((i) => i.id));
  });

  it("4.8 consumption", async () => {
    const r = await adInsertion.getConsumption(client, 4001, {
      groupBy: "day",
      r: "2025-01-01 00:00:00 - 2025-01-08 00:00:00",
    });
    expect(r.result).toBe("success");
  });

  it("4.9 ad breaks, all pages", async () => {
    const first = await adInsertion.listAdBreaks(client, 401, { page: 1 });
    const all = await adInsertion.adBreaks(client, 401).all();
    expect(all.length).toBe(first.total);
  });

  it("4.10 pull zones: every page until the empty one", async () => {
    const first = await zones.listPullZones(client, 1);
    expect(first.zones).toHaveLength(20); // the emulator's default page size; the client assumes none
    const all = await zones.pullZones(client).all();
    expect(new Set(all.map((z) => z.id)).size).toBe(all.length);
    expect(all.length).toBeGreaterThan(20);
    let n = 0;
    for await (const _ of zones.pullZones(client)) n++;
    expect(n).toBe(all.length);
  });

  it("4.11 bulk domain lock", async () => {
    const r = await zones.updateBulkDomainLock(client, { enabled: "Y", list: "example.com", mode: "save" });
    expect(r.result).toBe("success");
  });

  it("4.12 purge details", async () => {
    const r = await zones.getPurge(client, 101, "pg-7f3a9c21");
    expect(r.id).toBe("pg-7f3a9c21");
  });

  it("4.13 campaign targeting", async () => {
    const r = await adManager.getTargeting(client, 1, "cmp_7Hq2xK9d");
    expect(typeof r.from_cache).toBe("boolean");
  });

  it("4.14 DNS zones", async () => {
    const r = await dns.listDnsZones(client);
    expect(r.domains.length).toBeGreaterThan(0);
  });

  it("4.15 ad manager projects", async () => {
    const r = await adManager.listProjects(client);
    expect(r.projects.length).toBeGreaterThan(0);
  });

  it("4.16 and 4.17 critical backups", async () => {
    const list = await backups.listBackups(client);
    const one = await backups.getBackup(client, list.backups[0]!.id);
    expect(one.backup.id).toBe(list.backups[0]!.id);
  });

  it("4.18 creative", async () => {
    const r = await adInsertion.getCreative(client, 301, "cr-10452");
    expect(r.crid).toBe("cr-10452");
  });

  it("4.19 timeshift create", async () => {
    const r = await streams.createTimeshiftStream(client, {
      name: "late-show",
      codec: "h264",
      protocols: ["HLS"],
      timeshift: 120,
      parent: 3001,
      ndvr: { enabled: "Y", retention: 7 },
    });
    expect(r.stream.type).toBe("timeshift");
  });

  it("read extensions", async () => {
    expect((await zones.getPushZone(client, 101)).zone.id).toBe(101);
    expect((await zones.getVodPullZone(client, 401)).zone.id).toBe(401);
    expect((await streams.getStream(client, "push", 3001)).stream.id).toBeDefined();
    expect((await streams.getStream(client, "timeshift", 5001)).stream.id).toBeDefined();
    expect((await adManager.getCampaign(client, 1, "cmp_3Lm8vR2p")).campaign.id).toBe("cmp_3Lm8vR2p");
    await adInsertion.getAdInsertion(client, 301);
  });
});

describe("errors from the emulator", () => {
  it("a wrong key is a 401 whose error does not contain the key", async () => {
    const wrong = makeClient({ apiKey: "emu_wrong_key_c0ffee1234" });
    const err = await rejection(dns.listDnsZones(wrong));
    await wrong.close();
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(err.message).toMatch(/^API key rejected \(401\) on GET \/v2\/dns: .+cdnstream:apiKey/);
    expectNoKey(err, "emu_wrong_key_c0ffee1234");
  });

  it("an account restriction is a 403", async () => {
    const restricted = makeClient({ apiKey: FORBIDDEN });
    const err = await rejection(dns.listDnsZones(restricted));
    await restricted.close();
    expect(err).toBeInstanceOf(PermissionDeniedError);
    expectNoKey(err, FORBIDDEN);
  });

  it("an unknown id is a 404, a rule broken server-side a 422", async () => {
    expect(await rejection(backups.getBackup(client, 999_999))).toBeInstanceOf(NotFoundError);
    await adInsertion.addAdBreakSlot(client, 302, { type: "midroll", maxDurationS: 30, offset: 60 });
    // §4.2: midroll and midrollinterval are mutually exclusive on a zone (checked by the API, not knowable here).
    const err = await rejection(
      adInsertion.addAdBreakSlot(client, 302, { type: "midrollinterval", maxDurationS: 30, intervalS: 300 }),
    );
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).sent).toBe(true);
  });

  it("with strictSpec, a read extension answers 404", async () => {
    const strict = await startEmulator({ apiKey: KEY, strictSpec: true });
    const c = new CdnstreamClient({ apiKey: KEY, baseUrl: strict.url, env: {} });
    try {
      expect(await rejection(zones.getPushZone(c, 101))).toBeInstanceOf(NotFoundError);
    } finally {
      await c.close();
      await strict.close();
    }
  });
});

describe("faults injected through the admin door", () => {
  it("rides out two 429s with Retry-After: 1", async () => {
    await admin("POST", "faults", { status: 429, retryAfter: 1, count: 2 });
    const started = Date.now();
    const r = await dns.listDnsZones(client);
    expect(r.domains.length).toBeGreaterThan(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    expect((await counts())["GET /v2/dns"]).toBe(3);
  });

  it("rides out a 503", async () => {
    await admin("POST", "faults", { status: 503, count: 1 });
    await zones.updatePushZone(client, 102, { cnames: "media.example.com" });
    expect((await counts())["POST /v2/zones/http/push/{zoneid}"]).toBe(2);
  });

  it("rides out a dropped connection and a slow response on GET", async () => {
    // undici's headers timer ticks at about 0.5 s, so the slow answer is made much slower than the timeout.
    const retries: string[] = [];
    const quick = makeClient({ timeoutMs: 300, logger: (line) => retries.push(line) });
    try {
      await admin("POST", "faults", { dropConnection: true, count: 1 });
      await admin("POST", "faults", { latencyMs: 2500, count: 1 });
      const started = Date.now();
      await backups.listBackups(quick);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(retries).toEqual([
        expect.stringMatching(/^GET \/v2\/cb: attempt 1 got (UND_ERR_SOCKET|ECONNRESET); retrying in \d+ ms$/),
        expect.stringMatching(/^GET \/v2\/cb: attempt 2 got UND_ERR_HEADERS_TIMEOUT; retrying in \d+ ms$/),
      ]);
    } finally {
      await quick.close();
    }
  });

  it("4.19 under a 503 fails once, with no retry: exactly one create reaches the API", async () => {
    await admin("POST", "faults", { status: 503, count: 3 });
    const err = await rejection(
      streams.createTimeshiftStream(client, { name: "once-only", parent: 3001, timeshift: 60 }),
    );
    expect(err).toBeInstanceOf(ServerError);
    expect(err.message).toMatch(/^Server error \(503\) on POST \/v2\/streams\/timeshift\/new: .*Not retried/);
    expect((await counts())["POST /v2/streams/timeshift/new"]).toBe(1);
  });

  it("4.19 rides out a 429: the API refused it unprocessed, so one stream results", async () => {
    const before = Object.keys(
      ((await admin("GET", "state")) as { timeshiftStreams?: object }).timeshiftStreams ?? {},
    ).length;
    await admin("POST", "faults", { status: 429, retryAfter: 1, count: 1 });
    const r = await streams.createTimeshiftStream(client, { name: "refused-once", parent: 3001, timeshift: 60 });
    expect(r.stream.type).toBe("timeshift");
    expect((await counts())["POST /v2/streams/timeshift/new"]).toBe(2);
    const after = ((await admin("GET", "state")) as { timeshiftStreams: object }).timeshiftStreams;
    expect(Object.keys(after).length).toBe(before + 1);
  });

  it("4.19 waits out a slow answer past the normal timeout instead of abandoning a create that will happen", async () => {
    const quick = makeClient({ timeoutMs: 300, unretriedTimeoutMs: 10_000 });
    try {
      await admin("POST", "faults", { latencyMs: 1500, count: 1 });
      const r = await streams.createTimeshiftStream(quick, { name: "slow-answer", parent: 3001, timeshift: 60 });
      expect(r.stream.name).toMatch(/-slow-answer$/);
      expect((await counts())["POST /v2/streams/timeshift/new"]).toBe(1);
    } finally {
      await quick.close();
    }
  });

  it("4.19 on a dropped connection is not retried either", async () => {
    await admin("POST", "faults", { dropConnection: true, count: 3 });
    await rejection(streams.createTimeshiftStream(client, { name: "once-only", parent: 3001 }));
    expect((await counts())["POST /v2/streams/timeshift/new"]).toBe(1);
  });
});
