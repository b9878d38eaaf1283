/**
 * HttpDomainLockBulk's `check` and `diff` (rules named before any request; lists compared as
 * case-insensitive sets; `mode` an in-place change), and its refresh where the API has no read
 * for the account default: state kept, one warning.
 */
import { UNKNOWN } from "../common/inputs";
import { handler as handlerFor } from "./handler";
import { HandlerContext } from "../common/context";
import type { TestEmulator } from "../../test/helpers/emulator";
import { handlerAgainstEmulator, type HandlerAgainstEmulator } from "../../test/provider/against-emulator";

/** The handler as a provider host makes it: one context for the file, as for one run. */
const handler = handlerFor(new HandlerContext());

const valid = {
  mode: "append",
  enabled: true,
  policy: "N",
  domains: ["partner.example.com", "*.cdn.example.org"],
  ips: ["203.0.113.50", "2001:db8::1"],
  noreferer: "Y",
};

const failures = async (news: Record<string, unknown>) => (await handler.check({}, news)).failures ?? [];

describe("HttpDomainLockBulk check", () => {
  it("accepts valid inputs and returns them unchanged", async () => {
    expect(await handler.check({}, valid)).toEqual({ inputs: valid });
  });

  it("rejects a mode outside §4.11, and a missing mode", async () => {
    expect(await failures({ ...valid, mode: "replace" })).toEqual([
      { property: "mode", reason: 'must be "save", "append" or "overwrite"' },
    ]);
    const { mode: _mode, ...noMode } = valid;
    expect((await failures(noMode)).map((f) => f.property)).toEqual(["mode"]);
  });

  it("rejects policy and noreferer other than Y/N", async () => {
    expect((await failures({ ...valid, policy: "blacklist", noreferer: true })).map((f) => f.property)).toEqual([
      "policy",
      "noreferer",
    ]);
  });

  it("names malformed domains and IPs by index", async () => {
    const result = await failures({
      ...valid,
      domains: ["partner.example.com", "partner.example.com:8080"],
      ips: ["10.0.0.1/24/8"],
    });
    expect(result).toEqual([
      { property: "domains[1]", reason: expect.stringMatching(/^"partner\.example\.com:8080" must be a host name/) },
      { property: "ips[0]", reason: expect.stringMatching(/^"10\.0\.0\.1\/24\/8" must be an IP address or CIDR/) },
    ]);
  });

  it("requires a setting besides the mode", async () => {
    expect(await failures({ mode: "save" })).toEqual([
      { property: "", reason: expect.stringContaining("declare at least one of enabled") },
    ]);
  });

  it("tolerates unknown values during preview", async () => {
    expect(await failures({ mode: UNKNOWN, domains: [UNKNOWN], enabled: true })).toEqual([]);
    expect(await failures({ mode: "save", policy: UNKNOWN })).toEqual([]);
  });

  it("takes only `account` as adoptId", async () => {
    expect(await failures({ ...valid, adoptId: "account" })).toEqual([]);
    expect(await failures({ ...valid, adoptId: "418223" })).toEqual([
      { property: "adoptId", reason: 'must be the id of the object these inputs name ("account"), not "418223"' },
    ]);
  });
});

describe("HttpDomainLockBulk diff", () => {
  const diff = (olds: Record<string, unknown>, news: Record<string, unknown>) => handler.diff("account", olds, news);

  it("reports no change when equal", async () => {
    expect(await diff(valid, { ...valid })).toMatchObject({ changes: false, replaces: [] });
  });

  it("compares domains and IPs as case-insensitive sets", async () => {
    const news = {
      ...valid,
      domains: ["*.CDN.example.org", "Partner.Example.com"],
      ips: ["2001:DB8::1", "203.0.113.50", "203.0.113.50"],
    };
    expect(await diff(valid, news)).toMatchObject({ changes: false });
    expect(await diff(valid, { ...valid, ips: ["203.0.113.50"] })).toMatchObject({ changes: true, replaces: [] });
  });

  it("changes mode in place: there is nothing to replace", async () => {
    expect(await diff(valid, { ...valid, mode: "overwrite" })).toEqual({
      changes: true,
      replaces: [],
      stables: [],
      deleteBeforeReplace: false,
    });
  });

  it("shows an unknown value as a change", async () => {
    expect(await diff(valid, { ...valid, policy: UNKNOWN })).toMatchObject({ changes: true, replaces: [] });
  });
});

describe("HttpDomainLockBulk where the API has no read for the account default", () => {
  let strict: TestEmulator;
  let stderr: jest.SpyInstance;
  let against: HandlerAgainstEmulator;

  beforeAll(async () => {
    against = await handlerAgainstEmulator(handler, { apiKey: "emu_bulk_unit_key_5f2c", strictSpec: true });
    ({ emulator: strict, stderr } = against);
  });
  afterAll(() => against?.close());

  it("writes, keeps state on refresh, and warns once that drift cannot be detected", async () => {
    await strict.clearRequests();
    const created = await handler.create({ ...valid, mode: "save" });
    // What was sent is recorded: the write is not followed by a read the spec does not list.
    const sent = {
      enabled: "Y",
      policy: "N",
      list: "partner.example.com,*.cdn.example.org",
      ips: "203.0.113.50,2001:db8::1",
      noreferer: "Y",
    };
    expect(created).toEqual({ id: "account", outs: { ...valid, mode: "save", accountDefault: sent } });
    expect(await strict.requestCounts()).toEqual({ "POST /v2/zones/http/settings/security/domainlock": 1 });
    expect((await strict.state()).account.domainLockDefault).toMatchObject({
      list: "partner.example.com,*.cdn.example.org",
      noreferer: "Y",
    });

    const read = await handler.read("account", created.outs);
    expect(read).toEqual({ id: "account", props: created.outs });
    await handler.read("account", created.outs);

    const lines = stderr.mock.calls.map(([text]) => String(text)).filter((text) => text.includes("HttpDomainLockBulk"));
    const warnings = lines.filter((text) => text.startsWith("warning: "));
    expect(warnings).toEqual([expect.stringContaining("cannot detect drift for HttpDomainLockBulk resources")]);
    // The API's message beside the success is passed on as a plain line, not a warning.
    expect(lines).toContain(
      "HttpDomainLockBulk account: the API said: Domain lock settings saved as the account default; existing zones unchanged\n",
    );
    // The path that answered 404 is not tried again in this run.
    expect((await strict.requestCounts())["GET /v2/zones/http/settings/security/domainlock"]).toBe(1);
  });

  it("after append, finds an HTTP pull zone out of step through the §4.10 listing, naming it", async () => {
    const created = await handler.create({ ...valid, mode: "append" });
    expect(created.outs.zonesOutOfStep).toEqual([]);
    expect((await handler.read("account", created.outs)).props).toEqual(created.outs);

    await strict.mutate("httpPullZones", 205, { domainlock: { list: "partner.example.com,other.example" } });
    await strict.mutate("httpPullZones", 230, { domainlock: { noreferer: "N" } });
    // The change is seen by the next operation (a refresh): this one read the listing already.
    await against.nextOperation();
    await strict.clearRequests();
    stderr.mockClear();
    const read = await handler.read("account", created.outs);
    // The domain 205 lost is the one every pull zone no longer holds; 230's flag is taken as it is.
    expect(read.inputs).toEqual({ ...valid, mode: "append", domains: ["partner.example.com"], noreferer: "N" });
    expect(read.props).toMatchObject({ zonesOutOfStep: [205, 230], accountDefault: created.outs.accountDefault });
    const said = stderr.mock.calls.map(([text]) => String(text)).join("");
    expect(said).toMatch(
      /HttpDomainLockBulk account: 2 HTTP pull zone\(s\) no longer hold the domain lock the last `append` wrote: 205, 230/,
    );
    // Only the listing was read (every page); the account default's path is known to be absent.
    const counts = await strict.requestCounts();
    expect(Object.keys(counts)).toEqual(["GET /v2/zones/http/pull"]);
  });

  it("after overwrite, takes a zone's own list as the live one", async () => {
    const created = await handler.create({ ...valid, mode: "overwrite" });
    await strict.mutate("httpPullZones", 210, {
      domainlock: { list: "partner.example.com,*.cdn.example.org,extra.example" },
    });
    const read = await handler.read("account", created.outs);
    expect(read.inputs).toEqual({
      ...valid,
      mode: "overwrite",
      domains: ["partner.example.com", "*.cdn.example.org", "extra.example"],
    });
    expect(read.props).toMatchObject({ zonesOutOfStep: [210] });
  });
});
