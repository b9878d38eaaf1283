/**
 * Result types of the zone data sources: the §2.2 zone with its §2.3 and §2.4 sub-objects, and
 * the §2.19 purge operation, camelCased by naming.ts. Values are as the API sends them: `Y`/`N`
 * and `0`/`1` flags stay strings (results report the account verbatim, and §2.4 gives the
 * domain-lock `policy` and `noReferer` three conflicting meanings); numbers the API sometimes
 * sends as numeric strings arrive as numbers. Types list the documented fields; fields beyond the
 * spec are kept at runtime, camelCased too (read them through a cast).
 */

/** `Y`/`N`, or another word the API sends (§2: values beyond those named are not shown). */
type YN = "Y" | "N" | (string & {});
/** `0`/`1`, or another word the API sends. */
type Flag01 = "0" | "1" | (string & {});

/** §2.3 ssl. The issuer-branded certificate object (`<issuer>`) is kept under its own key. */
export type ZoneSsl = { http?: YN; http2?: YN; redirect?: YN; mode?: string; certId?: number | string | null; enabled?: YN; warning?: boolean };
/** §2.3 cache; durations as strings with a unit suffix, `*InSecs`/`*InMins` as numbers. */
export type ZoneCache = {
  smart?: Flag01;
  cache?: string;
  expiry?: string;
  queryString?: YN;
  cacheControl?: YN;
  useStale?: YN;
  revalidate?: YN;
  cacheInSecs?: number;
  cacheInMins?: number;
  expiryInSecs?: number;
  expiryInMins?: number;
};
/** §2.3 edge. */
export type ZoneEdge = {
  compression?: YN;
  disposition?: YN;
  stripCookie?: YN;
  xff?: YN;
  cors?: YN;
  webp?: YN;
  pseudoStreaming?: YN;
  wp?: YN;
  lfo?: YN;
  prefresh?: YN;
  compressionLevel?: number;
};
/** §2.3 shield. */
export type ZoneShield = { network?: string; enabled?: YN; shields?: string[] };
/** §2.3 origin_auth (API `origin_auth`); the S3 keys arrive masked. */
export type ZoneOriginAuth = { type?: string; s3MidgressCacheSize?: string; s3AccessKeyId?: string; s3AccessKeySecret?: string };
/** §2.3 seo. */
export type ZoneSeo = { id?: number | string; type?: string; canonical?: string; mode?: string; robots?: string; robotsTxt?: string; robotsTxtCustom?: string; enabled?: string };
/** §2.3 cdnservice (API `cdnservice`); `authToken` is a credential. */
export type ZoneCdnService = { purgeUrls?: string[]; purgeUrl?: string; authToken?: string };

/** §2.4 domainlock. `policy` and `noReferer` keep `Y`/`N`: §2.4 describes them three conflicting ways. */
export type ZoneDomainLock = { enabled?: YN; policy?: YN; noReferer?: YN; active?: YN; list?: string; ips?: string; type?: string };
/** §2.4 geoblock (`list`: country codes). */
export type ZoneGeoBlock = { enabled?: YN; policy?: YN; active?: YN; list?: string[]; ips?: string };
/** §2.4 ipaccess (`list`: comma-separated IPs/CIDR). */
export type ZoneIpAccess = { enabled?: YN; policy?: YN; active?: YN; list?: string; ips?: string };
/** §2.4 useragent (`list`: patterns joined by `;;;`, `listArr` the same as an array). */
export type ZoneUserAgent = { enabled?: YN; policy?: YN; caseSensitive?: YN; active?: YN; list?: string; listArr?: string[]; ips?: string };
/** §2.4 securetoken: `policy` `F` fixed / `D` dynamic, `session` `0` = unlimited; `list` is the key (a credential). */
export type ZoneSecureToken = { enabled?: YN; active?: YN; policy?: "F" | "D" | (string & {}); keyIp?: YN; list?: string; timeout?: number; session?: string; ips?: string; dirs?: string | null };
/** §2.4 eac (`list`: the auth script URL). */
export type ZoneEac = { enabled?: YN; policy?: YN; active?: YN; list?: string; ips?: string };
/** §2.4 bwlimit. */
export type ZoneBwLimit = { enabled?: YN; policy?: number; rate?: number; rateAfter?: number; payg?: YN; active?: YN };

/** §2.2 zone object as listed by §4.10 (HTTP pull zones), camelCased. Which fields appear depends on the zone. */
export type HttpPullZone = {
  id: number;
  /** `pull`. */
  type?: string;
  /** API `serviceid`. */
  serviceId?: number;
  alias?: string;
  /** API `hashid`. */
  hashId?: string;
  /** Observed `http`. */
  mode?: string;
  /** Observed `vod`. */
  modeI?: string;
  /** Observed `live`. */
  optimize?: string;
  optimizer?: Flag01;
  /** Origin URL, and the backup origin. */
  origin?: string;
  backup?: string;
  /** API `originip`. */
  originIp?: { enabled?: YN };
  baseDirectory?: string;
  hostHeader?: string;
  /** API `customhostheader`. */
  customHostHeader?: string;
  /** Custom domain(s); `cnamesArr` and `cnamesArrFqdn` as arrays. */
  cnames?: string;
  cnamesArr?: string[];
  cnamesArrFqdn?: string[];
  live?: YN;
  /** API `wafid`. */
  wafId?: number | string | null;
  waf?: { enabled?: YN };
  /** API `edgeruleids`. */
  edgeRuleIds?: number;
  edgeRules?: unknown[];
  hasEdgeRules?: boolean;
  defaultBehaviors?: Record<string, unknown>;
  behaviorId?: number;
  /** API `dnscheck`. */
  dnsCheck?: number;
  ip?: string | null;
  /** API `iscms`. */
  isCms?: Flag01;
  cloudSignatureV4?: string;
  /** `0` enabled, `1` disabled. */
  disabled?: Flag01;
  /** API `created_at` / `updated_at`, `YYYY-MM-DD HH:MM:SS` in this list. */
  createdAt?: string;
  updatedAt?: string;
  /** Null, or when the zone was deleted: a date string or Unix seconds (§2.2 "null or timestamp"). */
  deleted?: string | number | null;
  router?: string;
  remaining?: number;
  /** Observed `Enabled`. */
  status?: string;
  name?: string;
  fqdn?: string;
  proxied?: boolean;
  ssl?: ZoneSsl;
  cache?: ZoneCache;
  edge?: ZoneEdge;
  shield?: ZoneShield;
  /** API `origin_auth`. */
  originAuth?: ZoneOriginAuth;
  seo?: ZoneSeo;
  /** API `cdnservice`. */
  cdnService?: ZoneCdnService;
  domainLock?: ZoneDomainLock;
  geoBlock?: ZoneGeoBlock;
  ipAccess?: ZoneIpAccess;
  userAgent?: ZoneUserAgent;
  secureToken?: ZoneSecureToken;
  eac?: ZoneEac;
  bwLimit?: ZoneBwLimit;
  /** API `ftpdetails`; the password is masked in some responses and plain in others (§2.2). */
  ftpDetails?: { username?: string; password?: string };
  /** API `s3details`. */
  s3Details?: { relId?: number; type?: string; projectId?: string; token?: string; projectId2?: string; token2?: string; active?: string };
  /** API `transcodefile`. */
  transcodeFile?: { profiles?: string[]; emails?: string[]; webhooks?: string[] };
  server?: ({ code?: string; name?: string; country?: string; meta?: Record<string, unknown> }) | string;
  /** API `playbackurls`: scheme, name, urlPrefix, http, players, tokenized, hls (§2.2); host-keyed `hashes` kept verbatim. */
  playbackUrls?: Record<string, unknown>;
  /** API `ssl_enabled`. */
  sslEnabled?: YN;
};

/** §2.19 `logs[]` item: one server's progress. */
export type PurgeLog = {
  serverId?: string;
  serverName?: string;
  /** Paths this server has handled so far. */
  purged?: string[];
  /** `false` while this entry is pending (§3). */
  completed?: boolean;
};

/** §2.19 purge / prefetch operation, camelCased. */
export type PurgeOperation = {
  id: string;
  /** API `serviceid`. */
  serviceId?: number;
  /** The HTTP push zone id, as a string. */
  zone?: string;
  /** `fetch` = prefetch, `url` = purge by path, any other value another purge kind (§2.19). */
  type?: string;
  /** The file paths of the operation. */
  list?: string[];
  meta?: string;
  /** Per-server progress. */
  logs?: PurgeLog[];
  /** API `completed_at`: Unix seconds as a string; empty or null while pending. */
  completedAt?: string | null;
  /** API `created_at` / `updated_at`: Unix seconds as strings. */
  createdAt?: string;
  updatedAt?: string;
  /** Errors as a string; empty if none. */
  errors?: string | null;
};
