/** AdBreakSlot (§4.2), declared once; identity: the zone, the type and a midroll's offset (docs/design.md, "§4.2"). */
import { z } from "zod";
import { positiveId } from "../common/rules";
import { declareKind, wholeNumber as int } from "../common/declare";

/** §4.2 `type`. */
export const SLOT_TYPES = ["preroll", "midroll", "postroll", "midrollinterval"] as const;
type SlotType = (typeof SLOT_TYPES)[number];

/** Per-type fields: which types take them (§4.2 Rules column). */
const ONLY_FOR: Record<string, { types: readonly SlotType[]; required: boolean; why: string }> = {
  offset: { types: ["midroll"], required: true, why: "seconds from asset start" },
  intervalS: { types: ["midrollinterval"], required: true, why: "seconds between recurring breaks" },
  maxBreaks: { types: ["midrollinterval"], required: false, why: "0 = unlimited" },
};

export const declaration = declareKind({
  name: "AdBreakSlot",
  folder: "ad-break-slot",
  spec: ["§4.2", "§2.8"],
  idFormat: "<zoneId>/<preroll|postroll|midrollinterval> or <zoneId>/midroll/<offset>",
  idExample: "301/midroll/60",
  inputs: {
    zoneId: { rule: positiveId("VoD push zone"), replaces: true },
    type: { rule: z.enum(SLOT_TYPES, { error: `must be one of ${SLOT_TYPES.join(", ")}` }), replaces: true },
    maxDurationS: { rule: int(1, "(seconds)").max(3600, "must be at most 3600 seconds") },
    // A midroll's offset is part of its identity: a new offset is a new slot.
    offset: { rule: int(0, "(seconds from asset start)").optional(), replaces: true },
    intervalS: { rule: int(1, "(seconds between breaks)").optional() },
    maxBreaks: { rule: int(0, "(0 = unlimited)").optional() },
    breakId: { rule: z.string().min(1, "must not be empty (omit it for the API's default)").optional() },
    maxAds: { rule: int(0, "(ads per break)").optional() },
    fillCeilingS: { rule: int(0, "(seconds)").optional() },
  },
  outputs: { live: {}, state: {}, name: {} },
  across: (args) =>
    args.superRefine((args, ctx) => {
      if (!SLOT_TYPES.includes(args.type)) return; // the type's own rule already failed, or it is unknown
      for (const [field, rule] of Object.entries(ONLY_FOR)) {
        const value = (args as Record<string, unknown>)[field];
        const applies = rule.types.includes(args.type);
        const message =
          applies && rule.required && value === undefined
            ? `is required for a ${args.type} slot (${rule.why})`
            : !applies && value !== undefined
              ? `is only allowed for a ${rule.types.join(" or ")} slot, not ${args.type}`
              : undefined;
        if (message) ctx.addIssue({ code: "custom", path: [field], message });
      }
    }),
});
