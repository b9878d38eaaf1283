/** getAdManagerProjects (§4.15), getCampaignTargeting (§4.13), getAdPodRequests (§4.7) against the emulator. */
import * as pulumi from "@pulumi/pulumi";
import * as cdn from "../../sdk/data-sources";
import { NotFoundError, ValidationError } from "../../client";
import { readUnderProfile, useDataSourceEmulator, valueOf } from "./helpers";

const REQUESTS = "POST /v2/ad-manager/{pid}/requests";

describe("ad manager data sources", () => {
  const ds = useDataSourceEmulator();

  it("getAdManagerProjects lists the projects with the plan's cap, camelCased", async () => {
    const result = await cdn.getAdManagerProjects({}, ds.options);
    expect(result.projects.map((p) => p.id)).toEqual([1, 2]);
    expect(result).toMatchObject({ projectsLimit: 5, projectsAvailable: 3 });
    expect(result.projects[0]).toMatchObject({
      name: "Streaming Network EU",
      settings: {
        currencyCode: "EUR",
        advancedAnalytics: 1,
        analyticsRetentionPeriod: 90,
        skipPolicy: { default: { offsetType: "seconds", offsetValue: 5 }, rules: [{ position: "preroll" }] },
      },
      activeCampaignsCount: 1,
      usageThisMonth: { adRequests: 1284410, fillRate: 79.52 },
      createdAt: "2024-01-02T09:30:00Z",
    });
    expect(await valueOf(cdn.getAdManagerProjectsOutput(undefined, ds.options))).toEqual(result);
  });

  it("getCampaignTargeting returns the targeting flat, with fromCache", async () => {
    const first = await cdn.getCampaignTargeting({ projectId: 1, campaignId: "cmp_7Hq2xK9d" }, ds.options);
    expect(first).toMatchObject({
      campaignId: "cmp_7Hq2xK9d",
      includeTags: ["outdoor", "sports"],
      subdivision1GeonameIds: [2950157],
      cityGeonameIds: [2950159],
      fromCache: false,
    });
    expect(first).not.toHaveProperty("targeting");
    const again = cdn.getCampaignTargetingOutput(
      { projectId: pulumi.output(1), campaignId: pulumi.output("cmp_7Hq2xK9d") },
      ds.options,
    );
    expect(await valueOf(again.apply((t) => t.fromCache))).toBe(true);
    await expect(cdn.getCampaignTargeting({ projectId: 1, campaignId: "cmp_nope" }, ds.options)).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it("getAdPodRequests returns all 45 requests of project 1 with 3 requests", async () => {
    const all = await cdn.getAdPodRequests({ projectId: 1 }, ds.options);
    expect(all.items).toHaveLength(45);
    expect(new Set(all.items.map((r) => r.id)).size).toBe(45);
    expect(all.items[0]).toMatchObject({
      publisherId: "3f6c2a8e-9b1d-4e57-a0c4-7d2e5f813b90",
      subdivision1GeonameId: expect.any(Number),
      selectedDurationSeconds: expect.any(Number),
    });
    expect(Object.keys(all.items[0]!).filter((k) => k.includes("_"))).toEqual([]);
    expect(all.total).toBe(45); // the API's count, kept in the all-pages form
    expect(all).not.toHaveProperty("pages");
    expect(await ds.emulator.requestCounts()).toEqual({ [REQUESTS]: 3 });
    const small = await cdn.getAdPodRequests({ projectId: 2 }, ds.options);
    expect(small.items).toHaveLength(6);
    expect(small.total).toBe(6);
    expect(await ds.emulator.requestCounts()).toEqual({ [REQUESTS]: 4 });
  });

  it.each([
    ["pages-of-1", 45],
    ["pages-of-2-repeating", 23],
    ["pages-of-1000", 1],
  ] as const)("under %s: every request once, total 45, %i requests (the reported pages)", async (profile, requests) => {
    const { inDefault, inProfile, counts } = await readUnderProfile(ds.emulator, profile, () =>
      cdn.getAdPodRequests({ projectId: 1 }, ds.options),
    );
    expect(inProfile.items.map((r) => r.id)).toEqual(inDefault.items.map((r) => r.id));
    expect(inProfile.total).toBe(45);
    expect(counts).toEqual({ [REQUESTS]: requests });
  });

  it("returns one page with its paging fields, and sends filters under the API's names", async () => {
    const page = await cdn.getAdPodRequests({ projectId: 1, page: 3 }, ds.options);
    expect(page).toMatchObject({ total: 45, page: 3, limit: 20, pages: 3 });
    expect(page.items).toHaveLength(5);
    const filtered = await valueOf(
      cdn.getAdPodRequestsOutput({ projectId: 1, oses: [pulumi.output("ios")], fillStatuses: ["full"] }, ds.options),
    );
    expect(filtered.items.length).toBeGreaterThan(0);
    expect(filtered.items.every((r) => r.os === "ios" && r.fillStatus === "full")).toBe(true);
  });

  it("checks date formats and argument names before sending", async () => {
    const badDate = cdn.getAdPodRequests({ projectId: 1, from: "2025-1-6", to: "2025-01-32" }, ds.options);
    await expect(badDate).rejects.toBeInstanceOf(ValidationError);
    await expect(badDate).rejects.toThrow(
      /^getAdPodRequests: invalid arguments, nothing was sent to the API: `from` must be a real date "YYYY-MM-DD"; `to` must be a real date "YYYY-MM-DD"/,
    );
    await expect(
      cdn.getAdPodRequests({ projectId: 1, from: "2025-01-07", to: "2025-01-06" }, ds.options),
    ).rejects.toThrow(/`to` must not be before from/);
    await expect(cdn.getAdPodRequests({ projectId: 1, r: "2025-01-06" }, ds.options)).rejects.toThrow(
      /`r` must be "YYYY-MM-DD HH:MM:SS - YYYY-MM-DD HH:MM:SS"/,
    );
    await expect(
      cdn.getAdPodRequests({ projectId: 1, devices: ["1" as unknown as number] }, ds.options),
    ).rejects.toThrow(/`devices\[0\]` "1" must be a number, not a string: write the number without quotes/);
    const typo = cdn.getAdPodRequests({ projectId: 1, content_ids: ["x"] } as cdn.GetAdPodRequestsArgs, ds.options);
    await expect(typo).rejects.toThrow(
      /`content_ids` is not an argument of getAdPodRequests \(did you mean `contentIds`\?\)/,
    );
    expect(await ds.emulator.requestCounts()).toEqual({});
  });
});
