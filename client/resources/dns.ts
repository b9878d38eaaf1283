/** DNS zones: §4.14 list. Shape: §2.17. */
import { z } from "zod";
import { defineOperation } from "../core/operation";
import { envelope, loose, timestamp } from "./shapes";

/** §2.17 DNS zone (`domains[]` item). */
export const DnsZone = loose({
  /** DNS zone id. */
  id: z.number(),
  /** Account service id. */
  serviceid: z.number(),
  /** The domain. */
  domain: z.string(),
  /** Service metadata. */
  meta: loose({
    /** Zone name. */
    name: z.string(),
    /** Id in the DNS service. */
    id: z.string(),
    /** Observed `master`. */
    type: z.string(),
    /** Group. */
    group: z.string(),
    /** Zone. */
    zone: z.string(),
    /** Status. */
    status: z.string(),
    /** SOA serial. */
    serial: z.string(),
    /** Whether bulk records exist. */
    hasBulk: z.boolean(),
    /** Integer flag. */
    is_cloud: z.number(),
    /** Integer flag. */
    isUpdated: z.number(),
  }),
  /** Start of authority; every value a string as the API sends it. */
  soa: loose({
    /** Serial. */
    serialNumber: z.string(),
    /** Primary nameserver. */
    primaryNS: z.string(),
    /** Administrator mail. */
    adminMail: z.string(),
    /** Refresh. */
    refresh: z.string(),
    /** Retry. */
    retry: z.string(),
    /** Expire. */
    expire: z.string(),
    /** Default TTL. */
    defaultTTL: z.string(),
  }),
  /** DNSSEC state. */
  dnssec: loose({
    /** DNSSEC status. */
    status: z.string(),
    /** DS records as text. */
    ds: z.array(z.string()),
    /** DS records. */
    ds_records: z.array(
      loose({
        /** Digest. */
        digest: z.string(),
        /** Key tag, as sent. */
        key_tag: z.unknown(),
        /** Algorithm number, as sent. */
        algorithm: z.unknown(),
        /** Algorithm name. */
        algorithm_name: z.string(),
        /** Digest type, as sent. */
        digest_type: z.unknown(),
        /** Digest type name. */
        digest_type_name: z.string(),
      }),
    ),
    /** DNSKEY records. */
    dnskey: z.array(z.string()),
    /** Opt-out, as sent. */
    optout: z.string(),
    /** Status, in words. */
    statusDescription: z.string(),
  }),
  /** Observed `All`. */
  preferredtype: z.string(),
  /** `YYYY-MM-DD HH:MM:SS`. */
  created_at: z.string(),
  /** `YYYY-MM-DD HH:MM:SS`. */
  updated_at: z.string(),
  /** `YYYY-MM-DD HH:MM:SS`, or null. */
  synced_at: z.string().nullable(),
  /** `YYYY-MM-DD HH:MM:SS`, or null. */
  validated_at: z.string().nullable(),
  /** Null, or when the zone was deleted: a date string or Unix seconds. */
  deleted: timestamp,
  /** Proxied records. */
  proxied: z.array(z.string()),
  /** Kept as sent (its keys are data, e.g. zone ids). */
  linkedZones: loose({}),
  /** This zone's nameservers. */
  nameservers: z.array(z.string()),
  /** Usage. */
  stats: loose({
    /** Queries. */
    queries: z.number(),
    /** Records. */
    records: z.number(),
  }),
}).required({ id: true });
export type DnsZone = z.infer<typeof DnsZone>;

/** §4.14 List DNS zones, with the account's authoritative nameservers. */
export const listDnsZones = defineOperation({
  id: "4.14",
  method: "GET",
  path: "/v2/dns",
  response: z.looseObject({
    ...envelope,
    /** Every DNS zone of the account (`domains` of `GET /v2/dns`, the DNS zone object). */
    domains: z.array(DnsZone),
    /** The account's authoritative nameserver hosts (`nameservers` of `GET /v2/dns`). */
    nameservers: z.array(z.string()).optional(),
  }),
});

export const ops = { listDnsZones };
