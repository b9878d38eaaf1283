/** §4.15 projects, §4.7 ad-pod requests, §4.13 targeting, §4.3 archive, the campaign read. */
import { expectError, expectFields, suiteHarness } from "./helpers";
import { AD_POD_REQUEST, CAMPAIGN, PROJECT, TARGETING } from "./shapes";

const h = suiteHarness();

const project = async (id: number) =>
  (await h.api("GET", "/v2/ad-manager")).body.projects.find((p: { id: number }) => p.id === id);

describe("§4.15 list ad manager projects", () => {
  it("returns projects in the §2.14 shape with the plan limit and the remainder", async () => {
    const res = await h.api("GET", "/v2/ad-manager");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: "success", projects_limit: 5, projects_available: 3 });
    for (const p of res.body.projects) expectFields(p, PROJECT);
    expect(res.body.projects[0]).toMatchObject({ id: 1, campaigns_count: 2, active_campaigns_count: 1 });
    expect(res.body.projects[0].settings.skip_policy.rules[0]).toHaveProperty("position");
  });
});

describe("§4.3 archive campaign", () => {
  it("archives, leaves active_campaigns_count, and is idempotent", async () => {
    const res = await h.api("POST", "/v2/ad-manager/1/campaigns/cmp_7Hq2xK9d/archive");
    expect(res.status).toBe(200);
    expect(res.body.result).toBe("success");
    expectFields(res.body.campaign, CAMPAIGN);
    expect(res.body.campaign).toMatchObject({
      id: "cmp_7Hq2xK9d",
      status: "archived",
      delivery_status: { status: "ended" },
    });
    expect(res.body.campaign.targeting).toBeUndefined();
    expect(await project(1)).toMatchObject({ campaigns_count: 2, active_campaigns_count: 0 });
    const again = await h.api("POST", "/v2/ad-manager/1/campaigns/cmp_7Hq2xK9d/archive");
    expect(again.body.campaign).toEqual(res.body.campaign);
    expect((await h.api("GET", "/v2/ad-manager/1/campaigns/cmp_7Hq2xK9d")).body.campaign.status).toBe("archived");
  });

  it("answers 404 for unknown projects, campaigns, and campaigns of another project", async () => {
    expectError(await h.api("POST", "/v2/ad-manager/9/campaigns/cmp_7Hq2xK9d/archive"), 404, "project 9");
    expectError(await h.api("POST", "/v2/ad-manager/1/campaigns/cmp_nope/archive"), 404, "cmp_nope");
    expectError(await h.api("POST", "/v2/ad-manager/2/campaigns/cmp_7Hq2xK9d/archive"), 404, "project 2");
    expectError(await h.api("POST", "/v2/ad-manager/x/campaigns/cmp_7Hq2xK9d/archive"), 404, "ids are integers");
  });
});

describe("§4.13 campaign targeting", () => {
  it("returns §2.16 targeting; from_cache is false on the first read after a change", async () => {
    const first = await h.api("GET", "/v2/ad-manager/1/campaigns/cmp_7Hq2xK9d/targeting");
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ result: "success", from_cache: false });
    expectFields(first.body.targeting, TARGETING);
    expect((await h.api("GET", "/v2/ad-manager/1/campaigns/cmp_7Hq2xK9d/targeting")).body.from_cache).toBe(true);
    await h.admin("POST", "/__emulator/mutate", {
      kind: "campaigns",
      id: "cmp_7Hq2xK9d",
      patch: { targeting: { languages: ["fr"] } },
    });
    const fresh = await h.api("GET", "/v2/ad-manager/1/campaigns/cmp_7Hq2xK9d/targeting");
    expect(fresh.body).toMatchObject({ from_cache: false, targeting: { languages: ["fr"] } });
  });
});

describe("§4.7 list ad-pod requests", () => {
  const REQ = "/v2/ad-manager/1/requests";

  it("pages the project's log 20 at a time with limit/page/pages/total", async () => {
    const p1 = await h.api("POST", REQ, {});
    expect(p1.status).toBe(200);
    expect(p1.body).toMatchObject({ result: "success", total: 45, limit: 20, page: 1, pages: 3 });
    for (const item of p1.body.items) expectFields(item, AD_POD_REQUEST);
    expect((await h.api("POST", REQ, { page: 3 })).body.items).toHaveLength(5);
    expect((await h.api("POST", REQ, { page: 9 })).body).toMatchObject({ result: "success", items: [], total: 45 });
    expect((await h.api("POST", "/v2/ad-manager/2/requests", {})).body.total).toBe(6);
  });

  it("filters by date range, membership lists and __none__", async () => {
    const all = (await h.api("POST", REQ, { page: 1 })).body.items.concat(
      (await h.api("POST", REQ, { page: 2 })).body.items,
      (await h.api("POST", REQ, { page: 3 })).body.items,
    );
    const pre = await h.api("POST", REQ, { placements: ["preroll"] });
    expect(pre.body.total).toBe(all.filter((i: { placement: string }) => i.placement === "preroll").length);
    const none = await h.api("POST", REQ, { content_ids: ["__none__"] });
    expect(none.body.total).toBeGreaterThan(0);
    expect(none.body.items.every((i: { content_id: string }) => i.content_id === "")).toBe(true);
    const day = await h.api("POST", REQ, { from: "2025-01-06", to: "2025-01-06" });
    expect(day.body.items.every((i: { request_time: string }) => i.request_time.startsWith("2025-01-06"))).toBe(true);
    const r = await h.api("POST", REQ, { r: "2025-01-06 00:00:00 - 2025-01-06 09:30:00" });
    expect(r.body.total).toBe(day.body.total);
    expect((await h.api("POST", REQ, { devices: [99] })).body.total).toBe(0);
  });

  it.each([
    [{ from: "06/01/2025" }, "from: must be a date YYYY-MM-DD"],
    [{ placements: "preroll" }, "placements: must be an array"],
    [{ devices: ["1"] }, "devices.0: must be a number"],
    [{ page: 0 }, "page: must be at least 1"],
    [{ r: "2025-01-01 00:00:00 - 2025-01-02 00:00:00", from: "2025-01-01" }, "r: send either r or from/to"],
    [{ from: "2025-01-03", to: "2025-01-01" }, "to: must not be before from"],
    [{ sort: "asc" }, "sort: unknown field"],
  ])("rejects %j with 422", async (body, fragment) => {
    expectError(await h.api("POST", REQ, body), 422, fragment);
  });
});
