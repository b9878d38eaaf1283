/**
 * Each server-profile field changes the answers it names, and only those: one emulator whose
 * profile is switched mid-run through the admin door (so the live profile is read per request).
 */
import { DEFAULT_PROFILE, ProfilePatch } from "../../emulator";
import { NOTE_ERRORS, NOTE_WARNING } from "../../emulator/shape";
import { expectError, READ_EXTENSIONS, suiteHarness } from "./helpers";

const h = suiteHarness("/__emulator/profile");

async function use(patch: ProfilePatch): Promise<void> {
  const res = await h.admin("POST", "/__emulator/profile", patch);
  expect(res.status).toBe(200);
}

const PULL_IDS = Array.from({ length: 47 }, (_, i) => 201 + i);
const pullPage = async (page: number): Promise<number[]> => {
  const res = await h.api("GET", `/v2/zones/http/pull?page=${page}`);
  expect(res.status).toBe(200);
  return res.body.zones.map((z: { id: number }) => z.id);
};
const REQUESTS = "/v2/ad-manager/1/requests";
const requestsPage = async (page: number) => (await h.api("POST", REQUESTS, { page })).body;
const BREAKS = "/v2/zones/vod/pull/401/adinsertion/ad-breaks";
const breaksPage = async (page: number) => (await h.api("GET", `${BREAKS}?page=${page}`)).body;

describe("pageSize and pastLastPage (§4.10, §4.7, §4.9)", () => {
  it.each([[1], [2], [20], [1000]])(
    "§4.10 pages of %i: every zone once, in order, then an empty page",
    async (size) => {
      await use({ pageSize: size });
      const seen: number[] = [];
      const pages = Math.ceil(47 / size);
      for (let page = 1; page <= pages; page++) {
        const ids = await pullPage(page);
        expect(ids.length).toBe(page < pages ? size : 47 - size * (pages - 1));
        seen.push(...ids);
      }
      expect(seen).toEqual(PULL_IDS);
      expect(await pullPage(pages + 1)).toEqual([]);
    },
  );

  it("§4.10 repeat-last: any page past the end is the last page again", async () => {
    await use({ pageSize: 2, pastLastPage: "repeat-last" });
    expect(await pullPage(23)).toEqual([245, 246]);
    expect(await pullPage(24)).toEqual([247]);
    expect(await pullPage(25)).toEqual([247]);
    expect(await pullPage(9999)).toEqual([247]);
    await use({ pageSize: 1000 });
    expect(await pullPage(2)).toEqual(PULL_IDS);
  });

  it.each([
    ["§4.7 ad-pod requests", requestsPage],
    ["§4.9 ad breaks", breaksPage],
  ])("%s: items, total, limit and pages follow the page size", async (_name, fetch) => {
    for (const [size, pages] of [
      [1, 45],
      [2, 23],
      [20, 3],
      [1000, 1],
    ]) {
      await use({ pageSize: size, pastLastPage: "empty" });
      const first = await fetch(1);
      expect({
        result: first.result,
        n: first.items.length,
        total: first.total,
        page: first.page,
        limit: first.limit,
        pages: first.pages,
      }).toEqual({ result: "success", n: Math.min(size, 45), total: 45, page: 1, limit: size, pages });
      const last = await fetch(pages);
      expect(last).toMatchObject({ total: 45, page: pages, limit: size, pages });
      expect(last.items).toHaveLength(45 - size * (pages - 1));
      // Past the end under "empty": no items, the requested page echoed, the counters unchanged.
      expect(await fetch(pages + 1)).toEqual({
        result: "success",
        items: [],
        total: 45,
        page: pages + 1,
        limit: size,
        pages,
      });
    }
  });

  it.each([
    ["§4.7 ad-pod requests", requestsPage],
    ["§4.9 ad breaks", breaksPage],
  ])(
    "%s repeat-last: a page past the end is the last page again, `page` naming the page served",
    async (_name, fetch) => {
      await use({ pageSize: 2, pastLastPage: "repeat-last" });
      const last = await fetch(23);
      expect(last).toMatchObject({ total: 45, page: 23, limit: 2, pages: 23 });
      expect(last.items).toHaveLength(1);
      expect(await fetch(24)).toEqual(last);
      expect(await fetch(500)).toEqual(last);
    },
  );

  it("repeat-last with nothing to list: an empty page (there is no last page to repeat)", async () => {
    await use({ pageSize: 2, pastLastPage: "repeat-last" });
    const none = await h.api("POST", REQUESTS, { page: 3, content_ids: ["no-such-content"] });
    expect(none.body).toEqual({ result: "success", items: [], total: 0, page: 3, limit: 2, pages: 0 });
  });
});

describe("slots: add-only (§4.2)", () => {
  const schedule = (zone: number, body: Record<string, unknown>) =>
    h.api("POST", `/v2/zones/vod/push/${zone}/adinsertion/schedule`, { _METHOD: "PUT", ...body });
  const zoneState = async (zone: number) => (await h.state()).vodPushZones[String(zone)];

  it.each([
    [301, { type: "preroll", maxDurationS: 30 }, "zone already has a preroll slot (at most one per zone)"],
    [
      301,
      { type: "postroll", maxDurationS: 20, fillCeilingS: 5 },
      "zone already has a postroll slot (at most one per zone)",
    ],
    [
      302,
      { type: "midrollinterval", intervalS: 300, intervalSeconds: 300, maxDurationS: 60 },
      "zone already has a midrollinterval slot (at most one per zone)",
    ],
    [
      301,
      { type: "midroll", offset: 600, maxDurationS: 90 },
      "zone already has a midroll slot at offset 600 (midroll offsets are unique per zone)",
    ],
  ])(
    "zone %i: a second %j is refused with 422 naming the slot, even with equal values, and nothing is stored",
    async (zone, body, message) => {
      await use({ slots: "add-only" });
      expect((await schedule(zone, body)).status).toBe(200);
      const before = await zoneState(zone);
      for (const again of [body, { ...body, maxDurationS: 45 }]) {
        const res = await schedule(zone, again);
        expectError(res, 422, message, `VoD push zone ${zone}`, "never updated or removed");
        expect(Object.keys(res.body).sort()).toEqual(["message", "result"]);
      }
      expect(await zoneState(zone)).toEqual(before);
      // The default (upsert) server replaces the same slot.
      await use({ slots: "upsert" });
      expect((await schedule(zone, { ...body, maxDurationS: 45 })).status).toBe(200);
      expect(await zoneState(zone)).not.toEqual(before);
    },
  );

  it("adds slots of other identities: midrolls at new offsets, then preroll and postroll", async () => {
    await use({ slots: "add-only" });
    for (const body of [
      { type: "midroll", offset: 600, maxDurationS: 90 },
      { type: "midroll", offset: 300, maxDurationS: 60 },
      { type: "preroll", maxDurationS: 30 },
      { type: "postroll", maxDurationS: 20 },
    ]) {
      expect((await schedule(301, body)).status).toBe(200);
    }
    const policy = (await zoneState(301)).adinsertion.vodAdBreakPolicy;
    expect(policy).toMatchObject({
      preRoll: { maxDurationS: 30 },
      postRoll: { maxDurationS: 20 },
      midRolls: [
        { offsetS: 300, maxDurationS: 60 },
        { offsetS: 600, maxDurationS: 90 },
      ],
    });
  });
});

describe("reads: spec-only", () => {
  it.each(READ_EXTENSIONS)(
    "GET %s answers 404 'not part of the API' once switched, and is served again after",
    async (path, operation) => {
      expect((await h.api("GET", path)).status).toBe(200);
      await use({ reads: "spec-only" });
      expectError(await h.api("GET", path), 404, operation, "is not part of the API");
      await use({ reads: "extensions" });
      expect((await h.api("GET", path)).status).toBe(200);
    },
  );

  it("a path only an extension serves is 404 for the other methods too (no 405 pointing at it)", async () => {
    const res = await h.api("POST", "/v2/streams/push/3001", {});
    expect({ status: res.status, allow: res.headers.allow }).toEqual({ status: 405, allow: "GET" });
    await use({ reads: "spec-only" });
    for (const path of ["/v2/streams/push/3001", "/v2/zones/vod/pull/401", "/v2/ad-manager/1/campaigns/cmp_7Hq2xK9d"]) {
      expectError(await h.api("POST", path, {}), 404, "is not part of the API");
    }
    // A path the spec has keeps its 405, now allowing the spec's method only.
    const other = await h.api("DELETE", "/v2/zones/http/push/101");
    expect({ status: other.status, allow: other.headers.allow }).toEqual({ status: 405, allow: "POST" });
  });

  it("the spec's operations on the same paths are still served", async () => {
    await use({ reads: "spec-only" });
    expect((await h.api("POST", "/v2/zones/http/push/101", { cnames: "" })).status).toBe(200);
    expect((await h.api("POST", "/v2/zones/http/settings/security/domainlock", { mode: "save" })).status).toBe(200);
    expect((await h.api("GET", "/v2/zones/http/push/101/purge/pg-7f3a9c21")).status).toBe(200);
    expect((await h.api("GET", "/v2/ad-manager/1/campaigns/cmp_7Hq2xK9d/targeting")).status).toBe(200);
    expect((await h.api("GET", "/v2/zones/http/pull")).status).toBe(200);
  });
});

describe("archivedStatus (§4.3)", () => {
  const ARCHIVE = "/v2/ad-manager/1/campaigns/cmp_7Hq2xK9d/archive";
  const campaign = async () => (await h.state()).campaigns.cmp_7Hq2xK9d;
  const activeCount = async () =>
    (await h.api("GET", "/v2/ad-manager")).body.projects.find((p: { id: number }) => p.id === 1).active_campaigns_count;

  it("archive writes the profile's word; delivery ends as by default", async () => {
    const activeBefore = await activeCount();
    await use({ archivedStatus: "ARCHIVED" });
    const res = await h.api("POST", ARCHIVE);
    expect(res.body).toMatchObject({
      result: "success",
      campaign: { status: "ARCHIVED", delivery_status: { status: "ended" } },
    });
    expect(await activeCount()).toBe(activeBefore - 1);
  });

  it("an archived campaign is recognised whatever the word: archiving again leaves it unchanged", async () => {
    await use({ archivedStatus: "closed" });
    await h.api("POST", ARCHIVE);
    const archived = await campaign();
    for (const word of ["Archived", "archived", "gone"]) {
      await use({ archivedStatus: word });
      expect((await h.api("POST", ARCHIVE)).body.campaign.status).toBe("closed");
    }
    expect(await campaign()).toEqual(archived);
    // A fixture or out-of-band `Archived` is archived under any profile word.
    await h.admin("POST", "/__emulator/mutate", {
      kind: "campaigns",
      id: "cmp_9Tz4wN6c",
      patch: { status: "Archived" },
    });
    expect((await h.api("POST", "/v2/ad-manager/2/campaigns/cmp_9Tz4wN6c/archive")).body.campaign.status).toBe(
      "Archived",
    );
  });

  it("a campaign moved back to active out of band is archived again with the current word", async () => {
    await use({ archivedStatus: "closed" });
    await h.api("POST", ARCHIVE);
    await h.admin("POST", "/__emulator/mutate", { kind: "campaigns", id: "cmp_7Hq2xK9d", patch: { status: "active" } });
    await use({ archivedStatus: "Archived" });
    expect((await h.api("POST", ARCHIVE)).body.campaign.status).toBe("Archived");
  });
});

describe("deleted: unix (§2.2, §2.5, §2.17)", () => {
  const WHEN = "2026-01-02 03:04:05";
  const UNIX = Date.UTC(2026, 0, 2, 3, 4, 5) / 1000;

  beforeEach(async () => {
    for (const [kind, id] of [
      ["httpPullZones", 201],
      ["httpPushZones", 101],
      ["vodPullZones", 401],
      ["pushStreams", 3001],
      ["timeshiftStreams", 5001],
      ["dnsZones", 8801],
    ] as const) {
      await h.admin("POST", "/__emulator/mutate", {
        kind,
        id,
        patch: { deleted: kind === "dnsZones" ? "2026-01-02T03:04:05Z" : WHEN },
      });
    }
  });

  it("a non-null deleted is a date string by default and Unix seconds under unix, in every response that carries it", async () => {
    const reads: [string, string, unknown, (b: any) => unknown][] = [
      ["GET", "/v2/zones/http/pull", undefined, (b) => b.zones[0].deleted],
      ["POST", "/v2/zones/http/push/101", { cnames: "" }, (b) => b.zone.deleted],
      ["GET", "/v2/zones/http/push/101", undefined, (b) => b.zone.deleted],
      ["POST", "/v2/zones/vod/pull/401/domainlock", { enabled: "N" }, (b) => b.zone.deleted],
      ["GET", "/v2/zones/vod/pull/401", undefined, (b) => b.zone.deleted],
      ["POST", "/v2/streams/push/3001/status", { disabled: 0 }, (b) => b.stream.deleted],
      ["GET", "/v2/streams/push/3001", undefined, (b) => b.stream.deleted],
      ["POST", "/v2/streams/timeshift/5001/status", { disabled: 0 }, (b) => b.stream.deleted],
      ["GET", "/v2/streams/timeshift/5001", undefined, (b) => b.stream.deleted],
      ["GET", "/v2/dns", undefined, (b) => b.domains[0].deleted],
    ];
    for (const [method, path, body, pick] of reads) {
      expect([path, pick((await h.api(method, path, body)).body)]).toEqual([
        path,
        path === "/v2/dns" ? "2026-01-02T03:04:05Z" : WHEN,
      ]);
    }
    await use({ deleted: "unix" });
    for (const [method, path, body, pick] of reads)
      expect([path, pick((await h.api(method, path, body)).body)]).toEqual([path, UNIX]);
    // Null stays null; the other zones of the list are untouched.
    const list = (await h.api("GET", "/v2/zones/http/pull")).body.zones;
    expect(list[1].deleted).toBeNull();
    const created = await h.api("POST", "/v2/streams/timeshift/new", {
      _METHOD: "PUT",
      name: "late",
      timeshift: 30,
      parent: 3001,
    });
    expect(created.body.stream.deleted).toBeNull();
    // The stored value is unchanged: only the response is written differently.
    expect((await h.state()).httpPullZones["201"].deleted).toBe(WHEN);
  });
});

describe("emptyWarnings: null (§2.1)", () => {
  it("an empty warnings is [] by default and null under null; a non-empty one stays a list", async () => {
    const update = () => h.api("POST", "/v2/zones/http/push/101", { webhook: "" });
    const create = (name: string, extra: Record<string, unknown> = {}) =>
      h.api("POST", "/v2/streams/timeshift/new", { _METHOD: "PUT", name, timeshift: 30, parent: 3001, ...extra });
    expect((await update()).body.warnings).toEqual([]);
    expect((await create("a")).body.warnings).toEqual([]);
    await use({ emptyWarnings: "null" });
    expect((await update()).body).toMatchObject({ result: "success", warnings: null });
    expect((await create("b")).body).toMatchObject({ result: "success", warnings: null, errors: null });
    const warned = await create("c", { "geoblock[enabled]": "Y" });
    expect(warned.body.warnings).toEqual([expect.stringContaining("geoblock is enabled with an empty list")]);
    const cname = await h.api("POST", "/v2/zones/http/push/101", { cnames: "cdn.new.example" });
    expect(cname.body.warnings).toHaveLength(1);
  });
});

describe("writeNotes (§2.1 message, warnings, errors on writes)", () => {
  const WRITES: [string, string, Record<string, unknown>][] = [
    ["§4.1", "/v2/zones/http/push/101", { cnames: "" }],
    ["§4.2", "/v2/zones/vod/push/301/adinsertion/schedule", { _METHOD: "PUT", type: "preroll", maxDurationS: 30 }],
    ["§4.3", "/v2/ad-manager/1/campaigns/cmp_7Hq2xK9d/archive", {}],
    ["§4.4 push", "/v2/streams/push/3001/status", { disabled: 1 }],
    ["§4.4 timeshift", "/v2/streams/timeshift/5001/status", { disabled: 1 }],
    ["§4.5", "/v2/zones/vod/pull/401/domainlock", { enabled: "Y" }],
    ["§4.11", "/v2/zones/http/settings/security/domainlock", { mode: "save" }],
    ["§4.19", "/v2/streams/timeshift/new", { _METHOD: "PUT", name: "noted", timeshift: 30, parent: 3001 }],
  ];

  it.each(WRITES)(
    "%s carries a message, non-empty warnings and errors (one string, one {code, message})",
    async (_section, path, body) => {
      const plain = await h.api("POST", path, body);
      expect(plain.status).toBe(200);
      expect(plain.body.errors ?? null).toBeNull();
      await h.admin("POST", "/__emulator/reset");
      await use({ writeNotes: true, emptyWarnings: "null" });
      const res = await h.api("POST", path, body);
      expect(res.status).toBe(200);
      expect(res.body.result).toBe("success");
      expect(res.body.message).toEqual(expect.stringMatching(/\S/));
      if (typeof plain.body.message === "string") expect(res.body.message).toBe(plain.body.message);
      expect(res.body.warnings).toEqual([...(plain.body.warnings ?? []), NOTE_WARNING]);
      expect(res.body.errors).toEqual([expect.any(String), { code: expect.any(Number), message: expect.any(String) }]);
      expect(res.body.errors).toEqual(NOTE_ERRORS);
      // Everything else of the answer is as without notes.
      const strip = ({ message: _m, warnings: _w, errors: _e, ...rest }: Record<string, unknown>) => rest;
      expect(Object.keys(strip(res.body)).sort()).toEqual(Object.keys(strip(plain.body)).sort());
    },
  );

  it("reads and refusals carry no notes", async () => {
    await use({ writeNotes: true });
    for (const [method, path, body] of [
      ["GET", "/v2/dns", undefined],
      ["POST", "/v2/ad-manager/1/requests", {}],
      [
        "POST",
        "/v2/streams/pull/4001/adinsertion/consumption",
        { groupBy: "day", r: "2025-01-01 00:00:00 - 2025-01-02 00:00:00" },
      ],
    ] as const) {
      const res = await h.api(method, path, body);
      expect([path, res.status, res.body.errors, res.body.warnings]).toEqual([path, 200, undefined, undefined]);
    }
    const refused = await h.api("POST", "/v2/streams/push/3001/status", { disabled: 2 });
    expect(refused.body).toEqual({ result: "error", message: expect.stringContaining("disabled") });
  });
});

it("the default profile is the original behaviour", async () => {
  expect((await h.admin("GET", "/__emulator/profile")).body.profile).toEqual({
    pageSize: 20,
    pastLastPage: "empty",
    slots: "upsert",
    reads: "extensions",
    archivedStatus: "archived",
    deleted: "date",
    emptyWarnings: "array",
    writeNotes: false,
  });
  expect(DEFAULT_PROFILE).toEqual((await h.admin("GET", "/__emulator/profile")).body.profile);
  expect(await pullPage(1)).toEqual(PULL_IDS.slice(0, 20));
  expect(await pullPage(4)).toEqual([]);
  expect((await h.api("POST", "/v2/ad-manager/1/campaigns/cmp_7Hq2xK9d/archive")).body.campaign.status).toBe(
    "archived",
  );
});
