/** Field lists of the spec §2 shapes, for shape assertions. */

const ACCESS = ["domainlock", "geoblock", "ipaccess", "useragent", "securetoken", "eac", "bwlimit"];
const ZONE_COMMON = [
  "type", "id", "serviceid", "alias", "hashid", "mode", "optimizer", "hostHeader", "cnames", "cnamesArr", "cnamesArrFqdn",
  "waf", "edgeruleids", "edgeRules", "hasEdgeRules", "defaultBehaviors", "behaviorId", "disabled", "created_at", "updated_at",
  "deleted", "router", "remaining", "status", "name", "fqdn", "ssl", "cache", "edge", "shield", "origin_auth", "seo", "cdnservice", ...ACCESS,
];

/** §2.2 as §4.1 returns an HTTP push zone. */
export const PUSH_ZONE = [...ZONE_COMMON, "rclone", "linkedVideoManager", "storageHost", "storageHostBackup", "osAuthUrl", "horizonUrl", "ftpdetails", "s3details", "transcodefile", "server"];

/** §2.2 as the §4.10 list returns an HTTP pull zone. */
export const PULL_ZONE = [
  ...ZONE_COMMON, "modeI", "optimize", "origin", "backup", "originip", "baseDirectory", "customhostheader", "live", "wafid",
  "dnscheck", "ip", "iscms", "cloudSignatureV4", "proxied", "playbackurls",
];

/** §4.5 VoD pull zone subset. */
export const VOD_PULL_ZONE = [
  "type", "id", "serviceid", "mode", "cnames", "edgeruleids", "deleted", "name", "hashid", "fqdn", "fqdnVoD", "edgerules",
  "domainlock", "geoblock", "securetoken", "eac", "ssl", "cache", "edge", "shield", "waf", "seo", "ftpdetails", "ssl_enabled",
];

const STREAM_COMMON = [
  "type", "id", "serviceid", "name", "codec", "ingests", "protocols", "server", "backup", "dedicatedLTC", "hasAdvancedFeatures",
  "draft", "disabled", "monitoring_id", "monitoring_triggers", "created_at", "updated_at", "lastseen_at", "deleted", "ingestsLock",
  "protocolsLock", "status", "has", "parts", "hash", "platformsCount", "ssl_enabled", "restream", "securetoken", "domainlock",
  "geoblock", "ipaccess", "useragent", "transcode", "platforms", "messages", "adInsertion", "playbackurls",
];

/** §2.5 push stream. */
export const PUSH_STREAM = [...STREAM_COMMON, "fms", "ndvr", "record", "rtmpauth"];

/** §2.5 timeshift stream. */
export const TIMESHIFT_STREAM = [...STREAM_COMMON, "parentid", "parent", "timeshift"];

/** §2.7 playback URLs. */
export const PLAYBACK = ["scheme", "url_prefix", "rtmp", "rtsp", "hlsManifest", "dashManifest", "hls", "dash", "players", "tokenized"];

/** §2.8 ad insertion configuration. */
export const AD_CONFIG = [
  "statusCode", "id", "tenantId", "name", "hash", "type", "url", "state", "creationDate", "updateDate", "source",
  "enableAdTranscoding", "transcodingProfile", "serverSideAdTracking", "vodAdBreakPolicy", "insertionMode", "result",
];

/** §2.11 ad break log item. */
export const AD_BREAK = [
  "id", "serviceId", "sessionId", "contentId", "breakType", "triggerType", "declaredDurationS", "vastOutcome", "vastUrl",
  "creativeCount", "fulfilledDurationS", "fillStatus", "createdAt",
];

/** §2.12 creative. */
export const CREATIVE = [
  "crid", "mediaUrl", "adSystem", "adTitle", "advertiser", "category", "creativeId", "adId", "adIdVast", "universalAdId",
  "mediaWidth", "mediaHeight", "mediaBitrate", "durationS",
];

/** §2.13 ad-pod request. */
export const AD_POD_REQUEST = [
  "id", "publisher_id", "content_id", "placement", "language", "user_key", "ip", "user_agent", "os", "browser", "decision_status",
  "fill_status", "request_time", "created_at", "content_tags", "category", "device", "continent_geoname_id", "country_geoname_id",
  "subdivision_1_geoname_id", "subdivision_2_geoname_id", "city_geoname_id", "max_duration", "min_ad_length", "max_ad_length",
  "selected_duration_seconds",
];

/** §2.14 project. */
export const PROJECT = [
  "id", "uuid", "name", "settings", "advertisers_count", "campaigns_count", "creatives_count", "active_campaigns_count",
  "usage_this_month", "created_at", "updated_at",
];

/** §2.15 campaign. */
export const CAMPAIGN = [
  "id", "admanager_id", "advertiser_id", "advertiser_name", "name", "category", "campaign_type", "status", "priority", "timezone",
  "start_at", "end_at", "budget", "pacing", "pacing_mode", "pod_rules", "share_of_voice_percent", "fallback_allowed", "is_house",
  "pricing_model", "cpm_micros", "total_budget_micros", "daily_budget_cap_micros", "impression_goal", "daily_impression_cap",
  "lifetime_impression_cap", "delivery_status",
];

/** §2.16 targeting. */
export const TARGETING = [
  "include_tags", "exclude_tags", "categories", "content_ids", "placements", "devices", "languages", "oses", "browsers",
  "continent_geoname_ids", "country_geoname_ids", "subdivision_1_geoname_ids", "subdivision_2_geoname_ids", "city_geoname_ids",
  "campaign_id", "created_at", "updated_at",
];

/** §2.17 DNS zone. */
export const DNS_ZONE = [
  "id", "serviceid", "domain", "meta", "soa", "dnssec", "preferredtype", "created_at", "updated_at", "synced_at", "validated_at",
  "deleted", "proxied", "linkedZones", "nameservers", "stats",
];

/** §2.18 critical backup. */
export const BACKUP = ["id", "serviceid", "name", "meta", "files", "created_at", "updated_at", "deleted_at", "linkedZones", "linksCount", "providerText"];

/** §2.19 purge operation. */
export const PURGE = ["id", "serviceid", "zone", "type", "list", "meta", "logs", "completed_at", "created_at", "updated_at", "errors"];
