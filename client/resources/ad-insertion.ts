/** Ad insertion (custom plan): §4.2, §4.6, §4.8, §4.9, §4.18 and the settings read. Shapes: §2.8-§2.12. */
import { z } from "zod";
import type { CdnstreamClient } from "../core/client";
import { defineOperation, type RequestOptions } from "../core/operation";
import { Paginator, type PaginatorOptions } from "../core/pagination";
import {
  anyId,
  envelope,
  formatDateTime,
  intId,
  intMin,
  loose,
  numeric,
  openEnum,
  pageCounters,
  parseRange,
  rangeIn,
} from "./shapes";

const n = z.number();
/** §4.9 `fill_status` values. */
const FILL_STATUSES = ["full", "underfilled", "no_fill"] as const;
/** §4.9 `vast_outcome` values. */
const VAST_OUTCOMES = [
  "ok",
  "timeout",
  "http_4xx",
  "http_5xx",
  "network",
  "parse",
  "no_creative",
  "wrapper_exceeded",
] as const;
/** §2.8 ad insertion configuration (the schedule response and the settings read). */
export const AdInsertionConfig = loose({
  statusCode: n,
  id: anyId,
  tenantId: anyId,
  name: z.string(),
  hash: z.string(),
  type: z.string(),
  url: z.string(),
  state: z.string(),
  creationDate: z.string(),
  updateDate: z.string(),
  source: loose({
    id: anyId,
    tenantId: anyId,
    type: z.string(),
    name: z.string(),
    url: z.string(),
    format: z.string(),
    origin: loose({ customHeaders: z.array(loose({ name: z.string(), value: z.string() })) }),
  }),
  enableAdTranscoding: z.boolean(),
  transcodingProfile: loose({ id: anyId, name: z.string() }),
  serverSideAdTracking: loose({ enable: z.boolean(), checkAdMediaSegmentAvailability: z.boolean() }),
  vodAdBreakPolicy: loose({
    adServer: loose({ id: anyId }),
    spliceMode: z.string(),
    preRoll: loose({ maxDurationS: n, minAdLengthS: n }).nullable(),
    midRolls: z.array(loose({ offsetS: n, maxDurationS: n })),
  }),
  insertionMode: z.string(),
  result: envelope.result,
});
export type AdInsertionConfig = z.infer<typeof AdInsertionConfig>;

const counts = {
  /** Ad impressions. */
  impressions: n,
  /** Ads started. */
  starts: n,
  /** Ads played to 25%. */
  first_quartiles: n,
  /** Ads played to 50%. */
  midpoints: n,
  /** Ads played to 75%. */
  third_quartiles: n,
  /** Ads played to the end. */
  completes: n,
};
/** §2.9 tracking report. */
export const TrackingReport = z.looseObject({
  ...envelope,
  /** Totals over the range. */
  summary: loose({
    /** Range start, ISO 8601 UTC. */
    from: z.string(),
    /** Range end, ISO 8601 UTC. */
    to: z.string(),
    ...counts,
    /** Distinct playback sessions. */
    unique_sessions: n,
    /** Percent of starts played to 25%. */
    view_rate_25: numeric,
    /** Percent of starts played to 50%. */
    view_rate_50: numeric,
    /** Percent of starts played to 75%. */
    view_rate_75: numeric,
    /** Percent of starts played to the end. */
    completion_rate: numeric,
  }).optional(),
  /** One entry per time bucket. */
  data: z
    .array(
      loose({
        /** Bucket start, ISO 8601 UTC. */
        time: z.string(),
        ...counts,
      }),
    )
    .optional(),
});
const chart = z.array(
  loose({
    /** The bucket label. */
    key: z.string(),
    /** The bucket's value. */
    value: n,
  }),
);
/** §2.10 ad consumption (egress in bytes). */
export const Consumption = loose({
  ...envelope,
  /** Egress in bytes per kind. */
  egressDetails: loose({
    /** Manifests, bytes. */
    manifests: n,
    /** Segments, bytes. */
    segments: n,
    /** Server-side ad tracking, bytes. */
    ssat: n,
    /** Transcoding, bytes. */
    transcoding: n,
    /** Other, bytes. */
    other: n,
  }),
  /** Ad insertions per bucket. */
  adInsertionsChart: chart,
  /** Ad impressions per bucket. */
  adImpressionsChart: chart,
  /** Egress bytes per bucket. */
  egressChart: chart,
  /** Range start, `YYYY-MM-DD HH:MM:SS`. */
  from: z.string(),
  /** Range end, `YYYY-MM-DD HH:MM:SS`. */
  to: z.string(),
  /** Services counted. */
  serviceIds: z.array(n),
  /** `day` or `hour` in the response (the ad consumption report). */
  groupBy: openEnum(["day", "hour"]),
  /** Ad insertions in the range. */
  totalAdInsertions: n,
  /** Ad impressions in the range. */
  totalAdImpressions: n,
  /** Egress in bytes. */
  totalEgress: n,
}).required({ result: true });
/** §2.11 ad break log item. */
export const AdBreak = loose({
  /** Ad break id. */
  id: z.string(),
  /** Account service id. */
  serviceId: n,
  /** Playback session. */
  sessionId: z.string(),
  /** Content played. */
  contentId: z.string(),
  /** `pre-roll` or `mid-roll`. */
  breakType: openEnum(["pre-roll", "mid-roll"]),
  /** What started the break, e.g. `preroll`. */
  triggerType: z.string(),
  /** Break duration asked for, seconds. */
  declaredDurationS: n,
  /** Outcome of the VAST request. */
  vastOutcome: openEnum(VAST_OUTCOMES),
  /** The VAST request URL. */
  vastUrl: z.string(),
  /** Creatives returned. */
  creativeCount: n,
  /** Break duration filled, seconds. */
  fulfilledDurationS: n,
  /** `full`, `underfilled` or `no_fill`. */
  fillStatus: openEnum(FILL_STATUSES),
  /** ISO 8601 UTC. */
  createdAt: z.string(),
}).required({ id: true });
export type AdBreak = z.infer<typeof AdBreak>;
/** §2.12 ad creative. */
export const Creative = loose({
  ...envelope,
  /** Creative id from the VAST/VMAP creative element. */
  crid: z.string(),
  /** URL of the media file. */
  mediaUrl: z.string(),
  /** VAST `AdSystem`. */
  adSystem: z.string(),
  /** VAST `AdTitle`. */
  adTitle: z.string(),
  /** VAST `Advertiser`. */
  advertiser: z.string(),
  /** VAST `Category`. */
  category: z.string(),
  /** VAST creative id. */
  creativeId: z.string(),
  /** Ad id. */
  adId: z.string(),
  /** VAST `Ad` id. */
  adIdVast: z.string(),
  /** VAST `UniversalAdId`. */
  universalAdId: z.string(),
  /** Media width, pixels. */
  mediaWidth: n,
  /** Media height, pixels. */
  mediaHeight: n,
  /** Media bitrate. */
  mediaBitrate: n,
  /** Duration, seconds. */
  durationS: n,
}).required({ result: true });

const slotCommon = {
  /** Method override; the client always sends `PUT`. */
  _METHOD: z.literal("PUT").optional(),
  maxDurationS: intMin(1, "(seconds)", "is required (1 to 3600 seconds)").max(3600, "must be at most 3600 seconds"),
  /** Correlation id; for midrollinterval the id prefix (default `mid`). */
  breakId: z.string().optional(),
  /** Per-break pod-size cap. */
  maxAds: intMin(0, "(ads per break)").optional(),
  /** Per-break overshoot ceiling, seconds. */
  fillCeilingS: intMin(0, "(seconds)").optional(),
};
const SLOT_TYPES = "preroll, midroll, postroll or midrollinterval";
/** §4.2 body; which fields a slot takes depends on its `type` (immutable after creation). */
export const AdBreakSlotBody = z
  .discriminatedUnion(
    "type",
    [
      z.strictObject({ type: z.literal("preroll"), ...slotCommon }),
      z.strictObject({ type: z.literal("postroll"), ...slotCommon }),
      z.strictObject({
        type: z.literal("midroll"),
        ...slotCommon,
        offset: intMin(0, "(seconds from asset start)", "is required for a midroll slot (seconds from asset start)"),
      }),
      z
        .strictObject({
          type: z.literal("midrollinterval"),
          ...slotCommon,
          intervalS: intMin(1, "(seconds between breaks)").optional(),
          intervalSeconds: intMin(1, "(seconds between breaks)").optional(),
          /** 0 or omitted = unlimited. */
          maxBreaks: intMin(0, "(0 = unlimited)").optional(),
        })
        .superRefine((slot, ctx) => {
          if (slot.intervalS === undefined && slot.intervalSeconds === undefined) {
            ctx.addIssue({
              code: "custom",
              path: ["intervalS"],
              message: "is required for a midrollinterval slot (seconds between breaks)",
            });
          } else if (
            slot.intervalS !== undefined &&
            slot.intervalSeconds !== undefined &&
            slot.intervalS !== slot.intervalSeconds
          ) {
            ctx.addIssue({
              code: "custom",
              path: ["intervalSeconds"],
              message: "must equal intervalS (it is its alias)",
            });
          }
        }),
    ],
    { error: (issue) => (issue.code === "invalid_union" ? `must be ${SLOT_TYPES}` : undefined) },
  )
  .transform((slot) => {
    // §4.2: a method override, and the interval sent under both of its names.
    const wire: Record<string, unknown> = { ...slot, _METHOD: "PUT" };
    if (slot.type === "midrollinterval") wire.intervalS = wire.intervalSeconds = slot.intervalS ?? slot.intervalSeconds;
    return wire;
  });
export type AdBreakSlotBody = z.input<typeof AdBreakSlotBody>;

/** Bucket sizes in minutes (§4.6, §8). */
export const GRANULARITIES = [1, 5, 10, 15, 30, 60, 180, 360, 720, 1440, 2880, 10080] as const;
/** Time-series points per report (§4.6, §8). */
export const MAX_POINTS = 1440;

const geo = intMin(0, "(a geoname id)").optional();
const filterFields = {
  /** Range `YYYY-MM-DD HH:MM:SS - YYYY-MM-DD HH:MM:SS` (checked before sending). */
  r: rangeIn.optional(),
  /** Creative id. */
  crid: z.string().optional(),
  /** Ad insertion playback session. */
  session_id: z.string().optional(),
  /** Viewer IP; needs the advanced analytics add-on. */
  client_ip: z.string().optional(),
  /** Viewer operating system; needs the advanced analytics add-on. */
  os: z.string().optional(),
  /** Viewer browser; needs the advanced analytics add-on. */
  browser: z.string().optional(),
  /** Content id; needs the advanced analytics add-on. */
  content_id: z.string().optional(),
  /** Continent geoname id; needs the advanced analytics add-on. */
  continent_geoname_id: geo,
  /** Country geoname id; needs the advanced analytics add-on. */
  country_geoname_id: geo,
  /** First-level subdivision geoname id; needs the advanced analytics add-on. */
  subdivision1_geoname_id: geo,
  /** Second-level subdivision geoname id; needs the advanced analytics add-on. */
  subdivision2_geoname_id: geo,
  /** City geoname id; needs the advanced analytics add-on. */
  city_geoname_id: geo,
};
/** §4.6 query. Filters other than crid and session_id need the advanced analytics add-on. */
export const TrackingReportQuery = z
  .strictObject({
    ...filterFields,
    /**
     * Bucket size in minutes. With `r`, the range must not exceed granularity x 1440 minutes (`GET
     * /v2/streams/push/{streamid}/adinsertion/tracking/reports`, the limits); checked before sending.
     */
    granularity: z
      .union(
        GRANULARITIES.map((g) => z.literal(g)),
        { error: `must be one of ${GRANULARITIES.join(", ")} minutes` },
      )
      .optional(),
  })
  .superRefine((q, ctx) => {
    const range = q.r === undefined ? undefined : parseRange(q.r);
    if (!range || q.granularity === undefined) return; // the API's default granularity is not shown
    const spanMin = (range.end.getTime() - range.start.getTime()) / 60_000;
    const capMin = q.granularity * MAX_POINTS;
    if (spanMin <= capMin) return;
    const largest = `${formatDateTime(range.start)} - ${formatDateTime(new Date(range.start.getTime() + capMin * 60_000))}`;
    const fits = GRANULARITIES.find((g) => g * MAX_POINTS >= spanMin);
    ctx.addIssue({
      code: "custom",
      path: ["r"],
      message:
        `spans ${Math.ceil(spanMin)} minutes, more than granularity ${q.granularity} x ${MAX_POINTS} = ${capMin} minutes: ` +
        `the largest valid range from that start is "${largest}"` +
        (fits ? `, or use granularity ${fits} or more` : ""),
    });
  });
export type TrackingReportQuery = z.input<typeof TrackingReportQuery>;

/** §4.9 query. */
export const AdBreaksQuery = z.strictObject({
  ...filterFields,
  /** One page (from 1, 20 items) with its paging fields, instead of every ad break. */
  page: intMin(1, "(pages start at 1)").optional(),
  /** Pre-roll or mid-roll breaks only. */
  break_type: z.enum(["pre-roll", "mid-roll"], { error: 'must be "pre-roll" or "mid-roll"' }).optional(),
  /** The trigger that started the break, e.g. `preroll`. */
  trigger_type: z.string().optional(),
  /** Breaks of this fill outcome only. */
  fill_status: z.enum(FILL_STATUSES, { error: "must be full, underfilled or no_fill" }).optional(),
  /** Breaks of this VAST outcome only. */
  vast_outcome: z
    .enum(VAST_OUTCOMES, { error: `must be ${VAST_OUTCOMES.slice(0, -1).join(", ")} or ${VAST_OUTCOMES.at(-1)}` })
    .optional(),
});
export type AdBreaksQuery = z.input<typeof AdBreaksQuery>;

/** §4.8 body. */
export const ConsumptionBody = z.strictObject({
  /** Bucket of the charts (`POST /v2/streams/pull/{streamid}/adinsertion/consumption`, required). */
  groupBy: z.enum(["year", "month", "week", "day", "hour"], { error: "must be year, month, week, day or hour" }),
  /**
   * Range `YYYY-MM-DD HH:MM:SS - YYYY-MM-DD HH:MM:SS` (`POST /v2/streams/pull/{streamid}/adinsertion/consumption`,
   * required; checked before sending).
   */
  r: rangeIn,
});
export type ConsumptionBody = z.input<typeof ConsumptionBody>;

const zoneParams = z.strictObject({ zoneid: intId });

/** §4.2 Add (upsert, by slot identity) an ad break slot to a VoD push zone. */
export const addAdBreakSlot = defineOperation({
  id: "4.2",
  method: "POST",
  path: "/v2/zones/vod/push/{zoneid}/adinsertion/schedule",
  params: zoneParams,
  body: AdBreakSlotBody,
  response: AdInsertionConfig.required({ result: true }),
});
/** §4.6 Get the ad insertion tracking report of a push stream. */
export const getTrackingReport = defineOperation({
  id: "4.6",
  method: "GET",
  path: "/v2/streams/push/{streamid}/adinsertion/tracking/reports",
  params: z.strictObject({ streamid: intId }),
  query: TrackingReportQuery,
  response: TrackingReport,
});
/** §4.8 Get ad consumption of a pull stream. A read-only POST: safe to retry. */
export const getConsumption = defineOperation({
  id: "4.8",
  method: "POST",
  path: "/v2/streams/pull/{streamid}/adinsertion/consumption",
  params: z.strictObject({ streamid: intId }),
  body: ConsumptionBody,
  response: Consumption,
});
/** §4.9 List ad breaks: one page. */
export const listAdBreaks = defineOperation({
  id: "4.9",
  method: "GET",
  path: "/v2/zones/vod/pull/{zoneid}/adinsertion/ad-breaks",
  params: zoneParams,
  query: AdBreaksQuery,
  response: z.looseObject({
    ...envelope,
    /** Every matching ad break (the ad-break log item), or the page asked for. */
    items: z.array(AdBreak),
    ...pageCounters,
  }),
});
/** §4.18 Show an ad insertion creative (`crid` from the VAST/VMAP creative element). */
export const getCreative = defineOperation({
  id: "4.18",
  method: "GET",
  path: "/v2/zones/vod/push/{zoneid}/adinsertion/creatives/{crid}",
  params: z.strictObject({ zoneid: intId, crid: z.string().min(1, "must not be empty") }),
  response: Creative,
});
/** Extension beyond the spec: the zone's settings and saved slot roster (docs/design.md, "Single-object reads"). */
export const getAdInsertion = defineOperation({
  id: "ext:ad-insertion",
  method: "GET",
  path: "/v2/zones/vod/push/{zoneid}/adinsertion",
  params: zoneParams,
  response: AdInsertionConfig,
});

export const ops = { addAdBreakSlot, getTrackingReport, getConsumption, listAdBreaks, getCreative, getAdInsertion };

/**
 * §4.9 every ad break matching `query` (its `page` is ignored): `for await`, `.all()` or `.collect()` (pagination.ts).
 */
export const adBreaks = (
  c: CdnstreamClient,
  zoneId: number,
  query: Omit<AdBreaksQuery, "page"> = {},
  o?: RequestOptions,
  pager: Pick<PaginatorOptions<AdBreak>, "batch" | "maxPages"> = {},
) =>
  new Paginator<AdBreak>((page) => listAdBreaks(c, zoneId, { ...query, page }, o), {
    ...pager,
    listing: `the ad-break log of zone ${zoneId} (GET /v2/zones/vod/pull/{zoneid}/adinsertion/ad-breaks)`,
    idOf: (item) => item.id,
  });
