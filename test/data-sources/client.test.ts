/**
 * The program-side plumbing of the data sources: configuration resolution (stack config, then
 * environment), one shared client per configuration, closing, and the camelCase naming rules.
 */
import * as pulumi from "@pulumi/pulumi";
import { CdnstreamClient, ConfigError } from "../../client";
import * as cdn from "../../sdk/data-sources";
import { dataSourceClient } from "../../sdk/data-sources/client";
import { camelize, camelKey } from "../../sdk/data-sources/naming";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";

const ENV_KEYS = ["CDNSTREAM_API_KEY", "CDNSTREAM_BASE_URL", "CDNSTREAM_MAX_RETRIES"] as const;

describe("data-source configuration and client", () => {
  let emulator: TestEmulator;
  const savedEnv: Record<string, string | undefined> = {};
  beforeAll(async () => {
    emulator = await startTestEmulator();
    for (const k of ENV_KEYS) savedEnv[k] = process.env[k];
  });
  afterEach(async () => {
    pulumi.runtime.setAllConfig({}, []);
    for (const k of ENV_KEYS) {
      if (savedEnv[k] === undefined) delete process.env[k];
      else process.env[k] = savedEnv[k];
    }
    await cdn.closeDataSourceClients();
  });
  afterAll(async () => emulator?.close());

  it("takes stack config before the environment", async () => {
    process.env.CDNSTREAM_BASE_URL = "http://127.0.0.1:9"; // nothing listens there
    process.env.CDNSTREAM_API_KEY = "wrong-key";
    pulumi.runtime.setAllConfig({ "cdnstream:baseUrl": emulator.url, "cdnstream:apiKey": emulator.apiKey }, [
      "cdnstream:apiKey",
    ]);
    expect((await cdn.getDnsZones()).domains).toHaveLength(3);
  });

  it("falls back to the environment without stack config", async () => {
    process.env.CDNSTREAM_BASE_URL = emulator.url;
    process.env.CDNSTREAM_API_KEY = emulator.apiKey;
    expect((await cdn.getCriticalBackups()).backups).toHaveLength(2);
  });

  it("reads the numeric settings from stack config too, and says what to set when something is missing", async () => {
    process.env.CDNSTREAM_MAX_RETRIES = "2";
    pulumi.runtime.setAllConfig(
      { "cdnstream:baseUrl": emulator.url, "cdnstream:apiKey": emulator.apiKey, "cdnstream:maxRetries": "many" },
      ["cdnstream:apiKey"],
    );
    const bad = cdn.getDnsZones();
    await expect(bad).rejects.toBeInstanceOf(ConfigError);
    await expect(bad).rejects.toThrow(/^getDnsZones: config cdnstream:maxRetries="many" is not a number/);

    pulumi.runtime.setAllConfig({ "cdnstream:baseUrl": emulator.url }, []);
    delete process.env.CDNSTREAM_API_KEY;
    await expect(cdn.getDnsZones()).rejects.toThrow(
      /^getDnsZones: No API key: set `pulumi config set --secret cdnstream:apiKey <key>` or CDNSTREAM_API_KEY/,
    );
    // A bad argument is knowable without any configuration: it is what is reported.
    await expect(cdn.getCriticalBackup({ backupId: -1 })).rejects.toThrow(
      /^getCriticalBackup: invalid argument, nothing was sent to the API: `backupId` must be a whole number above 0/,
    );
  });

  it("shares one client per configuration, and makes a new one after closing", async () => {
    const options = { clientOptions: { apiKey: emulator.apiKey, baseUrl: emulator.url, env: {} } };
    const first = dataSourceClient(options);
    expect(dataSourceClient({ clientOptions: { ...options.clientOptions } })).toBe(first);
    expect(dataSourceClient({ clientOptions: { ...options.clientOptions, maxRetries: 1 } })).not.toBe(first);
    expect(dataSourceClient({ clientOptions: { ...options.clientOptions, apiKey: "another-key" } })).not.toBe(first);
    await cdn.closeDataSourceClients();
    const second = dataSourceClient(options);
    expect(second).not.toBe(first);
    expect((await cdn.getDnsZones({}, options)).domains).toHaveLength(3);
  });

  it("uses a given client and never closes it", async () => {
    const client = new CdnstreamClient({ apiKey: emulator.apiKey, baseUrl: emulator.url, env: {} });
    expect(dataSourceClient({ client })).toBe(client);
    expect((await cdn.getCriticalBackup({ backupId: 62 }, { client })).id).toBe(62);
    await cdn.closeDataSourceClients();
    expect((await cdn.getCriticalBackup({ backupId: 61 }, { client })).id).toBe(61);
    await client.close();
  });
});

describe("result naming", () => {
  it("camelCases snake_case keys and the spec's run-together words; keeps other keys as sent", () => {
    expect(
      [
        "created_at",
        "subdivision_1_geoname_ids",
        "view_rate_25",
        "s3_access_key_id",
        "serviceid",
        "domainlock",
        "noreferer",
        "dnskey",
        "breakType",
        "primaryNS",
        "modeI",
        "letsencrypt",
        "a-b_c",
        "_x",
        "constructor",
        "__proto__",
      ].map(camelKey),
    ).toEqual([
      "createdAt",
      "subdivision1GeonameIds",
      "viewRate25",
      "s3AccessKeyId",
      "serviceId",
      "domainLock",
      "noReferer",
      "dnsKey",
      "breakType",
      "primaryNS",
      "modeI",
      "letsencrypt",
      "a-b_c",
      "_x",
      "constructor",
      "__proto__",
    ]);
  });

  it("converts at every depth, keeps data-keyed maps verbatim, and never drops a key on a clash", () => {
    const input = JSON.parse(
      '{"pacing_mode":"even","pacingMode":"asap","a_b":[{"c_d":1}],"hashes":{"cdn_1.example":"h"},"linkedZones":{"zone_101":"x"},"constructor":1,"__proto__":{"polluted":true}}',
    );
    const out = camelize(input) as Record<string, unknown>;
    expect(JSON.stringify(out)).toBe(
      '{"pacing_mode":"even","pacingMode":"asap","aB":[{"cD":1}],"hashes":{"cdn_1.example":"h"},"linkedZones":{"zone_101":"x"},"constructor":1,"__proto__":{"polluted":true}}',
    );
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
