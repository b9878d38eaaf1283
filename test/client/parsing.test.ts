/** Lenient response parsing: real-looking payloads with numeric strings, nulls and unknown fields. */
import { adInsertion, adManager, backups, dns, ResponseShapeError, streams, zones } from "../../client";
import { JSON_HEADERS, mockClient, rejection } from "./helpers";

const pushZone = {
  type: "push",
  id: 101,
  serviceid: 418223,
  alias: "media",
  hashid: "a1b2c3d4e5f6",
  mode: "http",
  disabled: "0",
  optimizer: "0",
  cnames: "cdn.example.com",
  cnamesArr: ["cdn.example.com"],
  created_at: "2025-01-06T09:30:00Z",
  deleted: null,
  linkedVideoManager: null,
  rclone: 0,
  ssl: {
    http: "Y",
    http2: "Y",
    redirect: "N",
    mode: "S",
    certid: null,
    letsencrypt: null,
    enabled: "Y",
    warning: false,
  },
  cache: {
    smart: "1",
    cache: "24h",
    expiry: "3600s",
    querystring: "N",
    cachecontrol: "Y",
    usestale: "Y",
    revalidate: "N",
    cacheInSecs: "86400",
    cacheInMins: 1440,
    expiryInSecs: 3600,
    expiryInMins: "60",
  },
  edge: {
    compression: "Y",
    disposition: "N",
    stripcookie: "N",
    xff: "Y",
    cors: "N",
    webp: "N",
    pseudostreaming: "N",
    wp: "N",
    lfo: "N",
    prefresh: "N",
    compressionlevel: "6",
  },
  bwlimit: { enabled: "N", policy: "0", rate: 0, rateafter: 0, payg: "N", active: "N" },
  securetoken: {
    enabled: "N",
    active: "N",
    policy: "F",
    keyip: "N",
    list: "",
    timeout: 3600,
    session: "0",
    ips: "",
    dirs: null,
  },
  ftpdetails: { username: "u_418223", password: "********" },
  cdnservice: {
    purgeurls: [],
    purgeurl: "https://p.example/purge",
    authtoken: "tok",
    listurl: "https://p.example/list",
  },
  brandNewField: { nested: [1, 2, 3] },
};

describe("lenient parsing", () => {
  it("parses a push zone: numeric strings to numbers, nulls allowed, unknown fields kept", async () => {
    const { pool, client } = mockClient();
    pool
      .intercept({ path: "/v2/zones/http/push/101", method: "POST" })
      .reply(
        200,
        { result: "success", message: "Zone updated", zone: pushZone, warnings: ["cname not verified yet"], extra: 1 },
        { headers: JSON_HEADERS },
      );
    const r = await zones.updatePushZone(client, 101, { cnames: "cdn.example.com" });
    expect(r.zone.cache).toMatchObject({
      cacheInSecs: 86400,
      cacheInMins: 1440,
      expiryInSecs: 3600,
      expiryInMins: 60,
      smart: "1",
    });
    expect(r.zone.edge?.compressionlevel).toBe(6);
    expect(r.zone.bwlimit?.policy).toBe(0);
    expect(r.zone.ssl).toMatchObject({ certid: null, letsencrypt: null });
    expect((r.zone as Record<string, unknown>).brandNewField).toEqual({ nested: [1, 2, 3] });
    expect((r as Record<string, unknown>).extra).toBe(1);
    expect(r.warnings).toEqual(["cname not verified yet"]);
  });

  it("a value of an undocumented JSON type is a shape error naming the field, with the raw body", async () => {
    const { pool, client } = mockClient();
    const body = JSON.stringify({ result: "success", zone: { ...pushZone, ssl: { ...pushZone.ssl, http: 5 } } });
    pool.intercept({ path: "/v2/zones/http/push/101", method: "GET" }).reply(200, body, { headers: JSON_HEADERS });
    const err = (await rejection(zones.getPushZone(client, 101))) as ResponseShapeError;
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err.issues[0]!.field).toBe("zone.ssl.http");
    expect(err.rawBody).toBe(body);
  });

  it("refuses a numeric string that is not a number", async () => {
    const { pool, client } = mockClient();
    pool
      .intercept({ path: "/v2/zones/http/push/101", method: "GET" })
      .reply(
        200,
        { result: "success", zone: { ...pushZone, cache: { cacheInSecs: "1 day" } } },
        { headers: JSON_HEADERS },
      );
    const err = (await rejection(zones.getPushZone(client, 101))) as ResponseShapeError;
    expect(err.issues[0]!.field).toBe("zone.cache.cacheInSecs");
  });

  it("parses a timeshift stream with null ingests, string ids and 0/1 flags", async () => {
    const { pool, client } = mockClient();
    const stream = {
      type: "timeshift",
      id: "5001",
      serviceid: 418223,
      name: "k3v9q2-late",
      codec: "h264",
      ingests: [["RTMP"], [], null],
      protocols: [["HLS", "DASH"]],
      parentid: 3001,
      parent: { id: 3001, name: "live", codec: "h264", stype: "push", rtmpauth: "N" },
      disabled: "1",
      draft: "0",
      lastseen_at: false,
      timeshift: { shift: "120", type: "stream" },
      messages: { warning: ["Stream is disabled"] },
      adInsertion: null,
      playbackurls: { hls: "https://x/playlist_dvr.m3u8", tokenized: null, players: {} },
      platforms: [
        {
          id: 1,
          rtmp: "rtmp://x",
          auth: "N",
          isSRT: false,
          schedule: "instant",
          scheduletime: null,
          disabled: "0",
          platform_id: 4,
          video_id: "v",
        },
      ],
    };
    pool
      .intercept({ path: "/v2/streams/timeshift/5001/status", method: "POST" })
      .reply(200, { result: "success", message: "Stream disabled", stream }, { headers: JSON_HEADERS });
    const r = await streams.setStreamStatus(client, "timeshift", 5001, { disabled: 1 });
    expect(r.stream).toMatchObject({ id: "5001", disabled: "1", timeshift: { shift: 120 } });
  });

  it("parses DNS zones, projects and campaigns as the spec describes them", async () => {
    const { pool, client } = mockClient();
    pool.intercept({ path: "/v2/dns", method: "GET" }).reply(
      200,
      {
        result: "success",
        domains: [
          {
            id: 8801,
            serviceid: 418223,
            domain: "example.com",
            meta: { type: "master", hasBulk: false, is_cloud: 0, isUpdated: 1 },
            soa: { serialNumber: "2025010601", defaultTTL: "3600" },
            deleted: null,
            proxied: [],
            linkedZones: {},
            stats: { queries: 10, records: 4 },
          },
        ],
        nameservers: ["ns1.example.net", "ns2.example.net"],
      },
      { headers: JSON_HEADERS },
    );
    pool.intercept({ path: "/v2/ad-manager", method: "GET" }).reply(
      200,
      {
        result: "success",
        projects: [
          {
            id: 1,
            uuid: "3f6c2a8e-9b1d-4e57-a0c4-7d2e5f813b90",
            name: "Main",
            settings: { timezone: "Europe/Berlin", advanced_analytics: 1 },
            usage_this_month: { ad_requests: 10, impressions: 8, fill_rate: "80.5", completion_rate: 71.25 },
          },
        ],
        projects_limit: 5,
        projects_available: 4,
      },
      { headers: JSON_HEADERS },
    );
    const d = await dns.listDnsZones(client);
    expect(d.domains[0]!.soa?.serialNumber).toBe("2025010601");
    const p = await adManager.listProjects(client);
    expect(p.projects[0]!.usage_this_month?.fill_rate).toBe(80.5);
    expect(p.projects_available).toBe(4);
  });

  it("parses page counters sent as numeric strings", async () => {
    const { pool, client } = mockClient();
    pool.intercept({ path: /^\/v2\/zones\/vod\/pull\/401\/adinsertion\/ad-breaks/, method: "GET" }).reply(
      200,
      {
        result: "success",
        items: [{ id: "ab-1", breakType: "pre-roll", declaredDurationS: 30 }],
        total: "1",
        page: "1",
        limit: "20",
        pages: "1",
      },
      { headers: JSON_HEADERS },
    );
    const r = await adInsertion.listAdBreaks(client, 401);
    expect(r).toMatchObject({ total: 1, pages: 1 });
  });

  it("parses page counters sent as numeric strings in any number notation", async () => {
    const { pool, client } = mockClient();
    pool
      .intercept({ path: /^\/v2\/zones\/vod\/pull\/401\/adinsertion\/ad-breaks/, method: "GET" })
      .reply(
        200,
        { result: "success", items: [], total: " 1e3 ", page: "1.0", pages: "50" },
        { headers: JSON_HEADERS },
      );
    expect(await adInsertion.listAdBreaks(client, 401)).toMatchObject({ total: 1000, page: 1, pages: 50 });
  });
});

/**
 * §2: "allowed values of status-like and mode-like fields beyond those named above: not shown".
 * A word the spec does not name is the API's to add: it passes through as sent, never failing
 * the call. "null or timestamp" takes a date string or Unix seconds.
 */
describe("loose as the spec types it", () => {
  const reply = (path: string | RegExp, method: "GET" | "POST", body: object) => {
    const { pool, client } = mockClient();
    pool.intercept({ path, method }).reply(200, body, { headers: JSON_HEADERS });
    return client;
  };

  it("zone: unknown Y/N, 0/1, policy and type words pass as sent; 0/1 flags sent as numbers arrive as strings", async () => {
    const zone = {
      ...pushZone,
      type: "edge",
      disabled: 1,
      optimizer: "2",
      live: "maybe",
      ssl: { ...pushZone.ssl, http: "y", redirect: "YES" },
      domainlock: { enabled: "Y", policy: "W", noreferer: "B", active: "N", list: "a.example", ips: "" },
      securetoken: { ...pushZone.securetoken, policy: "H" },
      cache: { ...pushZone.cache, smart: 0 },
      edgerules: { enabled: true },
    };
    const client = reply("/v2/zones/http/push/101", "GET", { result: "success", zone });
    const r = await zones.getPushZone(client, 101);
    expect(r.zone).toMatchObject({
      type: "edge",
      disabled: "1",
      optimizer: "2",
      live: "maybe",
      ssl: { http: "y", redirect: "YES" },
      domainlock: { policy: "W", noreferer: "B" },
      securetoken: { policy: "H" },
      cache: { smart: "0" },
    });
  });

  it.each([
    ["a date string", "2025-01-06 09:30:00"],
    ["Unix seconds", 1736155800],
    ["null", null],
  ])(
    'Zone.deleted as %s passes as sent (§2.2 "null or timestamp"), in the §4.10 listing too',
    async (_what, deleted) => {
      const client = reply("/v2/zones/http/pull?page=1", "GET", {
        result: "success",
        zones: [{ id: 201, type: "pull", deleted }],
      });
      const r = await zones.listPullZones(client, 1);
      expect(r.zones[0]!.deleted).toEqual(deleted);
    },
  );

  it("stream, DNS zone and backup: deleted as Unix seconds; unknown stream words pass", async () => {
    const s = await streams.setStreamStatus(
      reply("/v2/streams/push/3001/status", "POST", {
        result: "success",
        stream: { id: 3001, type: "restream", disabled: "1", deleted: 1736155800, dedicatedLTC: 0 },
      }),
      "push",
      3001,
      { disabled: 1 },
    );
    expect(s.stream).toMatchObject({ type: "restream", deleted: 1736155800, dedicatedLTC: "0" });
    const d = await dns.listDnsZones(
      reply("/v2/dns", "GET", { result: "success", domains: [{ id: 8801, deleted: 1736155800 }] }),
    );
    expect(d.domains[0]!.deleted).toBe(1736155800);
    const b = await backups.getBackup(
      reply("/v2/cb/61", "GET", { result: "success", backup: { id: 61, deleted_at: 1736155800 } }),
      61,
    );
    expect(b.backup.deleted_at).toBe(1736155800);
  });

  it("ad analytics: unknown break types, fill statuses, outcomes and a §4.8 groupBy outside day/hour pass", async () => {
    const breaks = await adInsertion.listAdBreaks(
      reply(/^\/v2\/zones\/vod\/pull\/401\/adinsertion\/ad-breaks/, "GET", {
        result: "success",
        items: [{ id: "ab-1", breakType: "post-roll", fillStatus: "partial", vastOutcome: "http_3xx" }],
        total: 1,
        pages: 1,
      }),
      401,
    );
    expect(breaks.items[0]).toMatchObject({ breakType: "post-roll", fillStatus: "partial", vastOutcome: "http_3xx" });
    const consumption = await adInsertion.getConsumption(
      reply("/v2/streams/pull/4001/adinsertion/consumption", "POST", {
        result: "success",
        groupBy: "year",
        totalEgress: 1,
      }),
      4001,
      { groupBy: "year", r: "2025-01-01 00:00:00 - 2025-01-02 00:00:00" },
    );
    expect(consumption.groupBy).toBe("year");
  });

  it("§2.19 Unix seconds sent as numbers arrive as the strings the spec writes", async () => {
    const r = await zones.getPurge(
      reply("/v2/zones/http/push/101/purge/pg-1", "GET", {
        result: "success",
        id: "pg-1",
        completed_at: 1735983042,
        created_at: 1735983000,
        updated_at: "1735983042",
      }),
      101,
      "pg-1",
    );
    expect(r).toMatchObject({ completed_at: "1735983042", created_at: "1735983000", updated_at: "1735983042" });
  });

  it("an unknown `result` word on a success status passes; `error` is still an error", async () => {
    const r = await dns.listDnsZones(reply("/v2/dns", "GET", { result: "ok", domains: [] }));
    expect(r.result).toBe("ok");
    await expect(dns.listDnsZones(reply("/v2/dns", "GET", { result: "error", message: "nope" }))).rejects.toThrow(
      /nope/,
    );
  });

  it("requests stay strict: an unknown word in a request is refused before sending", async () => {
    const { client, calls } = mockClient();
    await expect(zones.updateVodPullDomainLock(client, 401, { enabled: "y" as "Y" })).rejects.toThrow(/enabled/);
    await expect(adInsertion.listAdBreaks(client, 401, { fill_status: "partial" as "full" })).rejects.toThrow(
      /fill_status/,
    );
    expect(calls()).toHaveLength(0);
  });
});
