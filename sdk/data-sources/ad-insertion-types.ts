/**
 * Argument and result types of the ad insertion data sources (§4.6, §4.8, §4.9, §4.18).
 * Results are camelCased by naming.ts. Types list the documented fields; fields beyond the spec
 * are kept at runtime, camelCased too (read them through a cast).
 */
import type { GRANULARITIES } from "../../provider/client/ad-insertion";

/**
 * Bucket sizes of the ad tracking report, in minutes (§4.6). Spelt out rather than taken from
 * the client's list, whose module declarations name zod; a compile-time check below keeps them equal.
 */
export type AdTrackingGranularity = 1 | 5 | 10 | 15 | 30 | 60 | 180 | 360 | 720 | 1440 | 2880 | 10080;

/** `true` only when the list above and the client's (`GRANULARITIES`, what it validates) are equal. */
type SameAsClient = [AdTrackingGranularity, (typeof GRANULARITIES)[number]] extends [(typeof GRANULARITIES)[number], AdTrackingGranularity]
  ? true
  : false;
type RequireTrue<T extends true> = T;
/** Fails to compile when they differ (`false` does not satisfy `true`). */
type GranularitiesMatchClient = RequireTrue<SameAsClient>;

/**
 * Filters of the ad analytics reads (§4.6, §4.9). All but `r`, `crid` and `sessionId` need the
 * advanced analytics add-on.
 */
export interface AdAnalyticsFilters {
  /** Range `YYYY-MM-DD HH:MM:SS - YYYY-MM-DD HH:MM:SS` (API `r`). */
  r?: string;
  /** Creative id (API `crid`). */
  crid?: string;
  /** Ad insertion playback session (API `session_id`). */
  sessionId?: string;
  /** Viewer IP (API `client_ip`); needs the advanced analytics add-on. */
  clientIp?: string;
  /** Needs the advanced analytics add-on. */
  os?: string;
  /** Needs the advanced analytics add-on. */
  browser?: string;
  /** API `content_id`; needs the advanced analytics add-on. */
  contentId?: string;
  /** Geoname ids (API `continent_geoname_id` ... `city_geoname_id`); each needs the advanced analytics add-on. */
  continentGeonameId?: number;
  countryGeonameId?: number;
  /** API `subdivision1_geoname_id`. */
  subdivision1GeonameId?: number;
  /** API `subdivision2_geoname_id`. */
  subdivision2GeonameId?: number;
  cityGeonameId?: number;
}

/** Arguments of `getAdTrackingReport` (§4.6, custom plan). */
export interface GetAdTrackingReportArgs extends AdAnalyticsFilters {
  /** The push stream (§4.6 `{streamid}`). */
  streamId: number;
  /**
   * Bucket size in minutes: 1, 5, 10, 15, 30, 60, 180, 360, 720, 1440, 2880 or 10080. With `r`,
   * the range must not exceed granularity x 1440 minutes (§4.6, §8); checked before sending.
   */
  granularity?: AdTrackingGranularity;
}

/** The per-bucket counters of §2.9. */
export interface TrackingCounts {
  impressions?: number;
  starts?: number;
  /** API `first_quartiles`. */
  firstQuartiles?: number;
  midpoints?: number;
  /** API `third_quartiles`. */
  thirdQuartiles?: number;
  completes?: number;
}

/** Result of `getAdTrackingReport` (§2.9). */
export interface GetAdTrackingReportResult {
  summary?: TrackingCounts & {
    /** ISO 8601 UTC. */
    from?: string;
    to?: string;
    /** API `unique_sessions`. */
    uniqueSessions?: number;
    /** API `view_rate_25`, `view_rate_50`, `view_rate_75`, `completion_rate`: percent. */
    viewRate25?: number;
    viewRate50?: number;
    viewRate75?: number;
    completionRate?: number;
  };
  /** One entry per time bucket; `time` ISO 8601 UTC. */
  data?: (TrackingCounts & { time?: string })[];
  message?: string;
}

/** Arguments of `getAdConsumption` (§4.8, custom plan). */
export interface GetAdConsumptionArgs {
  /** The pull stream (§4.8 `{streamid}`). */
  streamId: number;
  /** Bucket of the charts (§4.8 `groupBy`, required). */
  groupBy: "year" | "month" | "week" | "day" | "hour";
  /** Range `YYYY-MM-DD HH:MM:SS - YYYY-MM-DD HH:MM:SS` (§4.8 `r`, required). */
  r: string;
}

/** A chart point of §2.10: a bucket label and its value. */
export type ConsumptionPoint = { key?: string; value?: number };

/** Result of `getAdConsumption` (§2.10; egress in bytes). */
export interface GetAdConsumptionResult {
  /** `YYYY-MM-DD HH:MM:SS`. */
  from?: string;
  to?: string;
  serviceIds?: number[];
  /** `day` or `hour` in the response (§2.10). */
  groupBy?: string;
  totalAdInsertions?: number;
  totalAdImpressions?: number;
  /** Bytes. */
  totalEgress?: number;
  /** Bytes per kind. */
  egressDetails?: { manifests?: number; segments?: number; ssat?: number; transcoding?: number; other?: number };
  adInsertionsChart?: ConsumptionPoint[];
  adImpressionsChart?: ConsumptionPoint[];
  egressChart?: ConsumptionPoint[];
  message?: string;
}

/** Arguments of `getAdBreaks` (§4.9, custom plan and advanced analytics add-on). */
export interface GetAdBreaksArgs extends AdAnalyticsFilters {
  /** The VoD pull zone (§4.9 `{zoneid}`). */
  zoneId: number;
  /** One page (from 1, 20 items) with its paging fields, instead of every ad break. */
  page?: number;
  /** API `break_type`. */
  breakType?: "pre-roll" | "mid-roll";
  /** The trigger that started the break, e.g. `preroll` (API `trigger_type`). */
  triggerType?: string;
  /** API `fill_status`. */
  fillStatus?: "full" | "underfilled" | "no_fill";
  /** API `vast_outcome`. */
  vastOutcome?: "ok" | "timeout" | "http_4xx" | "http_5xx" | "network" | "parse" | "no_creative" | "wrapper_exceeded";
}

/** §2.11 ad break log item (already camelCase in the API). */
export type AdBreak = {
  id: string;
  serviceId?: number;
  sessionId?: string;
  contentId?: string;
  /** `pre-roll` or `mid-roll`. */
  breakType?: string;
  triggerType?: string;
  declaredDurationS?: number;
  vastOutcome?: string;
  vastUrl?: string;
  creativeCount?: number;
  fulfilledDurationS?: number;
  fillStatus?: string;
  /** ISO 8601 UTC. */
  createdAt?: string;
};

/** Paging fields of §4.7 and §4.9: all of them when a `page` was asked for; `total` alone when every page was read. */
export interface PageFields {
  /** Items matching the filters, as the API counts them (on page 1 when every page was read). */
  total?: number;
  /** The page returned. */
  page?: number;
  /** Items per page. */
  limit?: number;
  /** Page count. */
  pages?: number;
}

/** Result of `getAdBreaks`. */
export interface GetAdBreaksResult extends PageFields {
  /** Every matching ad break (§2.11), or the page asked for. */
  items: AdBreak[];
}

/** Arguments of `getAdCreative` (§4.18, custom plan and advanced analytics add-on). */
export interface GetAdCreativeArgs {
  /** The VoD push zone (§4.18 `{zoneid}`). */
  zoneId: number;
  /** The creative id from the VAST/VMAP creative element (§4.18 `{crid}`). */
  crid: string;
}

/** Result of `getAdCreative` (§2.12). */
export interface GetAdCreativeResult {
  crid?: string;
  mediaUrl?: string;
  adSystem?: string;
  adTitle?: string;
  advertiser?: string;
  category?: string;
  creativeId?: string;
  adId?: string;
  adIdVast?: string;
  universalAdId?: string;
  mediaWidth?: number;
  mediaHeight?: number;
  mediaBitrate?: number;
  durationS?: number;
}
