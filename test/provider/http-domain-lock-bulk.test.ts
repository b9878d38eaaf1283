/**
 * HttpDomainLockBulk's `check` and `diff` (rules named before any request; lists compared as
 * case-insensitive sets; `mode` an in-place change), and its refresh where the API has no read
 * for the account default: state kept, one warning.
 */
import type * as pulumi from "@pulumi/pulumi";
import { UNKNOWN } from "../../provider/inputs";
import { handler } from "../../provider/resources/http-domain-lock-bulk";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

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
      { property: "mode", reason: 'must be "save", "append" or "overwrite" (§4.11)' },
    ]);
    const { mode: _mode, ...noMode } = valid;
    expect((await failures(noMode)).map((f) => f.property)).toEqual(["mode"]);
  });

  it("rejects policy and noreferer other than Y/N", async () => {
    expect((await failures({ ...valid, policy: "blacklist", noreferer: true })).map((f) => f.property)).toEqual(["policy", "noreferer"]);
  });

  it("names malformed domains and IPs by index", async () => {
    const result = await failures({ ...valid, domains: ["partner.example.com", "partner.example.com:8080"], ips: ["10.0.0.1/24/8"] });
    expect(result).toEqual([
      { property: "domains[1]", reason: expect.stringContaining("must be a host name") },
      { property: "ips[0]", reason: expect.stringContaining("IP address or CIDR") },
    ]);
  });

  it("requires a setting besides the mode", async () => {
    expect(await failures({ mode: "save" })).toEqual([{ property: "", reason: expect.stringContaining("declare at least one of enabled") }]);
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
    const news = { ...valid, domains: ["*.CDN.example.org", "Partner.Example.com"], ips: ["2001:DB8::1", "203.0.113.50", "203.0.113.50"] };
    expect(await diff(valid, news)).toMatchObject({ changes: false });
    expect(await diff(valid, { ...valid, ips: ["203.0.113.50"] })).toMatchObject({ changes: true, replaces: [] });
  });

  it("changes mode in place: there is nothing to replace", async () => {
    expect(await diff(valid, { ...valid, mode: "overwrite" })).toEqual({ changes: true, replaces: [], stables: [], deleteBeforeReplace: false });
  });

  it("shows an unknown value as a change", async () => {
    expect(await diff(valid, { ...valid, policy: UNKNOWN })).toMatchObject({ changes: true, replaces: [] });
  });
});

describe("HttpDomainLockBulk where the API has no read for the account default", () => {
  const KEY = "emu_bulk_unit_key_5f2c";
  let strict: TestEmulator;
  let stderr: jest.SpyInstance;

  beforeAll(async () => {
    strict = await startTestEmulator({ apiKey: KEY, strictSpec: true });
    const config = { "cdnstream:apiKey": KEY, "cdnstream:baseUrl": strict.url } as Record<string, string>;
    await handler.configure({ config: { get: (key: string) => config[key] } as unknown as pulumi.Config });
    stderr = jest.spyOn(process.stderr, "write").mockImplementation(() => true);
  });
  afterAll(async () => {
    stderr.mockRestore();
    // A different config closes the handler's client.
    await handler.configure({ config: { get: () => undefined } as unknown as pulumi.Config });
    await strict.close();
  });

  it("writes, keeps state on refresh, and warns once that drift cannot be detected", async () => {
    const created = await handler.create({ ...valid, mode: "save" });
    expect(created).toEqual({ id: "account", outs: { ...valid, mode: "save", accountDefault: null } });
    expect((await strict.state()).account.domainLockDefault).toMatchObject({ list: "partner.example.com,*.cdn.example.org", noreferer: "Y" });

    const read = await handler.read("account", created.outs);
    expect(read).toEqual({ id: "account", props: created.outs });
    await handler.read("account", created.outs);

    const warnings = stderr.mock.calls.map(([text]) => String(text)).filter((text) => text.includes("HttpDomainLockBulk"));
    expect(warnings).toEqual([expect.stringContaining("cannot detect drift for HttpDomainLockBulk resources")]);
  });
});
