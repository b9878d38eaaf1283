/** Ad manager: §4.3, §4.7, §4.13, §4.15 and the campaign read. Shapes: §2.13-§2.16. */
import { z } from "zod";
import type { CdnstreamClient } from "../core/client";
import { defineOperation, type RequestOptions } from "../core/operation";
import { Paginator, type PaginatorOptions } from "../core/pagination";
import { dateIn, envelope, intId, intMin, loose, numeric, pageCounters, rangeIn } from "./shapes";

const n = z.number();
const s = z.string();
const strs = z.array(s);
const ints = z.array(n);

/** §2.13 ad-pod request log item. */
export const AdPodRequest = loose({
  /** Request id. */
  id: s,
  /** Publisher. */
  publisher_id: s,
  /** Content requested for. */
  content_id: s,
  /** Placement. */
  placement: s,
  /** Language. */
  language: s,
  /** Viewer key. */
  user_key: s,
  /** Viewer IP. */
  ip: s,
  /** Viewer user agent. */
  user_agent: s,
  /** Viewer operating system. */
  os: s,
  /** Viewer browser. */
  browser: s,
  /** Decision outcome. */
  decision_status: s,
  /** Fill outcome. */
  fill_status: s,
  /** ISO 8601 UTC. */
  request_time: s,
  /** ISO 8601 UTC. */
  created_at: s,
  /** Content tags. */
  content_tags: strs,
  /** Content category. */
  category: n,
  /** Device type. */
  device: n,
  /** Continent geoname id. */
  continent_geoname_id: n,
  /** Country geoname id. */
  country_geoname_id: n,
  /** First-level subdivision geoname id. */
  subdivision_1_geoname_id: n,
  /** Second-level subdivision geoname id. */
  subdivision_2_geoname_id: n,
  /** City geoname id. */
  city_geoname_id: n,
  /** Break fill target, seconds (IAB BREAKMAXDURATION). */
  max_duration: n,
  /** Per-ad minimum, seconds (IAB BREAKMINADLENGTH). */
  min_ad_length: n,
  /** Per-ad maximum, seconds (IAB BREAKMAXADLENGTH). */
  max_ad_length: n,
  /** Seconds filled. */
  selected_duration_seconds: n,
}).required({ id: true });
export type AdPodRequest = z.infer<typeof AdPodRequest>;

const skipRule = {
  /** Whether the viewer may skip the ad. */
  skippable: z.boolean(),
  /** How `offsetValue` is measured (e.g. seconds or percent), as the API sends it. */
  offset_type: s,
  /** When the skip button appears, in the unit `offsetType` names. */
  offset_value: n,
};
/** §2.14 ad manager project. */
export const Project = loose({
  /** Project id. */
  id: n,
  /** Project UUID. */
  uuid: s,
  /** Project name. */
  name: s,
  /** Project settings. */
  settings: loose({
    /** IANA name. */
    timezone: s,
    /** ISO currency code. */
    currency_code: s,
    /** Currency symbol. */
    currency_symbol: s,
    /** Integer flag: the advanced analytics add-on. */
    advanced_analytics: n,
    /** Advertiser cap. */
    max_advertisers: n,
    /** Campaign cap. */
    max_campaigns: n,
    /** Creative cap. */
    max_creatives: n,
    /** Its unit is not shown (the limits). */
    analytics_retention_period: n,
    /** When viewers may skip ads. */
    skip_policy: loose({
      /** The rule where no other applies. */
      default: loose(skipRule),
      /** Rules by pod position. */
      rules: z.array(
        loose({
          ...skipRule,
          /** Pod position the rule applies to. */
          position: s,
          /** Whether it applies to the longest ad of the pod. */
          longest: z.boolean(),
          /** Whether it applies to the shortest ad of the pod. */
          shortest: z.boolean(),
        }),
      ),
    }),
  }),
  /** Advertisers. */
  advertisers_count: n,
  /** Campaigns. */
  campaigns_count: n,
  /** Creatives. */
  creatives_count: n,
  /** Active campaigns; archived campaigns are not counted (the object states). */
  active_campaigns_count: n,
  /** This month's usage. */
  usage_this_month: loose({
    /** Ad requests. */
    ad_requests: n,
    /** Impressions. */
    impressions: n,
    /** Percent of requests filled. */
    fill_rate: numeric,
    /** Percent of impressions played to the end. */
    completion_rate: numeric,
  }),
  /** ISO 8601 UTC. */
  created_at: s,
  /** ISO 8601 UTC. */
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
  /** Content tags a request must have one of. */
  include_tags: strs,
  /** Content tags that exclude a request. */
  exclude_tags: strs,
  /** Content categories. */
  categories: ints,
  /** Content ids. */
  content_ids: strs,
  /** Placements. */
  placements: strs,
  /** Device types. */
  devices: ints,
  /** Languages. */
  languages: strs,
  /** Operating systems. */
  oses: strs,
  /** Browsers. */
  browsers: strs,
  /** Continent geoname ids. */
  continent_geoname_ids: ints,
  /** Country geoname ids. */
  country_geoname_ids: ints,
  /** First-level subdivision geoname ids. */
  subdivision_1_geoname_ids: ints,
  /** Second-level subdivision geoname ids. */
  subdivision_2_geoname_ids: ints,
  /** City geoname ids. */
  city_geoname_ids: ints,
  /** The campaign. */
  campaign_id: s,
  /** ISO 8601 UTC. */
  created_at: s,
  /** ISO 8601 UTC. */
  updated_at: s,
});

const strList = z.array(z.string()).optional();
const intList = z.array(z.number().int("must hold integers")).optional();
/** §4.7 body: filters are arrays except from, to, r and page. `content_ids` may hold `__none__`. */
export const AdPodRequestsBody = z
  .strictObject({
    /** Date `YYYY-MM-DD` (checked before sending). */
    from: dateIn.optional(),
    /** Date `YYYY-MM-DD`, not before `from` (checked before sending). */
    to: dateIn.optional(),
    /**
     * Range `YYYY-MM-DD HH:MM:SS - YYYY-MM-DD HH:MM:SS`, alternative to from/to (precedence not shown, `POST
     * /v2/ad-manager/{pid}/requests`).
     */
    r: rangeIn.optional(),
    /** One page (from 1) with its paging fields, instead of every request. */
    page: intMin(1, "(pages start at 1)").optional(),
    /** Content ids; `__none__` appears in this list (`POST /v2/ad-manager/{pid}/requests`). */
    content_ids: strList,
    /** Advertisers. */
    advertiser_ids: strList,
    /** Campaigns. */
    campaign_ids: strList,
    /** Creatives. */
    creative_ids: strList,
    /** Content tags. */
    content_tags: strList,
    /** Placements. */
    placements: strList,
    /** Languages. */
    languages: strList,
    /** Operating systems. */
    oses: strList,
    /** Browsers. */
    browsers: strList,
    /** Fill outcomes. */
    fill_statuses: strList,
    /** Decision outcomes. */
    decision_statuses: strList,
    /** User agents. */
    user_agent: strList,
    /** Ad break ids. */
    break_ids: strList,
    /** Transaction ids. */
    transaction_ids: strList,
    /** Viewer IPs. */
    ip: strList,
    /** Content categories. */
    categories: intList,
    /** Device types. */
    devices: intList,
    /** Break fill targets, seconds (IAB BREAKMAXDURATION). */
    max_duration: intList,
    /** Per-ad minimums, seconds (IAB BREAKMINADLENGTH). */
    min_ad_length: intList,
    /** Per-ad maximums, seconds (IAB BREAKMAXADLENGTH). */
    max_ad_length: intList,
    /** Pod-size caps (IAB BREAKMAXADS). */
    max_ads: intList,
    /** Fill ceilings, seconds. */
    fill_ceiling_seconds: intList,
    /** Break positions. */
    break_position: intList,
    /** Continent geoname ids. */
    continent_geoname_ids: intList,
    /** Country geoname ids. */
    country_geoname_ids: intList,
    /** First-level subdivision geoname ids. */
    subdivision_1_geoname_ids: intList,
    /** Second-level subdivision geoname ids. */
    subdivision_2_geoname_ids: intList,
    /** City geoname ids. */
    city_geoname_ids: intList,
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
  response: z.looseObject({
    ...envelope,
    /** Every matching request (the ad-pod request log item), or the page asked for. */
    items: z.array(AdPodRequest),
    ...pageCounters,
  }),
});
/** §4.13 Show campaign targeting (`from_cache` is true when served from cache). */
export const getTargeting = defineOperation({
  id: "4.13",
  method: "GET",
  path: "/v2/ad-manager/{pid}/campaigns/{cid}/targeting",
  params: campaignParams,
  response: z.looseObject({
    ...envelope,
    targeting: Targeting,
    /** True when the API served it from cache instead of reading it fresh. */
    from_cache: z.boolean().optional(),
  }),
});
/** §4.15 List ad manager projects, with the plan's project cap. */
export const listProjects = defineOperation({
  id: "4.15",
  method: "GET",
  path: "/v2/ad-manager",
  response: z.looseObject({
    ...envelope,
    /** Every ad manager project (the ad-manager project). */
    projects: z.array(Project),
    /** The plan-driven cap on projects. */
    projects_limit: n.optional(),
    /** Projects that may still be created. */
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

/**
 * §4.7 every ad-pod request matching `body` (its `page` is ignored): `for await`, `.all()` or `.collect()`
 * (pagination.ts).
 */
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
