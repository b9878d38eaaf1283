/** §4.1 push zone update, §4.10 pull zone list, §4.12 purge details, zone read extensions. */
import { expectError, expectFields, Harness, harness } from "./helpers";
import { PULL_ZONE, PURGE, PUSH_ZONE, VOD_PULL_ZONE } from "./shapes";

let h: Harness;
beforeAll(async () => {
  h = await harness({ now: () => new Date("2025-06-01T12:00:00.000Z") });
});
afterAll(() => h.close());
beforeEach(() => h.admin("POST", "/__emulator/reset"));

describe("§4.1 update HTTP push zone", () => {
  it("applies cnames, profiles and webhook and returns the zone in the §2.2 shape", async () => {
    const res = await h.api("POST", "/v2/zones/http/push/101", {
      cnames: "assets.northwind.example,img.northwind.example",
      profiles: [12, "14"],
      webhook: "https://hooks.northwind.example/transcoded",
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: "success", message: expect.any(String), warnings: expect.any(Array) });
    expectFields(res.body.zone, PUSH_ZONE);
    expect(res.body.zone).toMatchObject({
      type: "push",
      id: 101,
      cnames: "assets.northwind.example,img.northwind.example",
      cnamesArr: ["assets.northwind.example", "img.northwind.example"],
      updated_at: "2025-06-01T12:00:00Z",
      transcodefile: { profiles: ["12", "14"], webhooks: ["https://hooks.northwind.example/transcoded"] },
    });
    // §2.2: ftp password masked in this response.
    expect(res.body.zone.ftpdetails.password).toBe("********");
    // A new custom domain comes with a DNS warning; the kept one does not.
    expect(res.body.warnings).toHaveLength(1);
    expect(res.body.warnings[0]).toContain("img.northwind.example");
    // Stateful: the read extension sees the change.
    const read = await h.api("GET", "/v2/zones/http/push/101");
    expect(read.body.zone.cnames).toBe("assets.northwind.example,img.northwind.example");
  });

  it("clears the webhook with an empty string", async () => {
    await h.api("POST", "/v2/zones/http/push/101", { webhook: "https://a.example/x" });
    const res = await h.api("POST", "/v2/zones/http/push/101", { webhook: "" });
    expect(res.body.zone.transcodefile.webhooks).toEqual([]);
  });

  it.each([
    [{ cnames: "not a host" }, "cnames"],
    [{ cnames: 5 }, "cnames: must be a string"],
    [{ profiles: "12" }, "profiles: must be an array"],
    [{ webhook: "ftp://x.example/a" }, "webhook: must be an http(s) URL"],
    [{ nope: 1 }, "nope: unknown field"],
  ])("rejects %j with 422 naming the field", async (body, fragment) => {
    expectError(await h.api("POST", "/v2/zones/http/push/101", body), 422, fragment);
  });

  it("answers 404 for unknown and non-integer zone ids", async () => {
    expectError(await h.api("POST", "/v2/zones/http/push/999", {}), 404, "HTTP push zone 999 not found");
    expectError(await h.api("POST", "/v2/zones/http/push/abc", {}), 404, "ids are integers");
  });
});

describe("§4.10 list HTTP pull zones", () => {
  it("pages 20 zones per page over the 47 fixture zones; a page past the end is empty", async () => {
    const ids: number[] = [];
    for (const page of [1, 2, 3]) {
      const res = await h.api("GET", `/v2/zones/http/pull?page=${page}`);
      expect(res.status).toBe(200);
      expect(res.body.result).toBe("success");
      expect(res.body.zones).toHaveLength(page < 3 ? 20 : 7);
      ids.push(...res.body.zones.map((z: { id: number }) => z.id));
    }
    expect(new Set(ids).size).toBe(47);
    const past = await h.api("GET", "/v2/zones/http/pull?page=4");
    expect(past.status).toBe(200);
    expect(past.body).toEqual({ result: "success", zones: [] });
  });

  it("defaults to page 1 and returns zones in the §2.2 pull shape", async () => {
    const res = await h.api("GET", "/v2/zones/http/pull");
    expect(res.body.zones[0].id).toBe(201);
    for (const zone of res.body.zones) expectFields(zone, PULL_ZONE);
    expect(res.body.zones[0]).toMatchObject({ type: "pull", modeI: "vod", optimize: "live", status: "Enabled" });
    expect(res.body.zones[0].created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it.each(["page=0", "page=abc", "page=1.5", "size=50"])("rejects ?%s with 422", async (q) => {
    expect((await h.api("GET", `/v2/zones/http/pull?${q}`)).status).toBe(422);
  });
});

describe("§4.12 purge details", () => {
  it("returns a complete and a pending operation in the §2.19 shape", async () => {
    const done = await h.api("GET", "/v2/zones/http/push/101/purge/pg-7f3a9c21");
    expect(done.status).toBe(200);
    expect(done.body.result).toBe("success");
    expectFields(done.body, PURGE);
    expect(done.body.completed_at).toMatch(/^\d{10}$/);
    // §4.12: the history view shows logs.length - 1 servers and (incomplete entries - 1) pending.
    const incomplete = (logs: { completed: boolean }[]) => logs.filter((l) => !l.completed).length;
    expect(done.body.logs.length - 1).toBe(4);
    expect(incomplete(done.body.logs) - 1).toBe(0);
    const pending = await h.api("GET", "/v2/zones/http/push/101/purge/pg-8b41d0e5");
    expect(pending.body).toMatchObject({ type: "fetch", completed_at: "" });
    expect(incomplete(pending.body.logs) - 1).toBe(2);
  });

  it("answers 404 for an unknown purge or one of another zone", async () => {
    expectError(await h.api("GET", "/v2/zones/http/push/101/purge/pg-nope"), 404, "pg-nope");
    expectError(await h.api("GET", "/v2/zones/http/push/102/purge/pg-7f3a9c21"), 404, "zone 102");
  });
});

describe("read extensions", () => {
  it("GET /v2/zones/vod/pull/{id} returns the §4.5 subset", async () => {
    const res = await h.api("GET", "/v2/zones/vod/pull/401");
    expect(res.status).toBe(200);
    expectFields(res.body.zone, VOD_PULL_ZONE);
    expectError(await h.api("GET", "/v2/zones/vod/pull/402000"), 404, "VoD pull zone 402000 not found");
  });
});
