/** Domain lock: VoD pull zone (§4.5), bulk HTTP zones (§4.11) and the read of the bulk account default. */
import { z } from "zod";
import { Ctx, lookup, Route } from "../route";
import { Obj } from "../store";
import { domainList, ipList, normalizeList, parse, splitList, yn } from "../validate";
import { present } from "./zones";

/** The §2.4 domain lock fields both operations set. */
const lockFields = {
  enabled: yn.optional(),
  policy: yn.optional(),
  list: domainList.optional(),
  ips: ipList.optional(),
  noreferer: yn.optional(),
};

const vodPullLock = z.strictObject({
  ...lockFields,
  active: yn.optional(),
  /** §4.5: `S` (shared, zone-level) is the only mode given. */
  mode: z.literal("S").optional(),
});

function updateVodPullLock(ctx: Ctx): unknown {
  const zone = lookup(ctx, "vodPullZones", ctx.params.zoneid, "VoD pull zone");
  // `mode` is accepted but not stored: `S` is its only value and §2.4 has no field for it.
  const { mode: _shared, ...fields } = parse(vodPullLock, ctx.body);
  zone.domainlock = { ...zone.domainlock, ...withLists(fields) };
  ctx.store.commit();
  return { result: "success", message: "Domain lock settings updated", zone: present(zone) };
}

const bulkLock = z.strictObject({
  ...lockFields,
  /** §4.11; omitted means `save`, the mode that changes no zone. */
  mode: z.enum(["save", "append", "overwrite"]).default("save"),
});

/** Set union, keeping the existing order; domains compare case-insensitively. */
function union(existing: string | undefined, added: string): string {
  const out = splitList(existing ?? "");
  const seen = new Set(out.map((x) => x.toLowerCase()));
  for (const x of splitList(added)) {
    if (seen.has(x.toLowerCase())) continue;
    seen.add(x.toLowerCase());
    out.push(x);
  }
  return out.join(",");
}

function updateBulkLock(ctx: Ctx): unknown {
  const { mode, ...fields } = parse(bulkLock, ctx.body);
  const account = ctx.store.state.account;
  // Every mode saves the settings as the account default (docs/design.md, "§4.11: which zones").
  account.domainLockDefault = { ...account.domainLockDefault, ...withLists(fields) };
  const zones = mode === "save" ? [] : [...ctx.store.list("httpPushZones"), ...ctx.store.list("httpPullZones")];
  for (const zone of zones) {
    const lock: Obj = zone.domainlock ?? {};
    // append: set union into list/ips (idempotent); overwrite: replace them.
    zone.domainlock = {
      ...lock,
      ...withLists(fields, (key, v) => (mode === "append" ? union(lock[key], v) : normalizeList(v))),
    };
  }
  ctx.store.commit();
  const message =
    mode === "save"
      ? "Domain lock settings saved as the account default; existing zones unchanged"
      : `Domain lock settings saved and ${mode === "append" ? "appended to" : "written over"} ${zones.length} HTTP zones`;
  return { result: "success", message };
}

/** `fields` with list/ips rewritten by `f` (normalized, or a union for append). */
function withLists(
  fields: { list?: string; ips?: string },
  f = (_key: "list" | "ips", value: string) => normalizeList(value),
): Obj {
  const out: Obj = { ...fields };
  for (const key of ["list", "ips"] as const) if (fields[key] !== undefined) out[key] = f(key, fields[key]);
  return out;
}

export const routes: Route[] = [
  {
    method: "POST",
    path: "/v2/zones/vod/pull/{zoneid}/domainlock",
    handler: updateVodPullLock,
    write: "Domain lock settings updated",
  },
  {
    method: "POST",
    path: "/v2/zones/http/settings/security/domainlock",
    handler: updateBulkLock,
    write: "Domain lock settings saved",
  },
  {
    method: "GET",
    path: "/v2/zones/http/settings/security/domainlock",
    extension: true,
    handler: (ctx) => ({ result: "success", domainlock: ctx.store.state.account.domainLockDefault }),
  },
];
