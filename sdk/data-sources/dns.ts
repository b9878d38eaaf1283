/** DNS data source: list DNS zones. Result types in dns-types.ts (generated); names follow naming.ts. */
import { outputForm, type DataSourceOptions } from "./client";
import type { GetDnsZonesResult } from "./dns-types";
import { invoke, toResult } from "./invoke";
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
