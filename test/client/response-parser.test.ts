/**
 * Response parsing (response-parser.ts) against zod's own parse: zod's parser for a schema's first
 * parses and zod's compiled parser (`z.compile`) once the schema is hot give the same output for
 * every operation's real emulator response and for lenient values (numeric strings, 0/1 numbers,
 * nulls, unknown fields), and refuse wherever zod refuses, with zod's issues.
 */
import { z } from "zod";
import { startEmulator, type ProfilePatch, type RunningEmulator } from "../../emulator";
import {
  adInsertion,
  adManager,
  backups,
  CdnstreamClient,
  dns,
  operations,
  streams,
  zones,
  type Operation,
} from "../../client";
import { buildPath, buildQuery } from "../../client/core/path";
import { COMPILE_AFTER, parseResponse } from "../../client/core/response-parser";

// zod as it is, with `z.compile` watched: the hot-schema case proves the compiled parser is the
// one answering (zod's namespace is frozen, so it is watched through the module, not spied on).
jest.mock("zod", () => {
  const actual = jest.requireActual<typeof import("zod")>("zod");
  return { ...actual, z: { ...actual.z, compile: jest.fn(actual.z.compile) } };
});

const KEY = "emu_parser_key_8c2e41";
let emu: RunningEmulator;
let client: CdnstreamClient;

/** zod's own parse of one body, and the compiled parser's, each from its own copy. */
function both(op: Operation, text: string) {
  const zod = op.response.safeParse(JSON.parse(text));
  const compiled = z.compile(op.response).safeParse(JSON.parse(text));
  return { zod, compiled };
}

/** One call per operation, with ids of the default fixture. */
const calls: [Operation, Record<string, unknown>, { body?: unknown; query?: Record<string, unknown> }][] = [
  [zones.updatePushZone, { zoneid: 101 }, { body: { cnames: "cdn.example.com" } }],
  [zones.updateVodPullDomainLock, { zoneid: 401 }, { body: { enabled: "Y", list: "example.com" } }],
  [zones.ops.listPullZones, {}, { query: { page: 1 } }],
  [zones.updateBulkDomainLock, {}, { body: { enabled: "Y", list: "example.com", mode: "save" } }],
  [zones.getPurge, { zoneid: 101, purgeId: "pg-7f3a9c21" }, {}],
  [zones.getPushZone, { zoneid: 101 }, {}],
  [zones.getVodPullZone, { zoneid: 401 }, {}],
  [zones.getBulkDomainLock, {}, {}],
  [streams.setPushStreamStatus, { streamid: "3001" }, { body: { disabled: 1 } }],
  [streams.setTimeshiftStreamStatus, { streamid: "5001" }, { body: { disabled: 0 } }],
  [
    streams.createTimeshiftStream,
    {},
    { body: { name: "parser-check", parent: 3001, timeshift: 60, ndvr: { enabled: "Y", retention: 7 } } },
  ],
  [streams.getPushStream, { streamid: "3001" }, {}],
  [streams.getTimeshiftStream, { streamid: "5001" }, {}],
  [dns.listDnsZones, {}, {}],
  [backups.listBackups, {}, {}],
  [adInsertion.addAdBreakSlot, { zoneid: 301 }, { body: { type: "midroll", maxDurationS: 60, offset: 600 } }],
  [
    adInsertion.getTrackingReport,
    { streamid: 3001 },
    { query: { r: "2025-01-06 00:00:00 - 2025-01-07 00:00:00", granularity: 60 } },
  ],
  [
    adInsertion.getConsumption,
    { streamid: 4001 },
    { body: { groupBy: "day", r: "2025-01-01 00:00:00 - 2025-01-08 00:00:00" } },
  ],
  [adInsertion.listAdBreaks, { zoneid: 401 }, { query: { page: 1 } }],
  [adInsertion.getCreative, { zoneid: 301, crid: "cr-10452" }, {}],
  [adInsertion.getAdInsertion, { zoneid: 301 }, {}],
  [adManager.archiveCampaign, { pid: 1, cid: "cmp_7Hq2xK9d" }, {}],
  [adManager.listAdPodRequests, { pid: 1 }, { body: { page: 1 } }],
  [adManager.getTargeting, { pid: 1, cid: "cmp_7Hq2xK9d" }, {}],
  [adManager.listProjects, {}, {}],
  [adManager.getCampaign, { pid: 1, cid: "cmp_3Lm8vR2p" }, {}],
];

/**
 * The emulator's readings of the spec's "not shown" places that change what an answer holds:
 * the default, and the other reading of each (Unix-seconds deletion times, null for no warnings,
 * notes on every write, another archived word).
 */
const readings: [string, ProfilePatch][] = [
  ["the default readings", {}],
  ["the other answer readings", { deleted: "unix", emptyWarnings: "null", writeNotes: true, archivedStatus: "ended" }],
];

describe.each(readings)("compiled response parser = zod, under %s", (_reading, profile) => {
  beforeAll(async () => {
    emu = await startEmulator({ apiKey: KEY, profile });
    client = new CdnstreamClient({ apiKey: KEY, baseUrl: emu.url, env: {} });
  });
  afterAll(async () => {
    await client.close();
    await emu.close();
  });

  it("covers every operation but the backup read (its id comes from the list)", () => {
    const covered = new Set(calls.map(([op]) => op));
    expect(operations.filter((op) => !covered.has(op)).map((op) => op.id)).toEqual(["4.16"]);
  });

  it.each(calls.map((c) => [`${c[0].method} ${c[0].path}`, ...c] as const))(
    "%s: the same output as zod",
    async (_name, op, params, input) => {
      const body = op.body ? op.body.parse(input.body ?? {}) : undefined;
      const path = buildPath(op.path, params as Record<string, string | number>) + buildQuery(input.query);
      const res = await client.raw(op.method, path, { body, retry: "connect-only" });
      expect(res.status).toBe(200);
      const { compiled, zod } = both(op, JSON.stringify(res.body));
      expect(zod.success).toBe(true);
      expect(compiled.success).toBe(true);
      expect(compiled.data).toStrictEqual(zod.data);
    },
  );

  it("GET /v2/cb/{backupid}: the same output as zod", async () => {
    const list = await backups.listBackups(client);
    const res = await client.raw("GET", `/v2/cb/${list.backups[0]!.id}`, { retry: "retriable" });
    const { compiled, zod } = both(backups.getBackup, JSON.stringify(res.body));
    expect(zod.success).toBe(true);
    expect(compiled.data).toStrictEqual(zod.data);
  });
});

const zone = {
  type: "push",
  id: 101,
  disabled: 1,
  cache: { cacheInSecs: "86400", expiryInMins: 60, smart: 0 },
  edge: { compressionlevel: " 6 " },
  ssl: { certid: null, http: "Y", surprise: { deep: [1, "2"] } },
  server: { code: "fra", meta: { x: 1 } },
  deleted: 1736150400,
  wafid: "w1",
  cnamesArr: [],
  unknownTop: [{ a: 1 }],
};

describe("lenient values and refusals", () => {
  const op = zones.getPushZone;
  const cases: [string, unknown][] = [
    ["numeric strings, 0/1 numbers, nulls, unknown fields", { result: "success", zone }],
    ["a server given as text", { result: "success", zone: { ...zone, server: "fra1" } }],
    ["an unknown result word", { result: "partial", zone: { id: 7 } }],
    [
      "a __proto__ key",
      JSON.parse('{"result":"success","__proto__":{"polluted":1},"zone":{"id":1,"__proto__":{"x":1}}}'),
    ],
  ];
  it.each(cases)("%s: the same output as zod", (_name, body) => {
    const { compiled, zod } = both(op, JSON.stringify(body));
    expect(zod.success).toBe(true);
    expect(compiled.data).toStrictEqual(zod.data);
    expect(Object.getPrototypeOf(compiled.data)).toBe(Object.prototype);
  });

  const refused: [string, unknown][] = [
    ["no zone id", { result: "success", zone: { type: "push" } }],
    ["a flag of an undocumented type", { result: "success", zone: { ...zone, ssl: { http: 5 } } }],
    [
      "a numeric string that is not a number",
      { result: "success", zone: { ...zone, cache: { cacheInSecs: "1 day" } } },
    ],
    ["an array where an object is", { result: "success", zone: [] }],
    [
      "a later field wrong after earlier ones converted",
      { result: "success", zone: { ...zone, cache: { cacheInSecs: "60", smart: 1, expiry: 5 } } },
    ],
    ["no body object", "success"],
  ];
  it.each(refused)("%s: refused, with zod's issues, the body untouched", (_name, body) => {
    const text = JSON.stringify(body);
    const { compiled, zod } = both(op, text);
    expect(zod.success).toBe(false);
    expect(compiled.success).toBe(false);
    expect(compiled.error!.issues).toEqual(zod.error!.issues);
    const given = JSON.parse(text);
    expect(parseResponse(op.response, given).error!.issues).toEqual(zod.error!.issues);
    expect(given).toEqual(JSON.parse(text));
  });

  it(`answers as zod before and after a schema is compiled, at its ${COMPILE_AFTER}th parse`, () => {
    // A schema of its own, so that no other test's parses count.
    const schema = op.response.describe("parsed by this test only");
    const good = JSON.stringify({ result: "success", zone });
    const bad = JSON.stringify({ result: "success", zone: { ...zone, cache: { cacheInSecs: "1 day" } } });
    const expected = { good: schema.safeParse(JSON.parse(good)), bad: schema.safeParse(JSON.parse(bad)) };
    const answers = () => ({
      good: parseResponse(schema, JSON.parse(good)),
      bad: parseResponse(schema, JSON.parse(bad)),
    });
    const compilesOfSchema = () => jest.mocked(z.compile).mock.calls.filter(([compiled]) => compiled === schema).length;
    const first = answers();
    for (let i = 2; i < COMPILE_AFTER - 1; i++) parseResponse(schema, JSON.parse(good));
    expect(compilesOfSchema()).toBe(0);
    parseResponse(schema, JSON.parse(good));
    expect(compilesOfSchema()).toBe(1);
    const hot = answers();
    expect(compilesOfSchema()).toBe(1);
    for (const answer of [first, hot]) {
      expect(answer.good.data).toStrictEqual(expected.good.data);
      expect(answer.good.data!.zone.cache!.cacheInSecs).toBe(86400);
      expect(answer.bad.success).toBe(false);
      expect(answer.bad.error!.issues).toEqual(expected.bad.error!.issues);
    }
    expect(hot.good.data).not.toBe(first.good.data);
  });
});
