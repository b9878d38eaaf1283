/** HTTP and VoD zones: §4.1, §4.5, §4.10-§4.12 and their reads. Shapes: §2.2-§2.4, §2.19. */
import { z } from "zod";
import type { CdnstreamClient } from "../core/client";
import { defineOperation, type RequestOptions } from "../core/operation";
import { Paginator, type PaginatorOptions } from "../core/pagination";
import {
  anyId,
  BwLimit,
  DomainLock,
  Eac,
  envelope,
  flag01,
  GeoBlock,
  intId,
  IpAccess,
  loose,
  numeric,
  openEnum,
  SecureToken,
  strId,
  timestamp,
  unixSecondsText,
  UserAgent,
  yn,
  ynIn,
} from "./shapes";

/** §2.3 ssl. The issuer-branded certificate key is kept as an unknown field. */
export const ZoneSsl = loose({
  /** `Y` when the zone serves HTTPS, `N` when not. */
  http: yn,
  /** `Y` when HTTP/2 is on, `N` when not. */
  http2: yn,
  /** `Y` when HTTP requests are redirected to HTTPS, `N` when not. */
  redirect: yn,
  /** Certificate mode; observed `S`. */
  mode: z.string(),
  /** The certificate's id, or null. */
  certid: anyId.nullable(),
  /** `Y` when SSL is enabled, `N` when not. */
  enabled: yn,
  /** Whether the API flags the certificate setup. */
  warning: z.boolean(),
});
/** §2.3 cache; the `*InSecs`/`*InMins` numbers sometimes arrive as numeric strings. */
export const ZoneCache = loose({
  /** `1` when smart caching is on, `0` when not. */
  smart: flag01,
  /** Cache duration, with a unit suffix. */
  cache: z.string(),
  /** Browser expiry duration, with a unit suffix. */
  expiry: z.string(),
  /** `Y` when the query string is part of the cache key, `N` when not. */
  querystring: yn,
  /** `Y` when the origin's Cache-Control is honoured, `N` when not. */
  cachecontrol: yn,
  /** `Y` when stale content is served while the origin fails, `N` when not. */
  usestale: yn,
  /** `Y` when stale content is revalidated, `N` when not. */
  revalidate: yn,
  /** Cache duration in seconds. */
  cacheInSecs: numeric,
  /** Cache duration in minutes. */
  cacheInMins: numeric,
  /** Expiry in seconds. */
  expiryInSecs: numeric,
  /** Expiry in minutes. */
  expiryInMins: numeric,
});
/** §2.3 edge. */
export const ZoneEdge = loose({
  /** `Y` when responses are compressed, `N` when not. */
  compression: yn,
  /** `Y` when Content-Disposition handling is on, `N` when not. */
  disposition: yn,
  /** `Y` when cookies are stripped, `N` when not. */
  stripcookie: yn,
  /** `Y` when X-Forwarded-For is sent to the origin, `N` when not. */
  xff: yn,
  /** `Y` when CORS headers are added, `N` when not. */
  cors: yn,
  /** `Y` when WebP images are served to browsers that take them, `N` when not. */
  webp: yn,
  /** `Y` when pseudo-streaming is on, `N` when not. */
  pseudostreaming: yn,
  /** `Y` when WordPress mode is on, `N` when not. */
  wp: yn,
  /** `Y` when large file optimization is on, `N` when not. */
  lfo: yn,
  /** `Y` when prefresh is on, `N` when not. */
  prefresh: yn,
  /** Compression level. */
  compressionlevel: numeric,
});
/** §2.3 shield. */
export const ZoneShield = loose({
  /** The shield network. */
  network: z.string(),
  /** `Y` when the shield is enabled, `N` when not. */
  enabled: yn,
  /** Country codes of the shield locations. */
  shields: z.array(z.string()),
});
/** §2.3 origin_auth (keys arrive masked). */
export const ZoneOriginAuth = loose({
  /** The authentication kind; observed `none`. */
  type: z.string(),
  /** S3 midgress cache size, as a string. */
  s3_midgress_cache_size: z.string(),
  /** S3 access key id (masked). */
  s3_access_key_id: z.string(),
  /** S3 secret key (masked). */
  s3_access_key_secret: z.string(),
});
/** §2.3 seo. */
export const ZoneSeo = loose({
  /** The SEO settings' id. */
  id: anyId,
  /** SEO type. */
  type: z.string(),
  /** Canonical header setting. */
  canonical: z.string(),
  /** SEO mode. */
  mode: z.string(),
  /** Robots setting. */
  robots: z.string(),
  /** Which robots.txt is served. */
  robotstxt: z.string(),
  /** A custom robots.txt. */
  robotstxtcustom: z.string(),
  /** Whether SEO settings are enabled, as the API sends it. */
  enabled: z.string(),
});
/** §2.3 cdnservice (push zones add the service addresses, kept as unknown fields). */
export const ZoneCdnService = loose({
  /** Purge endpoints. */
  purgeurls: z.array(z.string()),
  /** The purge endpoint. */
  purgeurl: z.string(),
  /** The service's auth token (a credential). */
  authtoken: z.string(),
});

/** §2.2 zone object (push, pull, VoD pull subset): which fields appear depends on kind and operation. */
export const Zone = loose({
  /** `pull` in this list. */
  type: openEnum(["push", "pull"]),
  /** Zone id. */
  id: z.number(),
  /** Account service id. */
  serviceid: z.number(),
  /** Zone alias. */
  alias: z.string(),
  /** Zone hash identifier. */
  hashid: z.string(),
  /** Observed `http`. */
  mode: z.string(),
  /** Zone name. */
  name: z.string(),
  /** Zone domain. */
  fqdn: z.string(),
  /** Domain of a VoD pull zone. */
  fqdnVoD: z.string(),
  /** Observed `Enabled` (pull), `active` (push). */
  status: z.string(),
  /** `0` enabled, `1` disabled. */
  disabled: flag01,
  /** `0`/`1` flag. */
  optimizer: flag01,
  /** `0`/`1` flag. */
  iscms: flag01,
  /** `Y` when the zone serves live content, `N` when not. */
  live: yn,
  /** Origin URL. */
  origin: z.string(),
  /** Backup origin URL. */
  backup: z.string(),
  /** Host header sent to the origin. */
  hostHeader: z.string(),
  /** Custom host header setting. */
  customhostheader: z.string(),
  /** Custom domain(s). */
  cnames: z.string(),
  /** Custom domains as an array. */
  cnamesArr: z.array(z.string()),
  /** Fully qualified domains. */
  cnamesArrFqdn: z.array(z.string()),
  /** Origin IP setting. */
  originip: loose({
    /** `Y` when it is on, `N` when not. */
    enabled: yn,
  }),
  /** Web application firewall. */
  waf: loose({
    /** `Y` when it is on, `N` when not. */
    enabled: yn,
  }),
  /** The firewall's id, or null. */
  wafid: anyId.nullable(),
  /** Edge rule id. */
  edgeruleids: numeric,
  /** Edge rules, as sent. */
  edgeRules: z.array(z.unknown()),
  /** Whether the zone has edge rules. */
  hasEdgeRules: z.boolean(),
  /** DNS check result. */
  dnscheck: z.number(),
  /** Zone IP, or null. */
  ip: z.string().nullable(),
  /** Whether the zone is proxied. */
  proxied: z.boolean(),
  /** Push zones: rclone flag. */
  rclone: z.number(),
  /** Remaining, as the API counts it. */
  remaining: z.number(),
  /** `YYYY-MM-DD HH:MM:SS` in this list (ISO 8601 UTC in the push update response). */
  created_at: z.string(),
  /** As `createdAt`. */
  updated_at: z.string(),
  /** Null, or when the zone was deleted: a date string or Unix seconds (the zone object "null or timestamp"). */
  deleted: timestamp,
  /** SSL settings (the zone sub-objects). */
  ssl: ZoneSsl,
  /** Cache settings (the zone sub-objects). */
  cache: ZoneCache,
  /** Edge settings (the zone sub-objects). */
  edge: ZoneEdge,
  /** Origin shield (the zone sub-objects). */
  shield: ZoneShield,
  /** Origin authentication (the zone sub-objects). */
  origin_auth: ZoneOriginAuth,
  /** SEO settings (the zone sub-objects). */
  seo: ZoneSeo,
  /** Service endpoints (the zone sub-objects). */
  cdnservice: ZoneCdnService,
  /** Domain lock (the access-control objects). */
  domainlock: DomainLock,
  /** Geo blocking (the access-control objects). */
  geoblock: GeoBlock,
  /** IP access control (the access-control objects). */
  ipaccess: IpAccess,
  /** User-agent access control (the access-control objects). */
  useragent: UserAgent,
  /** Secure token (the access-control objects). */
  securetoken: SecureToken,
  /** External access control (the access-control objects). */
  eac: Eac,
  /** Bandwidth limit (the access-control objects). */
  bwlimit: BwLimit,
  /** FTP access; the password is masked in some responses and plain in others (the zone object). */
  ftpdetails: loose({
    /** FTP user name. */
    username: z.string(),
    /** FTP password (a credential, sometimes masked). */
    password: z.string(),
  }),
  /** S3 storage details (the zone sub-objects). */
  s3details: loose({
    /** Relation id. */
    relid: z.number(),
    /** Storage type. */
    type: z.string(),
    /** Project id. */
    projectid: z.string(),
    /** Access token (a credential). */
    token: z.string(),
    /** Whether the storage is active, as the API sends it. */
    active: z.string(),
  }),
  /** Transcoding of uploaded files. */
  transcodefile: loose({
    /** Transcoding profile ids. */
    profiles: z.array(z.string()),
    /** Addresses notified. */
    emails: z.array(z.string()),
    /** Webhooks notified. */
    webhooks: z.array(z.string()),
  }),
  /** The upload server: an object, or its name as a string. */
  server: z.union([
    loose({
      /** Server code. */
      code: z.string(),
      /** Server name. */
      name: z.string(),
      /** Server country. */
      country: z.string(),
      /** `uploadPort`, `uploadHost`. */
      meta: loose({}),
    }),
    z.string(),
  ]),
  /**
   * Pull zones: scheme, name, urlPrefix, http, players, tokenized, hls (the zone object); host-keyed `hashes` kept
   * verbatim.
   */
  playbackurls: loose({}),
  /** Push zones: edge rules switch (`POST /v2/zones/http/push/{zoneid}` response). */
  edgerules: loose({
    /** `Y`/`N` or a boolean, as sent. */
    enabled: z.union([yn, z.boolean()]),
  }),
  /** `Y` when SSL is enabled (VoD pull domain lock response), `N` when not. */
  ssl_enabled: yn,
}).required({ id: true });
export type Zone = z.infer<typeof Zone>;

/** §2.19 purge / prefetch operation. Unix seconds arrive as strings. */
export const PurgeOperation = loose({
  /** Operation id, e.g. `pg-8b41d0e5`. */
  id: z.string(),
  /** Account service id. */
  serviceid: z.number(),
  /** The HTTP push zone id, as a string. */
  zone: z.string(),
  /** `fetch` = prefetch, `url` = purge by path, any other value another purge kind (the purge operation). */
  type: z.string(),
  /** The file paths of the operation. */
  list: z.array(z.string()),
  /** Metadata, as sent. */
  meta: z.string(),
  /** Per-server progress. */
  logs: z.array(
    loose({
      /** Server id. */
      serverId: z.string(),
      /** Server name. */
      serverName: z.string(),
      /** Paths this server has handled so far. */
      purged: z.array(z.string()),
      /** `false` while this entry is pending (the object states). */
      completed: z.boolean(),
    }),
  ),
  /** Unix seconds as a string; empty or null while pending. */
  completed_at: unixSecondsText.nullable(),
  /** Unix seconds as a string. */
  created_at: unixSecondsText,
  /** Unix seconds as a string. */
  updated_at: unixSecondsText,
  /** Errors as a string; empty if none. */
  errors: z.string().nullable(),
});

/** §4.1 body: all optional. */
export const UpdatePushZoneBody = z.strictObject({
  /** Custom domain, e.g. a host name. */
  cnames: z.string().optional(),
  /** Transcoding profile ids applied automatically. */
  profiles: z.array(z.union([z.number().int(), z.string().min(1)])).optional(),
  /** Receives the list of transcoded files every minute (§6); empty clears it. */
  webhook: z
    .string()
    .refine((s) => s === "" || /^https?:\/\/[^\s/]+/i.test(s), 'must be an http(s) URL (or "" to clear)')
    .optional(),
});
export type UpdatePushZoneBody = z.input<typeof UpdatePushZoneBody>;

const domainLockFields = {
  enabled: ynIn.optional(),
  policy: ynIn.optional(),
  /** Comma-separated domain names. */
  list: z.string().optional(),
  /** Comma-separated IPs allowed regardless of the lock. */
  ips: z.string().optional(),
  noreferer: ynIn.optional(),
};
/** §4.5 body. */
export const VodPullDomainLockBody = z.strictObject({
  ...domainLockFields,
  active: ynIn.optional(),
  /** `S` = shared (zone-level), the only value documented. */
  mode: z.enum(["S"], { error: 'must be "S" (shared)' }).optional(),
});
export type VodPullDomainLockBody = z.input<typeof VodPullDomainLockBody>;
/** §4.11 body. */
export const BulkDomainLockBody = z.strictObject({
  ...domainLockFields,
  mode: z.enum(["save", "append", "overwrite"], { error: 'must be "save", "append" or "overwrite"' }).optional(),
});
export type BulkDomainLockBody = z.input<typeof BulkDomainLockBody>;

const zoneParams = z.strictObject({ zoneid: intId });
const zoneResponse = z.looseObject({ ...envelope, zone: Zone });

/** §4.1 Update HTTP push zone info. */
export const updatePushZone = defineOperation({
  id: "4.1",
  method: "POST",
  path: "/v2/zones/http/push/{zoneid}",
  params: zoneParams,
  body: UpdatePushZoneBody,
  response: zoneResponse,
});
/** §4.5 Update VoD pull zone domain lock. */
export const updateVodPullDomainLock = defineOperation({
  id: "4.5",
  method: "POST",
  path: "/v2/zones/vod/pull/{zoneid}/domainlock",
  params: zoneParams,
  body: VodPullDomainLockBody,
  response: zoneResponse,
});
/** §4.10 List HTTP pull zones: one page, `{ page }` (pages start at 1). */
const listPullZonesOp = defineOperation({
  id: "4.10",
  method: "GET",
  path: "/v2/zones/http/pull",
  query: z.strictObject({ page: z.number().int().min(1, "must be 1 or more (pages start at 1)").optional() }),
  response: z.looseObject({ ...envelope, zones: z.array(Zone) }),
});
/** §4.10 List HTTP pull zones: one page (pages start at 1); the page is positional here. */
export const listPullZones = (c: CdnstreamClient, page?: number, o?: RequestOptions) => listPullZonesOp(c, { page }, o);
/** §4.11 Update HTTP zone domain lock settings (all HTTP zones; no zone id). */
export const updateBulkDomainLock = defineOperation({
  id: "4.11",
  method: "POST",
  path: "/v2/zones/http/settings/security/domainlock",
  body: BulkDomainLockBody,
  response: z.looseObject(envelope),
});
/** §4.12 Get purge / prefetch details. */
export const getPurge = defineOperation({
  id: "4.12",
  method: "GET",
  path: "/v2/zones/http/push/{zoneid}/purge/{purgeId}",
  params: z.strictObject({ zoneid: intId, purgeId: strId }),
  response: PurgeOperation.extend({ result: envelope.result }),
});
/** Extension beyond the spec: `GET /v2/zones/http/push/{id}` (refresh/import read, docs/design.md). */
export const getPushZone = defineOperation({
  id: "ext:push-zone",
  method: "GET",
  path: "/v2/zones/http/push/{zoneid}",
  params: zoneParams,
  response: zoneResponse,
});
/** Extension beyond the spec: `GET /v2/zones/vod/pull/{id}` (refresh/import read, docs/design.md). */
export const getVodPullZone = defineOperation({
  id: "ext:vod-pull-zone",
  method: "GET",
  path: "/v2/zones/vod/pull/{zoneid}",
  params: zoneParams,
  response: zoneResponse,
});
/** Extension beyond the spec: the account default every §4.11 mode saves (docs/design.md, "§4.11: which zones"). */
export const getBulkDomainLock = defineOperation({
  id: "ext:bulk-domain-lock",
  method: "GET",
  path: "/v2/zones/http/settings/security/domainlock",
  response: z.looseObject({ ...envelope, domainlock: DomainLock }),
});

export const ops = {
  updatePushZone,
  updateVodPullDomainLock,
  listPullZones: listPullZonesOp,
  updateBulkDomainLock,
  getPurge,
  getPushZone,
  getVodPullZone,
  getBulkDomainLock,
};

/** §4.10 every pull zone, page by page: `for await (const zone of pullZones(c))`, or `.all()` (pagination.ts). */
export const pullZones = (
  c: CdnstreamClient,
  o?: RequestOptions,
  pager: Pick<PaginatorOptions<Zone>, "batch" | "maxPages"> = {},
) =>
  new Paginator<Zone>(async (page) => ({ items: (await listPullZones(c, page, o)).zones }), {
    ...pager,
    listing: "HTTP pull zones (GET /v2/zones/http/pull)",
    idOf: (zone) => zone.id,
  });
/**
 * §4.10 one page, and whether it is the last: §4.10 reports no page count, so the next page is
 * read alongside; the page is the last when the next one brings no zone this one lacks.
 */
export async function pullZonePage(c: CdnstreamClient, page: number, o?: RequestOptions) {
  const [here, next] = await Promise.all([listPullZones(c, page, o), listPullZones(c, page + 1, o)]);
  const ids = new Set(here.zones.map((zone) => String(zone.id)));
  return { ...here, lastPage: next.zones.every((zone) => ids.has(String(zone.id))) };
}
