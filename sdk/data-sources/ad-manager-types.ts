/**
 * Argument and result types of the ad manager data sources (§4.7, §4.13, §4.15). Results are
 * camelCased by naming.ts (`created_at` -> `createdAt`). Types list the documented fields; fields
 * beyond the spec are kept at runtime, camelCased too (read them through a cast).
 */
import type { PageFields } from "./ad-insertion-types";

/** A §2.14 skip rule. */
export type SkipRule = {
  skippable?: boolean;
  /** API `offset_type`. */
  offsetType?: string;
  /** API `offset_value`. */
  offsetValue?: number;
};

/** §2.14 ad manager project, camelCased. */
export type AdManagerProject = {
  id: number;
  uuid?: string;
  name?: string;
  settings?: {
    /** IANA name. */
    timezone?: string;
    currencyCode?: string;
    currencySymbol?: string;
    /** API `advanced_analytics`: integer flag. */
    advancedAnalytics?: number;
    maxAdvertisers?: number;
    maxCampaigns?: number;
    maxCreatives?: number;
    /** API `analytics_retention_period`; its unit is not shown (§8). */
    analyticsRetentionPeriod?: number;
    skipPolicy?: { default?: SkipRule; rules?: (SkipRule & { position?: string; longest?: boolean; shortest?: boolean })[] };
  };
  advertisersCount?: number;
  campaignsCount?: number;
  creativesCount?: number;
  /** Archived campaigns are not counted (§3). */
  activeCampaignsCount?: number;
  /** API `usage_this_month`: `fillRate` and `completionRate` in percent. */
  usageThisMonth?: { adRequests?: number; impressions?: number; fillRate?: number; completionRate?: number };
  /** ISO 8601 UTC. */
  createdAt?: string;
  updatedAt?: string;
};

/** Result of `getAdManagerProjects` (§4.15). */
export interface GetAdManagerProjectsResult {
  /** Every ad manager project (§2.14). */
  projects: AdManagerProject[];
  /** API `projects_limit`: the plan-driven cap on projects. */
  projectsLimit?: number;
  /** API `projects_available`: projects that may still be created. */
  projectsAvailable?: number;
}

/** Arguments of `getCampaignTargeting` (§4.13). */
export interface GetCampaignTargetingArgs {
  /** The ad manager project (§4.13 `{pid}`). */
  projectId: number;
  /** The campaign (§4.13 `{cid}`). */
  campaignId: string;
}

/** Result of `getCampaignTargeting`: the §2.16 targeting at the top level, and `fromCache`. */
export interface GetCampaignTargetingResult {
  includeTags?: string[];
  excludeTags?: string[];
  categories?: number[];
  contentIds?: string[];
  placements?: string[];
  devices?: number[];
  languages?: string[];
  oses?: string[];
  browsers?: string[];
  continentGeonameIds?: number[];
  countryGeonameIds?: number[];
  /** API `subdivision_1_geoname_ids`. */
  subdivision1GeonameIds?: number[];
  /** API `subdivision_2_geoname_ids`. */
  subdivision2GeonameIds?: number[];
  cityGeonameIds?: number[];
  campaignId?: string;
  /** ISO 8601 UTC. */
  createdAt?: string;
  updatedAt?: string;
  /** API `from_cache`: true when the API served it from cache instead of reading it fresh. */
  fromCache?: boolean;
}

/** Arguments of `getAdPodRequests` (§4.7). List filters match any of their values. */
export interface GetAdPodRequestsArgs {
  /** The ad manager project (§4.7 `{pid}`). */
  projectId: number;
  /** Dates `YYYY-MM-DD` (checked before sending). */
  from?: string;
  to?: string;
  /** Range `YYYY-MM-DD HH:MM:SS - YYYY-MM-DD HH:MM:SS`, alternative to from/to (precedence not shown, §4.7). */
  r?: string;
  /** One page (from 1) with its paging fields, instead of every request. */
  page?: number;
  /** API `content_ids`; `__none__` appears in this list (§4.7). */
  contentIds?: string[];
  advertiserIds?: string[];
  campaignIds?: string[];
  creativeIds?: string[];
  contentTags?: string[];
  placements?: string[];
  languages?: string[];
  oses?: string[];
  browsers?: string[];
  fillStatuses?: string[];
  decisionStatuses?: string[];
  /** API `user_agent`. */
  userAgent?: string[];
  breakIds?: string[];
  transactionIds?: string[];
  ip?: string[];
  categories?: number[];
  devices?: number[];
  /** Break fill target seconds (IAB BREAKMAXDURATION). */
  maxDuration?: number[];
  /** Per-ad minimum seconds (IAB BREAKMINADLENGTH). */
  minAdLength?: number[];
  /** Per-ad maximum seconds (IAB BREAKMAXADLENGTH). */
  maxAdLength?: number[];
  /** Pod-size cap (IAB BREAKMAXADS). */
  maxAds?: number[];
  fillCeilingSeconds?: number[];
  breakPosition?: number[];
  continentGeonameIds?: number[];
  countryGeonameIds?: number[];
  /** API `subdivision_1_geoname_ids`. */
  subdivision1GeonameIds?: number[];
  /** API `subdivision_2_geoname_ids`. */
  subdivision2GeonameIds?: number[];
  cityGeonameIds?: number[];
}

/** §2.13 ad-pod request log item, camelCased (`publisher_id` -> `publisherId`). */
export type AdPodRequest = {
  id: string;
  publisherId?: string;
  contentId?: string;
  placement?: string;
  language?: string;
  userKey?: string;
  ip?: string;
  userAgent?: string;
  os?: string;
  browser?: string;
  decisionStatus?: string;
  fillStatus?: string;
  /** ISO 8601 UTC; likewise `createdAt`. */
  requestTime?: string;
  createdAt?: string;
  contentTags?: string[];
  category?: number;
  device?: number;
  continentGeonameId?: number;
  countryGeonameId?: number;
  /** API `subdivision_1_geoname_id`. */
  subdivision1GeonameId?: number;
  subdivision2GeonameId?: number;
  cityGeonameId?: number;
  /** Seconds, as are `minAdLength`, `maxAdLength`, `selectedDurationSeconds`. */
  maxDuration?: number;
  minAdLength?: number;
  maxAdLength?: number;
  selectedDurationSeconds?: number;
};

/** Result of `getAdPodRequests`. */
export interface GetAdPodRequestsResult extends PageFields {
  /** Every matching request (§2.13), or the page asked for. */
  items: AdPodRequest[];
}
