/** Path building: an id is always exactly one segment. */
import { adManager, adInsertion, ValidationError, zones, streams } from "../../client";
import { buildPath, buildQuery, matchTemplate, PathParamError } from "../../client/core/path";
import { findOperation, retryKindFor } from "../../client/registry";
import { JSON_HEADERS, mockClient, rejection } from "./helpers";

describe("buildPath", () => {
  it.each([
    ["../x", "..%2Fx"],
    ["a/b?c", "a%2Fb%3Fc"],
    ["a#b", "a%23b"],
    ["%2e%2e", "%252e%252e"],
    ["x y", "x%20y"],
    ["..%2F..", "..%252F.."],
  ])("encodes %j as one segment", (id, encoded) => {
    expect(buildPath("/v2/ad-manager/{pid}/campaigns/{cid}/targeting", { pid: 1, cid: id })).toBe(
      `/v2/ad-manager/1/campaigns/${encoded}/targeting`,
    );
  });

  it.each([".", "..", ""])("refuses %j", (id) => {
    expect(() => buildPath("/v2/cb/{backupid}", { backupid: id })).toThrow(PathParamError);
  });

  it("refuses missing and unknown parameters", () => {
    expect(() => buildPath("/v2/cb/{backupid}", {})).toThrow(/is required/);
    expect(() => buildPath("/v2/cb", { backupid: 1 })).toThrow(/not a parameter/);
  });

  it("serializes queries, dropping undefined", () => {
    expect(buildQuery({ page: 2, r: "2024-01-01 00:00:00 - 2024-01-02 00:00:00", crid: undefined })).toBe(
      "?page=2&r=2024-01-01+00%3A00%3A00+-+2024-01-02+00%3A00%3A00",
    );
    expect(buildQuery({})).toBe("");
  });

  it("matches templates and classifies generic calls", () => {
    expect(matchTemplate("/v2/cb/{backupid}", "/v2/cb/12")).toEqual({ backupid: "12" });
    expect(matchTemplate("/v2/cb/{backupid}", "/v2/cb/12/x")).toBeUndefined();
    expect(findOperation("POST", "/v2/streams/timeshift/new")?.id).toBe("4.19");
    expect(findOperation("POST", "/v2/streams/timeshift/new?x=1")?.id).toBe("4.19");
    expect(findOperation("POST", "/v2/streams/timeshift/9/status")?.id).toBe("4.4");
    expect(findOperation("GET", "/v2/zones/http/push/5")?.id).toBe("ext:push-zone");
    expect(retryKindFor("POST", "/v2/streams/timeshift/new").kind).toBe("connect-only");
    expect(retryKindFor("POST", "/v2/ad-manager/1/requests").kind).toBe("retriable");
    expect(retryKindFor("POST", "/v2/unknown/thing").kind).toBe("connect-only");
    expect(retryKindFor("GET", "/v2/unknown/thing").kind).toBe("retriable");
  });
});

describe("hostile ids through the client", () => {
  it.each([
    ["../x", "/v2/ad-manager/4/campaigns/..%2Fx/targeting"],
    ["a/b?c", "/v2/ad-manager/4/campaigns/a%2Fb%3Fc/targeting"],
  ])("%j reaches the API as one segment", async (cid, path) => {
    const { pool, client, calls } = mockClient();
    pool
      .intercept({ path, method: "GET" })
      .reply(200, { result: "success", targeting: { campaign_id: cid }, from_cache: false }, { headers: JSON_HEADERS });
    await expect(adManager.getTargeting(client, 4, cid)).resolves.toMatchObject({ targeting: { campaign_id: cid } });
    expect(calls()[0]!.path).toBe(path);
  });

  it("string ids in other operations are encoded too", async () => {
    const { pool, client, calls } = mockClient();
    pool
      .intercept({ path: "/v2/zones/vod/push/3/adinsertion/creatives/..%2F..%2Fcb", method: "GET" })
      .reply(200, { result: "success", crid: "x" }, { headers: JSON_HEADERS });
    pool
      .intercept({ path: "/v2/streams/push/a%2Fb%3Fc/status", method: "POST" })
      .reply(200, { result: "success", stream: { id: "a/b?c" } }, { headers: JSON_HEADERS });
    await adInsertion.getCreative(client, 3, "../../cb");
    await streams.setStreamStatus(client, "push", "a/b?c", { disabled: 0 });
    expect(calls().map((c) => c.path)).toEqual([
      "/v2/zones/vod/push/3/adinsertion/creatives/..%2F..%2Fcb",
      "/v2/streams/push/a%2Fb%3Fc/status",
    ]);
  });

  it("dot segments and non-integer zone ids are refused before sending", async () => {
    const { client, calls } = mockClient();
    const a = (await rejection(adManager.archiveCampaign(client, 1, ".."))) as ValidationError;
    expect(a).toBeInstanceOf(ValidationError);
    expect(a).toMatchObject({ sent: false, field: "cid" });
    expect(a.message).toMatch(
      /^Invalid request on POST \/v2\/ad-manager\/\{pid\}\/campaigns\/\{cid\}\/archive: `cid` must not be "\.\."/,
    );
    const b = (await rejection(zones.getPushZone(client, "../1" as unknown as number))) as ValidationError;
    expect(b).toMatchObject({ sent: false, field: "zoneid", rule: "must be a whole number (an integer id)" });
    expect(calls()).toHaveLength(0);
  });
});
