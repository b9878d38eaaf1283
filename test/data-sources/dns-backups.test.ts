/** getDnsZones (§4.14), getCriticalBackups (§4.17), getCriticalBackup (§4.16) against the emulator. */
import * as pulumi from "@pulumi/pulumi";
import * as cdn from "../../sdk/data-sources";
import { NotFoundError, PermissionDeniedError, ValidationError } from "../../client";
import { useDataSourceEmulator, valueOf } from "./helpers";

const FORBIDDEN = "forbidden-key-for-data-sources";

describe("DNS and backup data sources", () => {
  const ds = useDataSourceEmulator({}, { forbiddenKey: FORBIDDEN });

  it("getDnsZones lists every zone in camelCase, with the nameservers, keeping unknown fields", async () => {
    await ds.emulator.mutate("dnsZones", 8801, { beyond_spec: { inner_key: 7 } });
    const result = await cdn.getDnsZones({}, ds.options);
    expect(result.domains.map((d) => d.domain)).toEqual(["northwind.example", expect.any(String), expect.any(String)]);
    expect(result.nameservers).toEqual([
      "ns1.cdnstream-dns.example",
      "ns2.cdnstream-dns.example",
      "ns3.cdnstream-dns.example",
    ]);
    expect(result).not.toHaveProperty("result");
    const zone = result.domains.find((d) => d.id === 8801)!;
    expect(zone).toMatchObject({
      serviceId: 418223,
      preferredType: "All",
      createdAt: "2023-08-25 09:30:00",
      meta: { isCloud: 1, isUpdated: 0, hasBulk: false },
      soa: { primaryNS: "ns1.cdnstream-dns.example", defaultTTL: "3600" },
      dnssec: {
        optOut: "N",
        dsRecords: [{ keyTag: 2371, algorithmName: "ECDSAP256SHA256", digestTypeName: "SHA-256" }],
      },
      linkedZones: { "101": "assets.northwind.example" },
      beyondSpec: { innerKey: 7 },
    });
    expect(zone.dnssec?.dnsKey?.[0]).toMatch(/DNSKEY/);
    expect(Object.keys(zone)).not.toEqual(expect.arrayContaining(["serviceid", "created_at", "preferredtype"]));
    expect(await ds.emulator.requestCounts()).toEqual({ "GET /v2/dns": 1 });
  });

  it("getDnsZonesOutput gives the same result as an Output", async () => {
    const output = cdn.getDnsZonesOutput(undefined, ds.options);
    expect(pulumi.Output.isInstance(output)).toBe(true);
    expect(await valueOf(output)).toEqual(await cdn.getDnsZones({}, ds.options));
  });

  it("getCriticalBackups and getCriticalBackup read the jobs, the single one flattened", async () => {
    const all = await cdn.getCriticalBackups({}, ds.options);
    expect(all.backups.map((b) => b.id)).toEqual([61, 62]);
    const one = await cdn.getCriticalBackup({ backupId: 61 }, ds.options);
    expect(one).toEqual(all.backups[0]);
    expect(one).toMatchObject({
      id: 61,
      serviceId: 418223,
      name: "assets nightly",
      meta: { prefix: "assets/" },
      deletedAt: null,
      linkedZones: [101],
      linksCount: 1,
      providerText: "Secondary object storage (Amsterdam)",
    });
    expect(one).not.toHaveProperty("backup");
  });

  it("their Output forms take Input arguments", async () => {
    const one = cdn.getCriticalBackupOutput({ backupId: pulumi.output(Promise.resolve(62)) }, ds.options);
    expect((await valueOf(one)).id).toBe(62);
    expect((await valueOf(cdn.getCriticalBackupsOutput({}, ds.options))).backups).toHaveLength(2);
  });

  it("checks ids and argument names before sending, naming the argument", async () => {
    const bad = cdn.getCriticalBackup({ backupId: "six" as unknown as number }, ds.options);
    await expect(bad).rejects.toBeInstanceOf(ValidationError);
    await expect(bad).rejects.toThrow(
      /^getCriticalBackup: invalid argument, nothing was sent to the API: `backupId` must be a whole number/,
    );
    await expect(cdn.getCriticalBackup({ backupId: 0 }, ds.options)).rejects.toThrow(
      /`backupId` must be a whole number above 0 \(the critical backup's id\)/,
    );
    const typo = cdn.getCriticalBackup({ backupID: 61 } as unknown as { backupId: number }, ds.options);
    await expect(typo).rejects.toThrow(
      /`backupID` is not an argument of getCriticalBackup \(did you mean `backupId`\?\)/,
    );
    const extra = cdn.getDnsZones({ zone: "northwind.example" } as cdn.GetDnsZonesArgs, ds.options);
    await expect(extra).rejects.toThrow(
      /^getDnsZones: invalid argument, nothing was sent to the API: `zone` is not an argument of getDnsZones \(it takes none\)/,
    );
    expect(await ds.emulator.requestCounts()).toEqual({});
  });

  it("names the function on API errors", async () => {
    const missing = cdn.getCriticalBackup({ backupId: 999 }, ds.options);
    await expect(missing).rejects.toBeInstanceOf(NotFoundError);
    await expect(missing).rejects.toThrow(/^getCriticalBackup: Not found \(404\)/);
  });

  it("explains a 403 on an ungated read as an account restriction, not a plan", async () => {
    const options = { clientOptions: { ...ds.options.clientOptions, apiKey: FORBIDDEN } };
    const denied = cdn.getDnsZones({}, options);
    await expect(denied).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(denied).rejects.toThrow(
      /^getDnsZones: permission denied \(403\): .*may not read DNS zones \(an account restriction; GET \/v2\/dns needs no plan or add-on\)/,
    );
    await expect(cdn.getCriticalBackups({}, options)).rejects.not.toThrow(/custom plan/);
  });
});
