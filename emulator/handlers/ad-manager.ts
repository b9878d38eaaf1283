/** Ad manager: projects (§4.15), ad-pod request log (§4.7), campaign targeting (§4.13) and archive (§4.3). */
import { z } from "zod";
import { invalid, notFound } from "../errors";
import { Ctx, lookup, paginate, Route } from "../route";
import { Obj } from "../store";
import { parseTime } from "../time";
import { int, parse, range } from "../validate";

/** §2.14 with campaign counts derived from the campaigns, so archiving moves them (§3). */
function presentProject(ctx: Ctx, p: Obj): Obj {
  const mine = ctx.store.list("campaigns").filter((c) => Number(c.admanager_id) === Number(p.id));
  return {
    ...p,
    campaigns_count: mine.length,
    active_campaigns_count: mine.filter((c) => c.status === "active").length,
  };
}

/** §2.15: the stored campaign minus its §2.16 targeting, which only §4.13 returns. */
const presentCampaign = ({ targeting: _t, ...campaign }: Obj): Obj => campaign;

function campaignOf(ctx: Ctx): Obj {
  const project = lookup(ctx, "adManagerProjects", ctx.params.pid, "ad manager project");
  const campaign = ctx.store.get("campaigns", ctx.params.cid);
  if (!campaign || Number(campaign.admanager_id) !== Number(project.id)) {
    throw notFound(`campaign ${ctx.params.cid} not found in ad manager project ${project.id}`);
  }
  return campaign;
}

function listProjects(ctx: Ctx): unknown {
  const projects = ctx.store.list("adManagerProjects").map((p) => presentProject(ctx, p));
  const limit = ctx.store.state.account.projectsLimit;
  return {
    result: "success",
    projects,
    projects_limit: limit,
    projects_available: Math.max(0, limit - projects.length),
  };
}

/** Whether a campaign is archived, whatever word marked it (emulator/README.md, "Server profiles"). */
function isArchived(ctx: Ctx, campaign: Obj): boolean {
  const status = String(campaign.status ?? "");
  return (
    status === ctx.store.archivedWords.get(String(campaign.id)) ||
    status === ctx.profile.archivedStatus ||
    status.toLowerCase() === "archived"
  );
}

function archive(ctx: Ctx): unknown {
  const campaign = campaignOf(ctx);
  // docs/design.md: archiving an archived campaign succeeds unchanged.
  if (!isArchived(ctx, campaign)) {
    // The status after archiving is not shown (§3): the profile's word.
    campaign.status = ctx.profile.archivedStatus;
    ctx.store.archivedWords.set(String(campaign.id), campaign.status);
    // §3: archived campaigns stop delivering.
    if (campaign.delivery_status) Object.assign(campaign.delivery_status, { status: "ended", today_impressions: 0 });
    ctx.store.targetingReads.delete(campaign.id);
    ctx.store.commit();
  }
  return { result: "success", campaign: presentCampaign(campaign) };
}

function targeting(ctx: Ctx): unknown {
  const campaign = campaignOf(ctx);
  // §4.13 from_cache: the first read after a change is fresh, later ones come from the cache.
  const fromCache = ctx.store.targetingReads.has(campaign.id);
  ctx.store.targetingReads.add(campaign.id);
  return { result: "success", targeting: campaign.targeting ?? { campaign_id: campaign.id }, from_cache: fromCache };
}

const strings = z.array(z.string()).optional();
const ints = z.array(z.int()).optional();
const day = z.string().refine((s) => !!parseTime(s, true), { error: "must be a date YYYY-MM-DD" });

/** §4.7 filters: JSON arrays unless stated. */
const requestsBody = z.strictObject({
  from: day.optional(),
  to: day.optional(),
  r: range.optional(),
  page: int(1).optional(),
  content_ids: strings,
  advertiser_ids: strings,
  campaign_ids: strings,
  creative_ids: strings,
  content_tags: strings,
  placements: strings,
  languages: strings,
  oses: strings,
  browsers: strings,
  fill_statuses: strings,
  decision_statuses: strings,
  user_agent: strings,
  break_ids: strings,
  transaction_ids: strings,
  ip: strings,
  categories: ints,
  devices: ints,
  max_duration: ints,
  min_ad_length: ints,
  max_ad_length: ints,
  max_ads: ints,
  fill_ceiling_seconds: ints,
  break_position: ints,
  continent_geoname_ids: ints,
  country_geoname_ids: ints,
  subdivision_1_geoname_ids: ints,
  subdivision_2_geoname_ids: ints,
  city_geoname_ids: ints,
});

/** Filters with a §2.13 item field, matched by membership; the items have no field for the others. */
const MEMBERSHIP = [
  ["placements", "placement"],
  ["languages", "language"],
  ["oses", "os"],
  ["browsers", "browser"],
  ["fill_statuses", "fill_status"],
  ["decision_statuses", "decision_status"],
  ["ip", "ip"],
  ["user_agent", "user_agent"],
  ["categories", "category"],
  ["devices", "device"],
  ["max_duration", "max_duration"],
  ["min_ad_length", "min_ad_length"],
  ["max_ad_length", "max_ad_length"],
  ["continent_geoname_ids", "continent_geoname_id"],
  ["country_geoname_ids", "country_geoname_id"],
  ["subdivision_1_geoname_ids", "subdivision_1_geoname_id"],
  ["subdivision_2_geoname_ids", "subdivision_2_geoname_id"],
  ["city_geoname_ids", "city_geoname_id"],
] as const;

function adPodRequests(ctx: Ctx): unknown {
  const project = lookup(ctx, "adManagerProjects", ctx.params.pid, "ad manager project");
  const b = parse(requestsBody, ctx.body);
  // Precedence of r over from/to is not shown (§4.7): sending both is refused rather than guessed.
  if (b.r && (b.from || b.to)) throw invalid("r", "send either r or from/to, not both");
  const from = b.r ? b.r.from.getTime() : b.from ? parseTime(b.from, true)!.getTime() : -Infinity;
  const to = b.r ? b.r.to.getTime() : b.to ? parseTime(b.to, true)!.getTime() + 86_399_999 : Infinity;
  if (from > to) throw invalid("to", "must not be before from");
  const items = ctx.store
    .list("adPodRequests")
    .filter((i) => i.publisher_id === project.uuid) // the log links to a project by publisher_id = project uuid
    .filter((i) => Date.parse(i.request_time) >= from && Date.parse(i.request_time) <= to)
    .filter((i) => !b.content_ids || b.content_ids.includes(i.content_id || "__none__")) // `__none__`: no content id
    .filter((i) => !b.content_tags || b.content_tags.some((t) => i.content_tags?.includes(t)))
    .filter((i) => MEMBERSHIP.every(([param, field]) => !b[param] || (b[param] as unknown[]).includes(i[field])))
    .sort((x, y) => Date.parse(y.request_time) - Date.parse(x.request_time));
  return { result: "success", ...paginate(items, b.page ?? 1, ctx.profile) };
}

export const routes: Route[] = [
  {
    method: "POST",
    path: "/v2/ad-manager/{pid}/campaigns/{cid}/archive",
    handler: archive,
    write: "Campaign archived",
  },
  { method: "POST", path: "/v2/ad-manager/{pid}/requests", handler: adPodRequests },
  { method: "GET", path: "/v2/ad-manager/{pid}/campaigns/{cid}/targeting", handler: targeting },
  { method: "GET", path: "/v2/ad-manager", handler: listProjects },
  {
    method: "GET",
    path: "/v2/ad-manager/{pid}/campaigns/{cid}",
    extension: true,
    handler: (ctx) => ({ result: "success", campaign: presentCampaign(campaignOf(ctx)) }),
  },
];
