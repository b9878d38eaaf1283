/** Ad insertion on VoD push zones: ad break schedule (§4.2), creatives (§4.18), the §2.8 configuration read. */
import { z } from "zod";
import { EmulatorError, invalid, notFound } from "../errors";
import { Ctx, lookup, requireAddOn, requireCustomPlan, Route } from "../route";
import { Obj } from "../store";
import { int, parse } from "../validate";

const slotBody = z
  .strictObject({
    _METHOD: z.literal("PUT"), // §4.2: always PUT (method override)
    type: z.enum(["preroll", "midroll", "postroll", "midrollinterval"]),
    maxDurationS: int(1, 3600),
    offset: int(0).optional(),
    intervalS: int(1).optional(),
    intervalSeconds: int(1).optional(),
    maxBreaks: int(0).optional(),
    breakId: z.string().min(1).max(128).optional(),
    maxAds: int(0).optional(),
    fillCeilingS: int(0).optional(),
  })
  .superRefine((b, ctx) => {
    const issue = (field: string, message: string) => ctx.addIssue({ code: "custom", path: [field], message });
    if (b.type === "midroll" && b.offset === undefined)
      issue("offset", "required for type midroll (seconds from asset start, min 0)");
    if (b.type !== "midroll" && b.offset !== undefined) issue("offset", "only allowed for type midroll");
    if (b.type === "midrollinterval") {
      for (const f of ["intervalS", "intervalSeconds"] as const) {
        if (b[f] === undefined)
          issue(f, "required for type midrollinterval (send intervalS and intervalSeconds with the same value)");
      }
      if (b.intervalS !== undefined && b.intervalSeconds !== undefined && b.intervalS !== b.intervalSeconds) {
        issue("intervalSeconds", `must equal intervalS (${b.intervalS}), of which it is an alias`);
      }
    } else {
      for (const f of ["intervalS", "intervalSeconds", "maxBreaks"] as const) {
        if (b[f] !== undefined) issue(f, "only allowed for type midrollinterval");
      }
    }
  });

type Slot = z.infer<typeof slotBody>;

/** Where the roster keeps each slot held once per zone; midroll slots are `midRolls`, by offset. */
const SLOT_KEY = { preroll: "preRoll", postroll: "postRoll", midrollinterval: "midRollInterval" } as const;

/** §2.8 as the schedule operation returns it. */
const present = (config: Obj): Obj => ({ statusCode: 200, ...config, result: "success" });

// Enabling ad insertion is not part of the API (§1); a zone without it has no roster.
const notEnabled = (zone: Obj) =>
  `ad insertion is not enabled on VoD push zone ${zone.id}; it must be enabled first (not part of this API)`;

/** Optional per-break settings, present only when sent (PUT replaces the slot). */
function extras(b: Slot): Obj {
  const sent = { breakId: b.breakId, maxAds: b.maxAds, fillCeilingS: b.fillCeilingS };
  return Object.fromEntries(Object.entries(sent).filter(([, v]) => v !== undefined));
}

function addSlot(ctx: Ctx): unknown {
  requireCustomPlan(ctx, "ad break schedule");
  const zone = lookup(ctx, "vodPushZones", ctx.params.zoneid, "VoD push zone");
  const b = parse(slotBody, ctx.body);
  const config = zone.adinsertion;
  if (!config) throw invalid("zoneid", notEnabled(zone));
  if (ctx.profile.slots === "add-only") refuseSecondSlot(zone, config.vodAdBreakPolicy ?? {}, b);
  const policy: Obj = (config.vodAdBreakPolicy ??= { adServer: { id: 0 }, spliceMode: "segment" });
  policy.midRolls ??= [];
  const exclusive = (other: string) =>
    invalid(
      "type",
      `${b.type} cannot be added: VoD push zone ${zone.id} has ${other} slot(s), and midroll and midrollinterval are mutually exclusive on a zone`,
    );
  // Upsert by slot identity (docs/design.md): one preroll, postroll, midrollinterval; midroll by offset.
  switch (b.type) {
    case "preroll":
    case "postroll": {
      const key = SLOT_KEY[b.type];
      policy[key] = { maxDurationS: b.maxDurationS, minAdLengthS: policy[key]?.minAdLengthS ?? 0, ...extras(b) };
      break;
    }
    case "midrollinterval":
      if (policy.midRolls.length) throw exclusive("midroll");
      // §4.2: maxBreaks 0 or omitted = unlimited; breakId defaults to `mid`.
      policy.midRollInterval = {
        intervalS: b.intervalS,
        maxDurationS: b.maxDurationS,
        maxBreaks: b.maxBreaks ?? 0,
        ...extras(b),
        breakId: b.breakId ?? "mid",
      };
      break;
    case "midroll": {
      if (policy.midRollInterval) throw exclusive("a midrollinterval");
      const slot = { offsetS: b.offset, maxDurationS: b.maxDurationS, ...extras(b) };
      policy.midRolls = [...policy.midRolls.filter((m: Obj) => m.offsetS !== b.offset), slot].sort(
        (x, y) => x.offsetS - y.offsetS,
      );
      break;
    }
  }
  config.updateDate = ctx.now.toISOString();
  ctx.store.commit();
  return present(config);
}

/**
 * Whether re-sending a slot identity replaces the slot is not shown (§4.2, §7): an add-only
 * server refuses it with 422 before any change, even when the values sent equal the stored ones.
 */
function refuseSecondSlot(zone: Obj, policy: Obj, b: Slot): void {
  const held =
    b.type === "midroll" ? (policy.midRolls ?? []).find((m: Obj) => m.offsetS === b.offset) : policy[SLOT_KEY[b.type]];
  if (!held) return;
  const rule =
    b.type === "midroll"
      ? `zone already has a midroll slot at offset ${b.offset} (midroll offsets are unique per zone)`
      : `zone already has a ${b.type} slot (at most one per zone)`;
  throw new EmulatorError(
    422,
    `${rule}: VoD push zone ${zone.id} keeps its slot; slots are only added, never updated or removed`,
  );
}

function showCreative(ctx: Ctx): unknown {
  requireCustomPlan(ctx, "show ad insertion creative");
  requireAddOn(ctx, "show ad insertion creative");
  lookup(ctx, "vodPushZones", ctx.params.zoneid, "VoD push zone");
  const creative = lookup(ctx, "creatives", ctx.params.crid, "creative", false);
  return { result: "success", ...creative };
}

export const routes: Route[] = [
  {
    method: "POST",
    path: "/v2/zones/vod/push/{zoneid}/adinsertion/schedule",
    handler: addSlot,
    write: "Ad break slot added",
  },
  { method: "GET", path: "/v2/zones/vod/push/{zoneid}/adinsertion/creatives/{crid}", handler: showCreative },
  {
    method: "GET",
    path: "/v2/zones/vod/push/{zoneid}/adinsertion",
    extension: true,
    handler: (ctx) => {
      requireCustomPlan(ctx, "ad insertion settings");
      const zone = lookup(ctx, "vodPushZones", ctx.params.zoneid, "VoD push zone");
      if (!zone.adinsertion) throw notFound(notEnabled(zone));
      return present(zone.adinsertion);
    },
  },
];
