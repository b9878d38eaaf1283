/**
 * Ad insertion analytics: tracking report (§4.6), ad consumption (§4.8) and ad-break log (§4.9).
 * Report numbers are synthetic but deterministic: the same query always yields the same numbers.
 */
import * as net from "node:net";
import { z } from "zod";
import { invalid } from "../errors";
import { Ctx, lookup, paginate, requireAddOn, requireCustomPlan, Route } from "../route";
import { isoTime, Range, sqlTime } from "../time";
import { parse, queryInt, queryObject, range } from "../validate";
import { buckets, GROUPS } from "./buckets";

/** An integer around `mean` (±50%), fixed for `key`: FNV-1a of `key` scales it. */
function around(key: string, mean: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return Math.round(mean * (0.5 + (h >>> 0) / 4294967296));
}

/** `part / whole` as a percentage with two decimals; 0 when `whole` is 0. */
const percent = (part: number, whole: number): number => (whole ? Math.round((part / whole) * 10000) / 100 : 0);

/** §4.6, §8: bucket sizes in minutes. */
export const GRANULARITIES = [1, 5, 10, 15, 30, 60, 180, 360, 720, 1440, 2880, 10080];
const MAX_POINTS = 1440; // §8: at most 1440 points; range <= granularity x 1440 minutes

const text = z.string().min(1).optional();
const geo = queryInt(0).optional();
/** §4.6 / §4.9 filters beyond crid and session_id: they need the advanced analytics add-on. */
const advancedFilters = {
  client_ip: z
    .string()
    .refine((s) => net.isIP(s) !== 0, { error: "must be an IPv4 or IPv6 address" })
    .optional(),
  os: text,
  browser: text,
  content_id: text,
  continent_geoname_id: geo,
  country_geoname_id: geo,
  subdivision1_geoname_id: geo,
  subdivision2_geoname_id: geo,
  city_geoname_id: geo,
};
const ADVANCED = Object.keys(advancedFilters);
const filters = { r: range.optional(), crid: text, session_id: text, ...advancedFilters };

const trackingQuery = z.strictObject({
  ...filters,
  granularity: z
    .string()
    .refine((s) => GRANULARITIES.map(String).includes(s), {
      error: `must be one of ${GRANULARITIES.join(", ")} (minutes)`,
    })
    .transform(Number)
    .optional(),
});

function trackingReport(ctx: Ctx): unknown {
  requireCustomPlan(ctx, "ad insertion tracking report");
  const stream = lookup(ctx, "pushStreams", ctx.params.streamid, "push stream");
  const q = parse(trackingQuery, queryObject(ctx.query), "query");
  const advanced = ADVANCED.filter((f) => f in q);
  if (advanced.length) requireAddOn(ctx, `tracking report filter(s) ${advanced.join(", ")}`);
  const g = q.granularity ?? 60;
  // Without `r`: the last day, to the minute (within the cap of every granularity).
  const to = new Date(Math.floor(ctx.now.getTime() / 60_000) * 60_000);
  const r: Range = q.r ?? { from: new Date(to.getTime() - 86_400_000), to };
  const minutes = Math.ceil((r.to.getTime() - r.from.getTime()) / 60_000);
  if (minutes > g * MAX_POINTS) {
    const fits = GRANULARITIES.find((x) => x * MAX_POINTS >= minutes);
    throw invalid(
      "r",
      `range of ${minutes} minutes exceeds granularity ${g} x ${MAX_POINTS} = ${g * MAX_POINTS} minutes (at most ${MAX_POINTS} points); ` +
        `shorten the range to ${g * MAX_POINTS} minutes${fits ? ` or use granularity ${fits}` : ""}`,
    );
  }
  // Filters narrow the audience, so filtered reports carry fewer events.
  const share = (q.crid ? 0.3 : 1) * (q.session_id ? 0.002 : 1) * 0.4 ** advanced.length;
  const seed = `${stream.id}|${q.crid ?? ""}|${q.session_id ?? ""}|${advanced.map((f) => (q as Record<string, unknown>)[f]).join(",")}`;
  const data: ({ time: string } & Record<Count, number>)[] = [];
  for (let t = r.from.getTime(); t < r.to.getTime(); t += g * 60_000) {
    const counts = [around(`${seed}|${t}`, 9 * g * share)];
    for (const rate of FUNNEL) counts.push(Math.round(counts[counts.length - 1] * rate));
    data.push({
      time: isoTime(new Date(t)),
      ...(Object.fromEntries(COUNTS.map((k, i) => [k, counts[i]])) as Record<Count, number>),
    });
  }
  const total = Object.fromEntries(COUNTS.map((k) => [k, data.reduce((n, d) => n + d[k], 0)])) as Record<Count, number>;
  const summary = {
    from: isoTime(r.from),
    to: isoTime(r.to),
    ...total,
    unique_sessions: Math.round(total.impressions * 0.62),
    view_rate_25: percent(total.first_quartiles, total.starts),
    view_rate_50: percent(total.midpoints, total.starts),
    view_rate_75: percent(total.third_quartiles, total.starts),
    completion_rate: percent(total.completes, total.starts),
  };
  return { result: "success", message: "Tracking report generated", summary, data };
}

/** The counts of one §2.9 time bucket, in report order, each summed in the summary. */
const COUNTS = ["impressions", "starts", "first_quartiles", "midpoints", "third_quartiles", "completes"] as const;
type Count = (typeof COUNTS)[number];
/** Each count after `impressions` as a share of the count before it. */
const FUNNEL = [0.98, 0.93, 0.95, 0.95, 0.94];

/** §2.10 egress details, in report order. */
const EGRESS = ["manifests", "segments", "ssat", "transcoding", "other"] as const;

/** §4.8: groupBy and r are both required. */
const consumptionBody = z.strictObject({ groupBy: z.enum(GROUPS), r: range });

function consumption(ctx: Ctx): unknown {
  requireCustomPlan(ctx, "ad consumption");
  const stream = lookup(ctx, "pullStreams", ctx.params.streamid, "pull stream");
  const { groupBy, r } = parse(consumptionBody, ctx.body);
  const keys = buckets(groupBy, r);
  const row = (key: string) => {
    const insertions = around(`${stream.id}|ins|${key}`, 1200);
    const impressions = Math.round(insertions * 2.7);
    const segments = impressions * 2_400_000;
    const egress: Record<(typeof EGRESS)[number], number> = {
      manifests: insertions * 18_000,
      segments,
      ssat: impressions * 1_200,
      transcoding: Math.round(segments * 0.08),
      other: insertions * 4_000,
    };
    return { key, insertions, impressions, egress, total: Object.values(egress).reduce((a, b) => a + b, 0) };
  };
  const rows = keys.map(row);
  const total = (f: (x: (typeof rows)[number]) => number) => rows.reduce((n, x) => n + f(x), 0);
  return {
    result: "success",
    message: "Ad consumption",
    from: sqlTime(r.from),
    to: sqlTime(r.to),
    // §2.10: the response's groupBy is `day` or `hour`; year, month and week answer `day` (the
    // chart labels still name the requested periods).
    serviceIds: [ctx.store.state.account.serviceid],
    groupBy: groupBy === "hour" ? "hour" : "day",
    totalAdInsertions: total((x) => x.insertions),
    totalAdImpressions: total((x) => x.impressions),
    totalEgress: total((x) => x.total),
    egressDetails: Object.fromEntries(EGRESS.map((k) => [k, total((x) => x.egress[k])])),
    adInsertionsChart: rows.map((x) => ({ key: x.key, value: x.insertions })),
    adImpressionsChart: rows.map((x) => ({ key: x.key, value: x.impressions })),
    egressChart: rows.map((x) => ({ key: x.key, value: x.total })),
  };
}

const adBreaksQuery = z.strictObject({
  ...filters,
  page: queryInt(1).optional(),
  break_type: z.enum(["pre-roll", "mid-roll"]).optional(),
  trigger_type: text,
  fill_status: z.enum(["full", "underfilled", "no_fill"]).optional(),
  vast_outcome: z
    .enum(["ok", "timeout", "http_4xx", "http_5xx", "network", "parse", "no_creative", "wrapper_exceeded"])
    .optional(),
});

/** §4.9 query names and the §2.11 item fields they filter; the other filters have no item field. */
const AD_BREAK_FIELDS = [
  ["session_id", "sessionId"],
  ["content_id", "contentId"],
  ["break_type", "breakType"],
  ["trigger_type", "triggerType"],
  ["fill_status", "fillStatus"],
  ["vast_outcome", "vastOutcome"],
] as const;

function adBreaks(ctx: Ctx): unknown {
  requireCustomPlan(ctx, "list ad breaks");
  requireAddOn(ctx, "list ad breaks");
  lookup(ctx, "vodPullZones", ctx.params.zoneid, "VoD pull zone");
  const q = parse(adBreaksQuery, queryObject(ctx.query), "query");
  const items = ctx.store
    .list("adBreaks")
    .filter((b) => AD_BREAK_FIELDS.every(([param, field]) => q[param] === undefined || b[field] === q[param]))
    .filter(
      (b) => !q.r || (Date.parse(b.createdAt) >= q.r.from.getTime() && Date.parse(b.createdAt) <= q.r.to.getTime()),
    )
    .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
  return { result: "success", ...paginate(items, q.page ?? 1, ctx.profile) };
}

export const routes: Route[] = [
  { method: "GET", path: "/v2/streams/push/{streamid}/adinsertion/tracking/reports", handler: trackingReport },
  { method: "POST", path: "/v2/streams/pull/{streamid}/adinsertion/consumption", handler: consumption },
  { method: "GET", path: "/v2/zones/vod/pull/{zoneid}/adinsertion/ad-breaks", handler: adBreaks },
];
