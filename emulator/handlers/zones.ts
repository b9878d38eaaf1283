/** Zones: update HTTP push zone (§4.1), list HTTP pull zones (§4.10), purge details (§4.12), zone reads. */
import { z } from "zod";
import { notFound } from "../errors";
import { Ctx, lookup, paginate, readRoute, Route } from "../route";
import { Obj } from "../store";
import { isoTime } from "../time";
import { domainList, parse, queryInt, queryObject, splitList } from "../validate";

/**
 * §2.2: the FTP password is "masked in some responses and plain in others"; the emulator
 * masks it in every response (the store keeps the real value).
 */
export function present(zone: Obj): Obj {
  return zone.ftpdetails ? { ...zone, ftpdetails: { ...zone.ftpdetails, password: "********" } } : zone;
}

const httpUrl = z.string().refine((s) => s === "" || (/^https?:\/\/[^\s/]+/i.test(s) && URL.canParse(s)), {
  error: "must be an http(s) URL, or empty to clear",
});

const pushUpdate = z.strictObject({
  /** §4.1: custom domain(s); the emulator accepts a comma-separated list, empty clears. */
  cnames: domainList.optional(),
  /** §4.1: transcoding profile ids. */
  profiles: z.array(z.union([z.int().min(1), z.string().regex(/^\d+$/, { error: "must be a profile id" })])).optional(),
  /** §4.1, §6: URL receiving the transcoded-file list; empty clears. */
  webhook: httpUrl.optional(),
});

function updatePushZone(ctx: Ctx): unknown {
  const zone = lookup(ctx, "httpPushZones", ctx.params.zoneid, "HTTP push zone");
  const body = parse(pushUpdate, ctx.body);
  const warnings: string[] = [];
  if (body.cnames !== undefined) {
    const cnames = splitList(body.cnames);
    for (const c of cnames.filter((c) => !zone.cnamesArr?.includes(c))) {
      warnings.push(
        `add a CNAME record for ${c} pointing to ${zone.fqdn}; its certificate is issued once the record resolves`,
      );
    }
    Object.assign(zone, { cnames: cnames.join(","), cnamesArr: cnames, cnamesArrFqdn: cnames });
  }
  zone.transcodefile ??= { profiles: [], emails: [], webhooks: [] };
  if (body.profiles !== undefined) zone.transcodefile.profiles = body.profiles.map(String);
  if (body.webhook !== undefined) zone.transcodefile.webhooks = body.webhook ? [body.webhook] : [];
  zone.updated_at = isoTime(ctx.now); // §2.2: ISO 8601 in the push update response
  ctx.store.commit();
  return { result: "success", message: "Zone updated successfully", zone: present(zone), warnings };
}

const pageQuery = z.strictObject({ page: queryInt(1).optional() });

function listPullZones(ctx: Ctx): unknown {
  const { page = 1 } = parse(pageQuery, queryObject(ctx.query), "query");
  // §4.10 answers the page's zones without the paging fields.
  return { result: "success", zones: paginate(ctx.store.list("httpPullZones"), page, ctx.profile).items.map(present) };
}

function purgeDetails(ctx: Ctx): unknown {
  const zone = lookup(ctx, "httpPushZones", ctx.params.zoneid, "HTTP push zone");
  const purge = ctx.store.get("purges", ctx.params.purgeId);
  // §2.19 `zone` holds the zone id as a string; a purge of another zone is not found here.
  if (!purge || String(purge.zone) !== String(zone.id)) {
    throw notFound(`purge ${ctx.params.purgeId} not found on HTTP push zone ${zone.id}`);
  }
  return { result: "success", ...purge };
}

export const routes: Route[] = [
  { method: "POST", path: "/v2/zones/http/push/{zoneid}", handler: updatePushZone, write: "Zone updated successfully" },
  { method: "GET", path: "/v2/zones/http/pull", handler: listPullZones },
  { method: "GET", path: "/v2/zones/http/push/{zoneid}/purge/{purgeId}", handler: purgeDetails },
  readRoute("/v2/zones/http/push/{zoneid}", "zone", "httpPushZones", "HTTP push zone", present),
  readRoute("/v2/zones/vod/pull/{zoneid}", "zone", "vodPullZones", "VoD pull zone", present),
];
