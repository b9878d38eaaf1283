/** DNS zones: §4.14 list. Shape: §2.17. */
import { z } from "zod";
import { defineOperation } from "../core/operation";
import { envelope, loose, timestamp } from "./shapes";

/** §2.17 DNS zone (`domains[]` item). */
export const DnsZone = loose({
  id: z.number(),
  serviceid: z.number(),
  domain: z.string(),
  meta: loose({
    name: z.string(),
    id: z.string(),
    type: z.string(),
    group: z.string(),
    zone: z.string(),
    status: z.string(),
    serial: z.string(),
    hasBulk: z.boolean(),
    is_cloud: z.number(),
    isUpdated: z.number(),
  }),
  soa: loose({
    serialNumber: z.string(),
    primaryNS: z.string(),
    adminMail: z.string(),
    refresh: z.string(),
    retry: z.string(),
    expire: z.string(),
    defaultTTL: z.string(),
  }),
  dnssec: loose({
    status: z.string(),
    ds: z.array(z.string()),
    ds_records: z.array(
      loose({
        digest: z.string(),
        key_tag: z.unknown(),
        algorithm: z.unknown(),
        algorithm_name: z.string(),
        digest_type: z.unknown(),
        digest_type_name: z.string(),
      }),
    ),
    dnskey: z.array(z.string()),
    optout: z.string(),
    statusDescription: z.string(),
  }),
  preferredtype: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  synced_at: z.string().nullable(),
  validated_at: z.string().nullable(),
  /** Null, or when the zone was deleted: a date string or Unix seconds (§2.17). */
  deleted: timestamp,
  proxied: z.array(z.string()),
  linkedZones: loose({}),
  nameservers: z.array(z.string()),
  stats: loose({ queries: z.number(), records: z.number() }),
}).required({ id: true });
export type DnsZone = z.infer<typeof DnsZone>;

/** §4.14 List DNS zones, with the account's authoritative nameservers. */
export const listDnsZones = defineOperation({
  id: "4.14",
  method: "GET",
  path: "/v2/dns",
  response: z.looseObject({ ...envelope, domains: z.array(DnsZone), nameservers: z.array(z.string()).optional() }),
});

export const ops = { listDnsZones };
