/**
 * AdBreakSlot (§4.2): one slot on a VoD push zone's ad-break timeline.
 * Identity: the zone, the slot type, and for a midroll its offset (DESIGN.md "Ad-break slots"):
 * ids `<zoneId>/preroll`, `<zoneId>/postroll`, `<zoneId>/midrollinterval`,
 * `<zoneId>/midroll/<offset>`. The schedule call is a PUT keyed by that identity, so create and
 * update both send it, and re-sending never adds a second slot.
 * Read: GET /v2/zones/vod/push/{id}/adinsertion (an extension); the slot is looked up in
 * `vodAdBreakPolicy` (preRoll, postRoll, midRollInterval, midRolls[] by offsetS). A slot no longer
 * there is gone: refresh drops it and the next `up` schedules it again.
 * Delete: there is no removal operation; the slot stays live, and the warning says so.
 */
import { z } from "zod";
import { adInsertion, ValidationError } from "../client";
import { apiClient } from "../context";
import type { Inputs } from "../inputs";
import { positiveId } from "../rules";
import { settingsHandler, type LiveObject } from "../settings-handler";
import type { Handler } from "../shim";

const TYPES = ["preroll", "midroll", "postroll", "midrollinterval"] as const;
type SlotType = (typeof TYPES)[number];

const int = (min: number, why: string) =>
  z
    .number({ error: (issue) => (issue.input === undefined ? `is required ${why}` : `must be a whole number ${why}`) }).int(`must be a whole number ${why}`).min(min, `must be at least ${min} ${why}`);

/** Per-type fields: which types take them (§4.2 Rules column). */
const ONLY_FOR: Record<string, { types: readonly SlotType[]; required: boolean; why: string }> = {
  offset: { types: ["midroll"], required: true, why: "seconds from asset start" },
  intervalS: { types: ["midrollinterval"], required: true, why: "seconds between recurring breaks" },
  maxBreaks: { types: ["midrollinterval"], required: false, why: "0 = unlimited" },
};

const Args = z
  .strictObject({
    zoneId: positiveId("VoD push zone"),
    type: z.enum(TYPES, { error: `must be one of ${TYPES.join(", ")} (§4.2)` }),
    maxDurationS: int(1, "(seconds, §4.2)").max(3600, "must be at most 3600 seconds (§4.2)"),
    offset: int(0, "(seconds from asset start, §4.2)").optional(),
    intervalS: int(1, "(seconds between breaks, §4.2)").optional(),
    maxBreaks: int(0, "(0 = unlimited, §4.2)").optional(),
    breakId: z.string().min(1, "must not be empty (omit it for the API's default)").optional(),
    maxAds: int(0, "(ads per break, §4.2)").optional(),
    fillCeilingS: int(0, "(seconds, §4.2)").optional(),
    adoptId: z.string().optional(),
  })
  .superRefine((args, ctx) => {
    if (!TYPES.includes(args.type)) return; // the type's own rule already failed, or it is unknown
    for (const [field, rule] of Object.entries(ONLY_FOR)) {
      const value = (args as Record<string, unknown>)[field];
      const applies = rule.types.includes(args.type);
      if (applies && rule.required && value === undefined) {
        ctx.addIssue({ code: "custom", path: [field], message: `is required for a ${args.type} slot (${rule.why}, §4.2)` });
      } else if (!applies && value !== undefined) {
        ctx.addIssue({ code: "custom", path: [field], message: `is only allowed for a ${rule.types.join(" or ")} slot, not ${args.type} (§4.2)` });
      }
    }
  });
type Args = z.infer<typeof Args>;

/** Settings the schedule PUT replaces as a whole: one left out of an update is cleared. */
const SETTINGS = ["maxDurationS", "intervalS", "maxBreaks", "breakId", "maxAds", "fillCeilingS"] as const;

/** A §2.8 roster entry as the emulator stores it; the real API may echo fewer fields. */
type Entry = Record<string, unknown> | null | undefined;
interface Policy {
  preRoll?: Entry;
  postRoll?: Entry;
  midRollInterval?: Entry;
  midRolls?: Entry[];
}

/** Every slot saved on the zone (for the exclusivity message). */
function rosterOf(config: adInsertion.AdInsertionConfig) {
  const policy = (config.vodAdBreakPolicy ?? {}) as Policy;
  return {
    preRoll: policy.preRoll ?? null,
    midRolls: policy.midRolls ?? [],
    postRoll: policy.postRoll ?? null,
    midRollInterval: policy.midRollInterval ?? null,
  };
}

/**
 * The slot's own entry as the API holds it, not the zone's whole roster: every slot recording
 * every other would grow the state with the square of the slots on a zone, and go stale as soon
 * as a sibling is written.
 */
function outputsOf(config: adInsertion.AdInsertionConfig, slot: Pick<Args, "type" | "offset">) {
  const entry = entryOf((config.vodAdBreakPolicy ?? {}) as Policy, slot.type, slot.offset);
  return { live: entry ?? null, state: config.state ?? null, name: config.name ?? null };
}

/**
 * The slot's entry in the roster: null when it is not there, undefined when the roster does not
 * carry that slot type at all (§2.8 lists only preRoll and midRolls), so nothing can be told.
 */
function entryOf(policy: Policy, type: SlotType, offset: number | undefined): Entry {
  switch (type) {
    case "preroll":
      return policy.preRoll;
    case "postroll":
      return policy.postRoll;
    case "midrollinterval":
      return policy.midRollInterval;
    case "midroll":
      return policy.midRolls === undefined ? undefined : (policy.midRolls.find((m) => Number(m?.offsetS) === offset) ?? null);
  }
}

/** The slot's settings the entry holds; a field the API does not echo is left out (no false diff). */
function inputsOf(entry: Record<string, unknown>): Inputs {
  const live: Inputs = {};
  for (const key of SETTINGS) if (entry[key] !== undefined && entry[key] !== null) live[key] = entry[key];
  if (live.intervalS === undefined && entry.intervalSeconds !== undefined) live.intervalS = entry.intervalSeconds;
  return live;
}

const idOf = (args: Pick<Args, "zoneId" | "type" | "offset">) =>
  args.type === "midroll" ? `${args.zoneId}/midroll/${args.offset}` : `${args.zoneId}/${args.type}`;

/** A clear message for §4.2's midroll / midrollinterval exclusivity, which the API enforces. */
async function explainRejection(args: Args, err: unknown): Promise<never> {
  if (err instanceof ValidationError && err.sent && (args.type === "midroll" || args.type === "midrollinterval")) {
    const roster = rosterOf(await adInsertion.getAdInsertion(apiClient(), args.zoneId).catch(() => ({}) as adInsertion.AdInsertionConfig));
    const offsets = roster.midRolls.map((m) => m?.offsetS);
    const midrolls = offsets.length === 1 ? `a midroll slot at offset ${offsets[0]}` : `midroll slots at offsets ${offsets.join(", ")}`;
    const other = args.type === "midroll" ? (roster.midRollInterval ? "a midrollinterval slot" : undefined) : offsets.length ? midrolls : undefined;
    if (other) {
      throw new Error(
        `AdBreakSlot ${idOf(args)}: VoD push zone ${args.zoneId} already has ${other}, and midroll and midrollinterval slots ` +
          `are mutually exclusive on a zone (§4.2). The API cannot remove a slot, so keep to the kind the zone has, or use ` +
          `another zone. (API: ${err.apiMessage ?? err.message})`,
      );
    }
  }
  throw err;
}

const settings = settingsHandler<Args>({
  kind: "AdBreakSlot",
  args: Args,
  inputKeys: ["zoneId", "type", "offset", ...SETTINGS],
  rules: { replaceOn: ["zoneId", "type", "offset"] },

  idOf,

  parseId(id) {
    const match = /^(\d+)\/(?:(preroll|postroll|midrollinterval)|midroll\/(\d+))$/.exec(id);
    if (!match) {
      throw new Error(
        `AdBreakSlot id "${id}" is not <zoneId>/<preroll|postroll|midrollinterval> or <zoneId>/midroll/<offset>, e.g. "301/preroll" or "301/midroll/60".`,
      );
    }
    const zoneId = Number(match[1]);
    return match[2] ? { zoneId, type: match[2] } : { zoneId, type: "midroll", offset: Number(match[3]) };
  },

  async read({ zoneId, type, offset }): Promise<LiveObject | "gone"> {
    const config = await adInsertion.getAdInsertion(apiClient(), zoneId as number);
    const entry = entryOf((config.vodAdBreakPolicy ?? {}) as Policy, type as SlotType, offset as number | undefined);
    if (entry === null) return "gone";
    return { inputs: entry ? inputsOf(entry) : {}, outputs: outputsOf(config, { type: type as SlotType, offset: offset as number | undefined }) };
  },

  async apply(args) {
    // Only the fields the slot's type takes (§4.2): the client's body schema is strict per type.
    const { type, maxDurationS, breakId, maxAds, fillCeilingS } = args;
    const common = { maxDurationS, breakId, maxAds, fillCeilingS };
    const body: adInsertion.AdBreakSlotBody =
      type === "midroll"
        ? { type, ...common, offset: args.offset as number }
        : type === "midrollinterval"
          ? { type, ...common, intervalS: args.intervalS, maxBreaks: args.maxBreaks }
          : { type, ...common };
    const config = await adInsertion.addAdBreakSlot(apiClient(), args.zoneId, body).catch((err) => explainRejection(args, err));
    return outputsOf(config, args);
  },

  released: (id, props) =>
    `AdBreakSlot ${id}: no longer managed by the stack (destroyed or replaced), but the slot stays live on VoD push zone ` +
    `${props.zoneId}'s ad-break timeline: the API has no operation that removes a slot (§4.2).`,
});

export const handler = {
  ...settings,
  /**
   * The schedule PUT replaces the slot as a whole, so a setting removed from the program is a
   * change (the next PUT clears it), unlike settings kinds whose undeclared values stay as they are.
   */
  async diff(id, olds, news) {
    const diff = await settings.diff(id, olds, news);
    const removed = SETTINGS.some((key) => olds[key] !== undefined && news[key] === undefined);
    return removed ? { ...diff, changes: true } : diff;
  },
} satisfies Handler;
