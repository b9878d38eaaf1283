/** Ad manager: §4.3, §4.7, §4.13, §4.15 and the campaign read. Shapes: §2.13-§2.16. */
import { z } from "zod";
import type { CdnstreamClient } from "../core/client";
import { defineOperation, type RequestOptions } from "../core/operation";
import { Paginator, type PaginatorOptions } from "../core/pagination";
import { dateIn, envelope, fieldsOf, intId, intMin, loose, numeric, pageCounters, rangeIn } from "./shapes";

const n = z.number();
const s = z.string();
const strs = z.array(s);
const ints = z.array(n);

/** §2.13 ad-pod request log item. */
export const AdPodRequest = loose({
  ...fieldsOf(
    [
      "id",
      "publisher_id",
      "content_id",
      "placement",
      "language",
      "user_key",
      "ip",
      "user_agent",
      "os",
      "browser",
      "decision_status",
      "fill_status",
      "request_time",
      "created_at",
    ],
    s,
  ),
  content_tags: strs,
  ...fieldsOf(
    [
      "category",
      "device",
      "continent_geoname_id",
      "country_geoname_id",
      "subdivision_1_geoname_id",
      "subdivision_2_geoname_id",
      "city_geoname_id",
      "max_duration",
      "min_ad_length",
      "max_ad_length",
      "selected_duration_seconds",
    ],
    n,
  ),
}).required({ id: true });
export type AdPodRequest = z.infer<typeof AdPodRequest>;

const skipRule = { skippable: z.boolean(), offset_type: s, offset_value: n };
/** §2.14 ad manager project. */
export const Project = loose({
  id: n,
  uuid: s,
  name: s,
  settings: loose({
    timezone: s,
    currency_code: s,
    currency_symbol: s,
    advanced_analytics: n,
    max_advertisers: n,
    max_campaigns: n,
    max_creatives: n,
    analytics_retention_period: n,
    skip_policy: loose({
      default: loose(skipRule),
      rules: z.array(loose({ ...skipRule, position: s, longest: z.boolean(), shortest: z.boolean() })),
    }),
  }),
  advertisers_count: n,
  campaigns_count: n,
  creatives_count: n,
  active_campaigns_count: n,
  usage_this_month: loose({ ad_requests: n, impressions: n, fill_rate: numeric, completion_rate: numeric }),
  created_at: s,
  updated_at: s,
}).required({ id: true });
export type Project = z.infer<typeof Project>;

const budgetFields = {
  pricing_model: s,
  cpm_micros: n,
  total_budget_micros: n,
  daily_budget_cap_micros: n,
  impression_goal: n,
  daily_impression_cap: n,
  lifetime_impression_cap: n,
};
/** §2.15 campaign (money in micro-units). */
export const Campaign = loose({
  id: s,
  admanager_id: n,
  advertiser_id: s,
  advertiser_name: s,
  name: s,
  category: s,
  campaign_type: s,
  /** Observed `draft`; the value after archiving is not shown (§3). */
  status: s,
  priority: n,
  timezone: s,
  start_at: s,
  end_at: s,
  budget: loose(budgetFields),
  pacing: loose({ pacing_mode: s }),
  pacing_mode: s,
  pod_rules: loose({
    allow_in_pods: z.boolean(),
    allow_multiple_creatives_per_pod: z.boolean(),
    allow_same_creative_repeat: z.boolean(),
    max_ads_per_pod: n,
    max_seconds_per_pod: n,
    preferred_pod_position: s,
    competitive_category: ints,
  }),
  share_of_voice_percent: n,
  fallback_allowed: z.boolean(),
  is_house: z.boolean(),
  ...budgetFields,
  delivery_status: loose({
    status: s,
    expected_delivery_percent: numeric,
    actual_delivery_percent: numeric,
    impression_goal: n,
    delivered_impressions: n,
    remaining_impressions: n,
    today_impressions: n,
    daily_impression_cap: n,
    budget_spent_micros: n,
    budget_remaining_micros: n,
    pacing_mode: s,
  }),
}).required({ id: true });
export type Campaign = z.infer<typeof Campaign>;

/** §2.16 campaign targeting. */
export const Targeting = loose({
  include_tags: strs,
  exclude_tags: strs,
  categories: ints,
  content_ids: strs,
  placements: strs,
  devices: ints,
  languages: strs,
  oses: strs,
  browsers: strs,
  continent_geoname_ids: ints,
  country_geoname_ids: ints,
  subdivision_1_geoname_ids: ints,
  subdivision_2_geoname_ids: ints,
  city_geoname_ids: ints,
  campaign_id: s,
  created_at: s,
  updated_at: s,
});

const strList = z.array(z.string()).optional();
const intList = z.array(z.number().int("must hold integers")).optional();
/** §4.7 body: filters are arrays except from, to, r and page. `content_ids` may hold `__none__`. */
export const AdPodRequestsBody = z
  .strictObject({
    from: dateIn.optional(),
    to: dateIn.optional(),
    /** Alternative to from/to; precedence between them is not shown. */
    r: rangeIn.optional(),
    page: intMin(1, "(pages start at 1)").optional(),
    ...fieldsOf(
      [
        "content_ids",
        "advertiser_ids",
        "campaign_ids",
        "creative_ids",
        "content_tags",
        "placements",
        "languages",
        "oses",
        "browsers",
        "fill_statuses",
        "decision_statuses",
        "user_agent",
        "break_ids",
        "transaction_ids",
        "ip",
      ],
      strList,
    ),
    ...fieldsOf(
      [
        "categories",
        "devices",
        "max_duration",
        "min_ad_length",
        "max_ad_length",
        "max_ads",
        "fill_ceiling_seconds",
        "break_position",
        "continent_geoname_ids",
        "country_geoname_ids",
        "subdivision_1_geoname_ids",
        "subdivision_2_geoname_ids",
        "city_geoname_ids",
      ],
      intList,
    ),
  })
  .refine((b) => !(b.from && b.to && b.from > b.to), { path: ["to"], message: "must not be before from" });
export type AdPodRequestsBody = z.input<typeof AdPodRequestsBody>;

const campaignParams = z.strictObject({ pid: intId, cid: z.string().min(1, "must not be empty") });
const campaignResponse = z.looseObject({ ...envelope, campaign: Campaign });

/** §4.3 Archive a campaign (archiving an archived campaign succeeds unchanged, docs/design.md). */
export const archiveCampaign = defineOperation({
  id: "4.3",
  method: "POST",
  path: "/v2/ad-manager/{pid}/campaigns/{cid}/archive",
  params: campaignParams,
  response: campaignResponse,
});
/** §4.7 List ad-pod requests: one page. A read-only POST: safe to retry. */
export const listAdPodRequests = defineOperation({
  id: "4.7",
  method: "POST",
  path: "/v2/ad-manager/{pid}/requests",
  params: z.strictObject({ pid: intId }),
  body: AdPodRequestsBody,
  response: z.looseObject({ ...envelope, items: z.array(AdPodRequest), ...pageCounters }),
});
/** §4.13 Show campaign targeting (`from_cache` is true when served from cache). */
export const getTargeting = defineOperation({
  id: "4.13",
  method: "GET",
  path: "/v2/ad-manager/{pid}/campaigns/{cid}/targeting",
  params: campaignParams,
  response: z.looseObject({ ...envelope, targeting: Targeting, from_cache: z.boolean().optional() }),
});
/** §4.15 List ad manager projects, with the plan's project cap. */
export const listProjects = defineOperation({
  id: "4.15",
  method: "GET",
  path: "/v2/ad-manager",
  response: z.looseObject({
    ...envelope,
    projects: z.array(Project),
    projects_limit: n.optional(),
    projects_available: n.optional(),
  }),
});
/** Extension beyond the spec: `GET /v2/ad-manager/{pid}/campaigns/{cid}` (refresh/import read, docs/design.md). */
export const getCampaign = defineOperation({
  id: "ext:campaign",
  method: "GET",
  path: "/v2/ad-manager/{pid}/campaigns/{cid}",
  params: campaignParams,
  response: campaignResponse,
});

export const ops = { archiveCampaign, listAdPodRequests, getTargeting, listProjects, getCampaign };

/** §4.7 every ad-pod request matching `body` (its `page` is ignored): `for await`, `.all()` or `.collect()` (pagination.ts). */
export const adPodRequests = (
  c: CdnstreamClient,
  projectId: number,
  body: Omit<AdPodRequestsBody, "page"> = {},
  o?: RequestOptions,
  pager: Pick<PaginatorOptions<AdPodRequest>, "batch" | "maxPages"> = {},
) =>
  new Paginator<AdPodRequest>((page) => listAdPodRequests(c, projectId, { ...body, page }, o), {
    ...pager,
    listing: `the ad-pod request log of project ${projectId} (POST /v2/ad-manager/{pid}/requests)`,
    idOf: (item) => item.id,
  });
