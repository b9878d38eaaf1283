/**
 * DNS data source: §4.14 list DNS zones. Result names follow naming.ts (camelCase); values are
 * as the API sends them.
 */
import { dns } from "../../provider/client";
import { outputForm, type DataSourceOptions } from "./client";
import { invoke, toResult } from "./invoke";

/** §2.17 `meta` of a DNS zone. */
export interface DnsZoneMeta {
  name?: string;
  id?: string;
  /** Observed `master`. */
  type?: string;
  group?: string;
  zone?: string;
  status?: string;
  serial?: string;
  hasBulk?: boolean;
  /** API `is_cloud` (integer flag). */
  isCloud?: number;
  isUpdated?: number;
}

/** §2.17 `dnssec.ds_records[]` item. */
export interface DnsDsRecord {
  digest?: string;
  /** API `key_tag`. */
  keyTag?: unknown;
  algorithm?: unknown;
  /** API `algorithm_name`. */
  algorithmName?: string;
  /** API `digest_type`. */
  digestType?: unknown;
  /** API `digest_type_name`. */
  digestTypeName?: string;
}

/** §2.17 DNS zone (`domains[]` item), camelCased. */
export interface DnsZone {
  id: number;
  /** API `serviceid`: the account service id. */
  serviceId?: number;
  domain?: string;
  meta?: DnsZoneMeta;
  /** Start of authority; every value a string as the API sends it. */
  soa?: { serialNumber?: string; primaryNS?: string; adminMail?: string; refresh?: string; retry?: string; expire?: string; defaultTTL?: string };
  dnssec?: {
    status?: string;
    ds?: string[];
    /** API `ds_records`. */
    dsRecords?: DnsDsRecord[];
    /** API `dnskey`. */
    dnsKey?: string[];
    /** API `optout`. */
    optOut?: string;
    statusDescription?: string;
  };
  /** API `preferredtype`; observed `All`. */
  preferredType?: string;
  /** API `created_at`, `YYYY-MM-DD HH:MM:SS`; likewise `updatedAt`, `syncedAt`, `validatedAt`. */
  createdAt?: string;
  updatedAt?: string;
  syncedAt?: string | null;
  validatedAt?: string | null;
  /** Null, or when the zone was deleted. */
  deleted?: string | number | null;
  proxied?: string[];
  /** Kept as sent (its keys are data, e.g. zone ids). */
  linkedZones?: Record<string, unknown>;
  /** This zone's nameservers. */
  nameservers?: string[];
  stats?: { queries?: number; records?: number };
}

/** Arguments of {@link getDnsZones}: none. */
export interface GetDnsZonesArgs {}

/** Result of {@link getDnsZones} (§4.14). */
export interface GetDnsZonesResult {
  /** Every DNS zone of the account (§4.14 `domains`, §2.17). */
  domains: DnsZone[];
  /** The account's authoritative nameserver hosts (§4.14 `nameservers`). */
  nameservers?: string[];
}

const spec = { fn: "getDnsZones", op: dns.ops.listDnsZones, what: "DNS zones", names: {} };

/** §4.14 List DNS zones: every DNS zone of the account and its authoritative nameservers. */
export function getDnsZones(args?: GetDnsZonesArgs, options?: DataSourceOptions): Promise<GetDnsZonesResult> {
  return invoke(spec, args, options, async (client, _api, request) => toResult(await dns.listDnsZones(client, request)));
}

/** {@link getDnsZones} as an Output. */
export const getDnsZonesOutput = outputForm(getDnsZones);
