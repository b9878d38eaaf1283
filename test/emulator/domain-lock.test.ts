/** §4.5 VoD pull zone domain lock and §4.11 bulk HTTP zone domain lock. */
import { expectError, expectFields, suiteHarness } from "./helpers";
import { VOD_PULL_ZONE } from "./shapes";

const h = suiteHarness();

describe("§4.5 VoD pull zone domain lock", () => {
  it("saves every field and returns the §4.5 zone subset", async () => {
    const body = {
      enabled: "Y",
      policy: "Y",
      list: "juniper.example, www.juniper.example",
      ips: "203.0.113.7,2001:db8::/32",
      noreferer: "N",
      active: "Y",
      mode: "S",
    };
    const res = await h.api("POST", "/v2/zones/vod/pull/401/domainlock", body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: "success", message: expect.any(String) });
    expectFields(res.body.zone, VOD_PULL_ZONE);
    // Lists are stored normalized (trimmed, comma-joined).
    const lock = {
      enabled: "Y",
      policy: "Y",
      list: "juniper.example,www.juniper.example",
      ips: "203.0.113.7,2001:db8::/32",
      noreferer: "N",
      active: "Y",
    };
    expect(res.body.zone.domainlock).toEqual(lock);
    expect((await h.api("GET", "/v2/zones/vod/pull/401")).body.zone.domainlock).toEqual(lock);
    expect((await h.state()).vodPullZones["401"].domainlock).toEqual(lock);
  });

  it.each([
    ["enabled", "yes"],
    ["policy", "1"],
    ["noreferer", true],
    ["active", "y"],
    ["mode", "X"],
    ["list", "bad domain,example.com"],
    ["ips", "300.1.1.1"],
    ["ips", "10.0.0.0/33"],
  ])("rejects %s=%j with 422 naming the field", async (field, value) => {
    expectError(await h.api("POST", "/v2/zones/vod/pull/401/domainlock", { [field]: value }), 422, `${field}:`);
  });

  it("answers 404 for an unknown zone", async () => {
    expectError(await h.api("POST", "/v2/zones/vod/pull/499/domainlock", { enabled: "Y" }), 404, "499");
  });
});

describe("§4.11 bulk HTTP zone domain lock", () => {
  const zonesOf = async () => {
    const s = await h.state();
    return [...Object.values(s.httpPushZones), ...Object.values(s.httpPullZones)] as {
      id: number;
      domainlock: Record<string, string>;
    }[];
  };

  it("save stores the account default only", async () => {
    const before = await zonesOf();
    const res = await h.api("POST", "/v2/zones/http/settings/security/domainlock", {
      enabled: "Y",
      list: "a.example",
      mode: "save",
    });
    expect(res.body).toEqual({ result: "success", message: expect.stringContaining("unchanged") });
    expect(await zonesOf()).toEqual(before);
    expect((await h.state()).account.domainLockDefault).toMatchObject({ enabled: "Y", list: "a.example" });
    expect((await h.api("GET", "/v2/zones/http/settings/security/domainlock")).body.domainlock).toMatchObject({
      list: "a.example",
    });
  });

  it("append unions list and ips into every HTTP push and pull zone, idempotently", async () => {
    const body = {
      enabled: "Y",
      policy: "N",
      list: "b.example,northwind.example",
      ips: "198.51.100.1",
      mode: "append",
    };
    const res = await h.api("POST", "/v2/zones/http/settings/security/domainlock", body);
    expect(res.body.message).toContain("50 HTTP zones");
    const once = await zonesOf();
    expect(once).toHaveLength(50);
    const z101 = once.find((z) => z.id === 101)!;
    expect(z101.domainlock).toMatchObject({
      enabled: "Y",
      list: "northwind.example,www.northwind.example,b.example",
      ips: "203.0.113.10,198.51.100.1",
    });
    expect(once.find((z) => z.id === 201)!.domainlock).toMatchObject({
      list: "b.example,northwind.example",
      ips: "198.51.100.1",
    });
    await h.api("POST", "/v2/zones/http/settings/security/domainlock", body);
    expect(await zonesOf()).toEqual(once);
    // VoD zones are not HTTP zones: untouched.
    expect((await h.state()).vodPullZones["401"].domainlock.list).toBe("");
  });

  it("overwrite replaces list and ips on every HTTP zone", async () => {
    await h.api("POST", "/v2/zones/http/settings/security/domainlock", {
      list: "c.example",
      ips: "",
      mode: "overwrite",
    });
    for (const zone of await zonesOf()) expect(zone.domainlock).toMatchObject({ list: "c.example", ips: "" });
  });

  it.each([
    [{ mode: "merge" }, "mode: must be one of"],
    [{ enabled: "maybe" }, "enabled"],
    [{ list: "not a domain" }, "list"],
    [{ active: "Y" }, "active: unknown field"],
  ])("rejects %j with 422", async (body, fragment) => {
    expectError(await h.api("POST", "/v2/zones/http/settings/security/domainlock", body), 422, fragment);
  });
});
