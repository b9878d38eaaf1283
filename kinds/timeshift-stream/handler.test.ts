/** TimeshiftStream check and diff (§4.19): typed nested args, §8 maxima, everything but `disabled` replaces. */
import { handler as handlerFor } from "./handler";
import { HandlerContext } from "../common/context";
import { UNKNOWN } from "../common/inputs";

/** The handler as a provider host makes it: one context for the file, as for one run. */
const handler = handlerFor(new HandlerContext());

const base = { name: "delayed", parent: 3001, timeshift: 300 };
const failures = async (news: Record<string, unknown>) => (await handler.check({}, news)).failures ?? [];

describe("TimeshiftStream check", () => {
  it("accepts a full declaration unchanged", async () => {
    const news = {
      ...base,
      codec: "h265",
      protocols: ["HLS", "DASH"],
      disabled: false,
      domainLock: {
        enabled: true,
        policy: "Y",
        noreferer: "N",
        active: true,
        domains: ["player.example"],
        ips: ["203.0.113.7"],
      },
      geoBlock: { enabled: true, policy: false, active: true, countries: ["DE", "FR"], ips: [] },
      ipAccess: { enabled: false, addresses: ["198.51.100.0/24"] },
      ndvr: { enabled: true, retentionDays: 180 },
      record: { enabled: true, server: 7, retentionDays: 90 },
      secureToken: {
        enabled: true,
        keyIp: false,
        active: true,
        policy: "dynamic",
        key: "k",
        ips: [],
        sessionSeconds: 0,
        timeoutSeconds: 600,
      },
      userAgent: { enabled: true, policy: true, caseSensitive: false, patterns: ["curl/*", "bot"] },
      adoptId: "5001",
    };
    expect(await handler.check({}, news)).toEqual({ inputs: news });
  });

  it("requires name, parent and timeshift (the API refuses a create without them)", async () => {
    const found = await failures({});
    expect(found.map((f) => f.property).sort()).toEqual(["name", "parent", "timeshift"]);
    expect(found.find((f) => f.property === "name")?.reason).toMatch(/is required/);
  });

  it.each([
    [{ ndvr: { retentionDays: 181 } }, "ndvr.retentionDays", /at most 180/],
    [{ record: { retentionDays: 91 } }, "record.retentionDays", /at most 90/],
    [{ record: { server: 0 } }, "record.server", /positive/],
    [{ timeshift: 0 }, "timeshift", /at least 1/],
    [{ codec: "vp9" }, "codec", /h264.*h265/],
    [{ protocols: ["HLS", "FLV"] }, "protocols[1]", /HLS, RTMP, DASH or RTSP/],
    [{ protocols: [] }, "protocols", /at least one/],
    [{ domainLock: { policy: "yes" } }, "domainLock.policy", /"Y" or "N"/],
    [{ domainLock: { domains: ["https://x.example/"] } }, "domainLock.domains[0]", /host name/],
    [{ geoBlock: { countries: ["de"] } }, "geoBlock.countries[0]", /alpha-2/],
    [{ ipAccess: { addresses: ["300.1.1.1"] } }, "ipAccess.addresses[0]", /IP address/],
    [{ secureToken: { policy: "D" } }, "secureToken.policy", /"dynamic" \(D\) or "fixed" \(F\)/],
    [{ secureToken: { timeoutSeconds: 0 } }, "secureToken.timeoutSeconds", /at least 1/],
    [{ secureToken: { sessionSeconds: -1 } }, "secureToken.sessionSeconds", /at least 0/],
    [{ userAgent: { patterns: ["a,b"] } }, "userAgent.patterns[0]", /without commas/],
    [{ disabled: "Y" }, "disabled", /true .* or false/],
    [{ adoptId: "ts-1" }, "adoptId", /numeric id/],
  ])("names the property and the rule: %j", async (patch, property, reason) => {
    expect(await failures({ ...base, ...patch })).toEqual([{ property, reason: expect.stringMatching(reason) }]);
  });

  it("accepts the retention maxima exactly", async () => {
    expect(await failures({ ...base, ndvr: { retentionDays: 180 }, record: { retentionDays: 90 } })).toEqual([]);
  });

  it("rejects unknown keys, top-level and nested (the API's bracketed names included)", async () => {
    expect((await failures({ ...base, "ndvr[retention]": 7 }))[0].reason).toMatch(/ndvr\[retention\]/);
    expect((await failures({ ...base, secureToken: { list: "k" } }))[0]).toMatchObject({
      property: "secureToken.list",
      reason: expect.stringMatching(/"list" is not an input/),
    });
  });

  it("does not judge values unknown during preview", async () => {
    expect(
      await failures({
        ...base,
        parent: UNKNOWN,
        secureToken: { key: UNKNOWN, timeoutSeconds: 60 },
        protocols: [UNKNOWN],
      }),
    ).toEqual([]);
  });
});

describe("TimeshiftStream diff", () => {
  const declared = {
    ...base,
    protocols: ["HLS", "DASH"],
    disabled: false,
    domainLock: { enabled: true, domains: ["player.example"] },
    secureToken: { enabled: true, key: "k" },
  };
  // Recorded after a refresh: live groups carry every sub-field, the parent may come back as a string.
  const recorded = {
    ...declared,
    parent: "3001",
    protocols: ["DASH", "HLS", "HLS"],
    domainLock: { enabled: true, policy: "N", noreferer: "N", active: true, domains: ["Player.Example"], ips: [] },
    secureToken: { enabled: true, key: "k", policy: "fixed", timeoutSeconds: 3600 },
    streamId: "5002",
    composedName: "k3v9q2-delayed",
    warnings: [],
  };

  it("reports no change when equal: protocols as a set, parent id as text, undeclared sub-fields ignored", async () => {
    expect(await handler.diff("5002", recorded, declared)).toMatchObject({ changes: false, replaces: [] });
  });

  it("changes disabled in place (§4.4) and lists every other input as stable", async () => {
    expect(await handler.diff("5002", recorded, { ...declared, disabled: true })).toEqual({
      changes: true,
      replaces: [],
      stables: [
        "name",
        "parent",
        "timeshift",
        "codec",
        "protocols",
        "domainLock",
        "geoBlock",
        "ipAccess",
        "ndvr",
        "record",
        "secureToken",
        "userAgent",
      ],
      deleteBeforeReplace: false,
    });
  });

  it.each([
    ["name", { name: "other" }],
    ["parent", { parent: 3002 }],
    ["timeshift", { timeshift: 301 }],
    ["codec", { codec: "h265" }],
    ["protocols", { protocols: ["HLS"] }],
    ["domainLock", { domainLock: { enabled: true, domains: ["player.example"], policy: "Y" } }],
    ["secureToken", { secureToken: { enabled: true, key: "rotated" } }],
    ["ndvr", { ndvr: { enabled: true } }],
  ])("replaces on a changed %s", async (key, patch) => {
    expect(await handler.diff("5002", recorded, { ...declared, ...patch })).toMatchObject({
      changes: true,
      replaces: [key],
    });
  });

  it("treats a newly declared sub-field as a change, though a live group without it is not drift", async () => {
    const applied = { ...declared, streamId: "5002" }; // no refresh yet: groups hold what was declared
    const news = { ...declared, domainLock: { ...declared.domainLock, noreferer: "N" } };
    expect(await handler.diff("5002", applied, news)).toMatchObject({ changes: true, replaces: ["domainLock"] });
    expect(await handler.diff("5002", recorded, news)).toMatchObject({ changes: false });
  });

  it("ignores adoptId after creation", async () => {
    expect((await handler.diff("5002", recorded, { ...declared, adoptId: "5001" })).changes).toBe(false);
  });
});
