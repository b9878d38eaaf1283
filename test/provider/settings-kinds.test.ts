/** check and diff of StreamStatus, PushZoneSettings and CampaignArchive: no API call involved. */
import { handler as campaignArchive } from "../../provider/resources/campaign-archive";
import { handler as pushZoneSettings } from "../../provider/resources/push-zone-settings";
import { handler as streamStatus } from "../../provider/resources/stream-status";
import { UNKNOWN } from "../../provider/inputs";

describe("StreamStatus", () => {
  it("names the property and the rule of each bad input", async () => {
    const result = await streamStatus.check({}, { streamKind: "pull", streamId: "a/b", disabled: "yes" });
    expect(result.failures).toEqual([
      { property: "streamKind", reason: 'must be "push" or "timeshift" (§4.4 has a path for each)' },
      { property: "streamId", reason: expect.stringContaining("without slashes") },
      { property: "disabled", reason: expect.stringContaining("must be true (disable") },
    ]);
  });

  it("says an empty stream id is empty, and what a stream id looks like for another type", async () => {
    const check = async (streamId: unknown) => (await streamStatus.check({}, { streamKind: "push", streamId, disabled: true })).failures;
    expect(await check("")).toEqual([{ property: "streamId", reason: expect.stringMatching(/^must not be empty/) }]);
    expect(await check(true)).toEqual([{ property: "streamId", reason: 'must be the stream\'s id, e.g. 1234 or "1234"' }]);
  });

  it("requires adoptId to be the id its inputs name", async () => {
    const inputs = { streamKind: "push", streamId: 3001, disabled: false };
    expect((await streamStatus.check({}, { ...inputs, adoptId: "push/3001" })).failures).toBeUndefined();
    expect((await streamStatus.check({}, { ...inputs, adoptId: "push/9" })).failures).toEqual([
      { property: "adoptId", reason: 'must be the id of the object these inputs name ("push/3001"), not "push/9"' },
    ]);
    expect((await streamStatus.check({}, { ...inputs, streamId: UNKNOWN, adoptId: "push/9" })).failures).toBeUndefined();
  });

  it("compares stream ids as text, replaces on identity, and ignores adoptId", async () => {
    const olds = { streamKind: "push", streamId: "3001", disabled: false };
    expect(await streamStatus.diff("push/3001", olds, { ...olds, streamId: 3001, adoptId: "push/3001" })).toMatchObject({ changes: false });
    expect(await streamStatus.diff("push/3001", olds, { ...olds, streamKind: "timeshift" })).toMatchObject({ replaces: ["streamKind"] });
    expect(await streamStatus.diff("push/3001", olds, { ...olds, disabled: true })).toMatchObject({ changes: true, replaces: [] });
  });
});

describe("PushZoneSettings", () => {
  it("rejects malformed domains, profiles and webhooks, and an empty declaration", async () => {
    const result = await pushZoneSettings.check({}, {
      zoneId: 101,
      customDomains: ["https://cdn.example.com"],
      transcodingProfiles: ["x1"],
      transcodeWebhook: "ftp://hooks.example.com",
    });
    expect(result.failures?.map((f) => f.property)).toEqual(["customDomains[0]", "transcodingProfiles[0]", "transcodeWebhook"]);
    expect((await pushZoneSettings.check({}, { zoneId: 101, customDomains: "cdn.example.com", transcodingProfiles: 3 })).failures).toEqual([
      { property: "customDomains", reason: expect.stringMatching(/^must be a list of host names, such as \["cdn\.example\.com"\], not a string: write a list/) },
      { property: "transcodingProfiles", reason: expect.stringMatching(/^must be a list of profile ids, such as \[3\], not a number/) },
    ]);
    expect((await pushZoneSettings.check({}, { zoneId: 101 })).failures).toEqual([
      { property: "", reason: expect.stringContaining("declare at least one of customDomains") },
    ]);
  });

  it("compares domains as a case-insensitive set and profiles as a set", async () => {
    const olds = { zoneId: 101, customDomains: ["a.example.com", "B.example.com"], transcodingProfiles: ["1", "2"] };
    const news = { zoneId: 101, customDomains: ["b.example.com", "a.example.com"], transcodingProfiles: [2, 1] };
    expect(await pushZoneSettings.diff("101", olds, news)).toMatchObject({ changes: false });
    expect(await pushZoneSettings.diff("101", olds, { ...news, zoneId: 102 })).toMatchObject({ replaces: ["zoneId"] });
  });
});

describe("CampaignArchive", () => {
  it("checks the ids and replaces when either changes", async () => {
    expect((await campaignArchive.check({}, { projectId: 0, campaignId: "" })).failures?.map((f) => f.property)).toEqual([
      "projectId",
      "campaignId",
    ]);
    const olds = { projectId: 1, campaignId: "cmp_a" };
    expect(await campaignArchive.diff("1/cmp_a", olds, olds)).toMatchObject({ changes: false });
    expect(await campaignArchive.diff("1/cmp_a", olds, { projectId: 1, campaignId: "cmp_b" })).toMatchObject({ replaces: ["campaignId"] });
  });
});
