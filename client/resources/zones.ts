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
  http: yn,
  http2: yn,
  redirect: yn,
  mode: z.string(),
  certid: anyId.nullable(),
  enabled: yn,
  warning: z.boolean(),
});
/** §2.3 cache; the `*InSecs`/`*InMins` numbers sometimes arrive as numeric strings. */
export const ZoneCache = loose({
  smart: flag01,
  cache: z.string(),
  expiry: z.string(),
  querystring: yn,
  cachecontrol: yn,
  usestale: yn,
  revalidate: yn,
  cacheInSecs: numeric,
  cacheInMins: numeric,
  expiryInSecs: numeric,
  expiryInMins: numeric,
});
/** §2.3 edge. */
export const ZoneEdge = loose({
  compression: yn,
  disposition: yn,
  stripcookie: yn,
  xff: yn,
  cors: yn,
  webp: yn,
  pseudostreaming: yn,
  wp: yn,
  lfo: yn,
  prefresh: yn,
  compressionlevel: numeric,
});
/** §2.3 shield. */
export const ZoneShield = loose({ network: z.string(), enabled: yn, shields: z.array(z.string()) });
/** §2.3 origin_auth (keys arrive masked). */
export const ZoneOriginAuth = loose({
  type: z.string(),
  s3_midgress_cache_size: z.string(),
  s3_access_key_id: z.string(),
  s3_access_key_secret: z.string(),
});
/** §2.3 seo. */
export const ZoneSeo = loose({
  id: anyId,
  type: z.string(),
  canonical: z.string(),
  mode: z.string(),
  robots: z.string(),
  robotstxt: z.string(),
  robotstxtcustom: z.string(),
  enabled: z.string(),
});
/** §2.3 cdnservice (push zones add the service addresses, kept as unknown fields). */
export const ZoneCdnService = loose({ purgeurls: z.array(z.string()), purgeurl: z.string(), authtoken: z.string() });

/** §2.2 zone object (push, pull, VoD pull subset): which fields appear depends on kind and operation. */
export const Zone = loose({
  type: openEnum(["push", "pull"]),
  id: z.number(),
  serviceid: z.number(),
  alias: z.string(),
  hashid: z.string(),
  mode: z.string(),
  name: z.string(),
  fqdn: z.string(),
  fqdnVoD: z.string(),
  status: z.string(),
  /** `0` enabled, `1` disabled. */
  disabled: flag01,
  optimizer: flag01,
  iscms: flag01,
  live: yn,
  origin: z.string(),
  backup: z.string(),
  hostHeader: z.string(),
  customhostheader: z.string(),
  cnames: z.string(),
  cnamesArr: z.array(z.string()),
  cnamesArrFqdn: z.array(z.string()),
  originip: loose({ enabled: yn }),
  waf: loose({ enabled: yn }),
  wafid: anyId.nullable(),
  edgeruleids: numeric,
  edgeRules: z.array(z.unknown()),
  hasEdgeRules: z.boolean(),
  dnscheck: z.number(),
  ip: z.string().nullable(),
  proxied: z.boolean(),
  rclone: z.number(),
  remaining: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Null, or when the zone was deleted: a date string or Unix seconds ("null or timestamp", §2.2). */
  deleted: timestamp,
  ssl: ZoneSsl,
  cache: ZoneCache,
  edge: ZoneEdge,
  shield: ZoneShield,
  origin_auth: ZoneOriginAuth,
  seo: ZoneSeo,
  cdnservice: ZoneCdnService,
  domainlock: DomainLock,
  geoblock: GeoBlock,
  ipaccess: IpAccess,
  useragent: UserAgent,
  securetoken: SecureToken,
  eac: Eac,
  bwlimit: BwLimit,
  /** The password is masked in some responses and plain in others. */
  ftpdetails: loose({ username: z.string(), password: z.string() }),
  s3details: loose({
    relid: z.number(),
    type: z.string(),
    projectid: z.string(),
    token: z.string(),
    active: z.string(),
  }),
  transcodefile: loose({ profiles: z.array(z.string()), emails: z.array(z.string()), webhooks: z.array(z.string()) }),
  server: z.union([loose({ code: z.string(), name: z.string(), country: z.string(), meta: loose({}) }), z.string()]),
  playbackurls: loose({}),
  edgerules: loose({ enabled: z.union([yn, z.boolean()]) }),
  ssl_enabled: yn,
}).required({ id: true });
export type Zone = z.infer<typeof Zone>;

/** §2.19 purge / prefetch operation. Unix seconds arrive as strings. */
export const PurgeOperation = loose({
  id: z.string(),
  serviceid: z.number(),
  zone: z.string(),
  /** `fetch` = prefetch, `url` = purge by path, anything else another purge kind. */
  type: z.string(),
  list: z.array(z.string()),
  meta: z.string(),
  logs: z.array(
    loose({ serverId: z.string(), serverName: z.string(), purged: z.array(z.string()), completed: z.boolean() }),
  ),
  /** Unix seconds; empty or null while pending. */
  completed_at: unixSecondsText.nullable(),
  created_at: unixSecondsText,
  updated_at: unixSecondsText,
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
