/** DNS data source: list DNS zones. Result types in dns-types.ts (generated); names follow naming.ts. */
import { outputForm, type DataSourceOptions } from "./client";
import type { GetDnsZonesResult } from "./dns-types";
import { invoke, KEPT, out, result, type ResultFile, toResult } from "./invoke";
import { clientModule, onFirstCall } from "./lazy-client";

/** Arguments of {@link getDnsZones}: none. */
export interface GetDnsZonesArgs {}

const spec = onFirstCall(({ dns }) => ({ fn: "getDnsZones", op: dns.ops.listDnsZones, what: "DNS zones", names: {} }));

/**
 * List DNS zones: every DNS zone of the account and its authoritative nameservers.
 *
 * Calls `GET /v2/dns`.
 */
export function getDnsZones(args?: GetDnsZonesArgs, options?: DataSourceOptions): Promise<GetDnsZonesResult> {
  return invoke(spec(), args, options, async (client, _api, request) =>
    toResult(await clientModule().dns.listDnsZones(client, request)),
  );
}

/** {@link getDnsZones} as an Output. */
export const getDnsZonesOutput = outputForm(getDnsZones);

/** The types of dns-types.ts, which scripts/gen-data-source-types.ts writes (ResultType). @internal */
export const dnsTypes: ResultFile = {
  about: `Result types of the DNS data source (the DNS zone object), camelCased by naming.ts. ${KEPT}`,
  types: {
    DnsZoneMeta: { from: out("dns.DnsZone"), at: "meta", doc: "`meta` of the DNS zone object of a DNS zone." },
    DnsDsRecord: {
      from: out("dns.DnsZone"),
      at: "dnssec.ds_records[]",
      doc: "`dnssec.ds_records[]` of the DNS zone object item.",
    },
    DnsZone: { from: out("dns.DnsZone"), doc: "the DNS zone object DNS zone (`domains[]` item), camelCased." },
    GetDnsZonesResult: result("dns.ops.listDnsZones.response", { doc: "Result of `getDnsZones` (`GET /v2/dns`)." }),
  },
};
