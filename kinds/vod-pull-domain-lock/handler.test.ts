/**
 * VodPullDomainLock's `check` and `diff`: every rule named before any request, and lists
 * compared the way the API treats them (sets of case-insensitive names), so no false diff.
 */
import { UNKNOWN } from "../common/inputs";
import { handler as handlerFor } from "./handler";
import { HandlerContext } from "../common/context";

/** The handler as a provider host makes it: one context for the file, as for one run. */
const handler = handlerFor(new HandlerContext());

const valid = {
  zoneId: 401,
  enabled: true,
  policy: "Y",
  domains: ["player.example.com", "*.cdn.example.org"],
  ips: ["203.0.113.7", "198.51.100.0/24", "2001:db8::/32"],
  noreferer: "N",
  active: true,
};

const failures = async (news: Record<string, unknown>) => (await handler.check({}, news)).failures ?? [];

describe("VodPullDomainLock check", () => {
  it("accepts valid inputs and returns them unchanged", async () => {
    expect(await handler.check({}, valid)).toEqual({ inputs: valid });
  });

  it("rejects a policy or noreferer other than Y/N, and a non-boolean flag", async () => {
    expect(await failures({ ...valid, policy: "whitelist", noreferer: "yes", active: "Y" })).toEqual([
      { property: "policy", reason: 'must be "Y" or "N"' },
      { property: "noreferer", reason: 'must be "Y" or "N"' },
      {
        property: "active",
        reason: expect.stringMatching(
          /^must be true \(`Y`\) or false \(`N`\), not a string: write true or false without quotes/,
        ),
      },
    ]);
  });

  it("names a malformed domain by its index", async () => {
    expect(await failures({ ...valid, domains: ["ok.example.com", "https://player.example.com/path"] })).toEqual([
      { property: "domains[1]", reason: expect.stringContaining("must be a host name") },
    ]);
  });

  it("names a malformed IP or CIDR by its index", async () => {
    const result = await failures({ ...valid, ips: ["203.0.113.7", "300.1.1.1", "10.0.0.0/33"] });
    expect(result.map((f) => f.property)).toEqual(["ips[1]", "ips[2]"]);
    expect(result[0].reason).toMatch(/IP address or CIDR/);
  });

  it("requires a setting besides the zone, and a positive zone id", async () => {
    expect(await failures({ zoneId: 401 })).toEqual([
      { property: "", reason: expect.stringContaining("declare at least one of enabled") },
    ]);
    expect((await failures({ zoneId: -4, enabled: true }))[0].property).toBe("zoneId");
  });

  it("rejects unknown properties (the API's own field names included)", async () => {
    expect((await failures({ ...valid, list: "a.example.com" }))[0].reason).toMatch(/list/);
  });

  it("tolerates unknown values during preview", async () => {
    expect(await failures({ zoneId: UNKNOWN, domains: [UNKNOWN, "player.example.com"], policy: UNKNOWN })).toEqual([]);
    // The "at least one setting" rule waits for every input to be known.
    expect(await failures({ zoneId: UNKNOWN })).toEqual([]);
  });

  it("requires adoptId to be the zone id", async () => {
    expect(await failures({ ...valid, adoptId: "401" })).toEqual([]);
    expect(await failures({ ...valid, adoptId: "402" })).toEqual([
      { property: "adoptId", reason: 'must be the id of the object these inputs name ("401"), not "402"' },
    ]);
  });
});

describe("VodPullDomainLock diff", () => {
  const diff = (olds: Record<string, unknown>, news: Record<string, unknown>) => handler.diff("401", olds, news);

  it("reports no change when equal", async () => {
    expect(await diff(valid, { ...valid })).toMatchObject({ changes: false, replaces: [] });
  });

  it("compares domains and IPs as case-insensitive sets", async () => {
    const news = {
      ...valid,
      domains: ["*.CDN.example.org", "Player.Example.com", "player.example.com"],
      ips: ["2001:DB8::/32", "198.51.100.0/24", "203.0.113.7"],
    };
    expect(await diff(valid, news)).toMatchObject({ changes: false });
    expect(await diff(valid, { ...valid, domains: ["player.example.com"] })).toMatchObject({
      changes: true,
      replaces: [],
    });
  });

  it("updates settings in place and replaces on a new zone", async () => {
    expect(await diff(valid, { ...valid, policy: "N" })).toMatchObject({
      changes: true,
      replaces: [],
      stables: ["zoneId"],
    });
    expect(await diff(valid, { ...valid, zoneId: 402 })).toMatchObject({ changes: true, replaces: ["zoneId"] });
  });

  it("leaves a setting the program stops declaring unmanaged, and ignores adoptId", async () => {
    const { noreferer: _dropped, ...rest } = valid;
    expect(await diff(valid, { ...rest, adoptId: "401" })).toMatchObject({ changes: false });
  });

  it("shows an unknown value as a change", async () => {
    expect(await diff(valid, { ...valid, ips: [UNKNOWN] })).toMatchObject({ changes: true, replaces: [] });
  });
});
