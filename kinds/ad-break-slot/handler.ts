/**
 * AdBreakSlot (§4.2): what it does for users, on an upsert API and on an add-only one, is the
 * class's doc (resource.ts). Create and update both send the schedule call (a PUT); a read finds
 * the slot's entry in the roster (`vodAdBreakPolicy`); an add-only API's refusal is settled by
 * settleRefusal.
 */
import * as adInsertion from "../../client/resources/ad-insertion";
import { ValidationError } from "../../client/core/errors";
import type { HandlerContext } from "../common/context";
import { pickInputs, sameValue, UNKNOWN, type Inputs } from "../common/inputs";
import { settingsHandler, type LiveObject } from "../common/handlers/settings";
import type { KindHandler } from "../common/handlers/shared";
import type { ArgsOf } from "../common/declare";
import { declaration } from "./declaration";

const KIND = "AdBreakSlot";
type Args = ArgsOf<typeof declaration>;
type SlotType = Args["type"];

/**
 * Settings (the inputs that do not replace) the schedule PUT replaces as a whole: one left out of
 * an update is cleared.
 */
const SETTINGS = declaration.inputKeys.filter((key) => !declaration.rules.replaceOn.includes(key));

/** A §2.8 roster entry as the emulator stores it; the real API may echo fewer fields. */
type Entry = Record<string, unknown> | null | undefined;
interface Policy {
  preRoll?: Entry;
  postRoll?: Entry;
  midRollInterval?: Entry;
  midRolls?: Entry[];
}

/** The roster's entry of each slot type but midroll, of which a zone has one. */
const ENTRY_KEYS = { preroll: "preRoll", postroll: "postRoll", midrollinterval: "midRollInterval" } as const;

/** Every slot saved on the zone. */
const policyOf = (config: adInsertion.AdInsertionConfig) => (config.vodAdBreakPolicy ?? {}) as Policy;

/**
 * The slot's own entry as the API holds it, not the zone's whole roster: every slot recording
 * every other would grow the state with the square of the slots on a zone, and go stale as soon
 * as a sibling is written.
 */
function outputsOf(config: adInsertion.AdInsertionConfig, slot: Pick<Args, "type" | "offset">) {
  const entry = entryOf(policyOf(config), slot.type, slot.offset);
  return { live: entry ?? null, state: config.state ?? null, name: config.name ?? null };
}

/**
 * The slot's entry in the roster: null when it is not there, undefined when the roster does not
 * carry that slot type at all (§2.8 lists only preRoll and midRolls), so nothing can be told.
 */
function entryOf(policy: Policy, type: SlotType, offset: number | undefined): Entry {
  if (type !== "midroll") return policy[ENTRY_KEYS[type]];
  return policy.midRolls === undefined
    ? undefined
    : (policy.midRolls.find((m) => Number(m?.offsetS) === offset) ?? null);
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

/** A clear message for §4.2's midroll / midrollinterval exclusivity, from the zone's roster. */
function exclusivity(args: Args, config: adInsertion.AdInsertionConfig, err: ValidationError): Error | undefined {
  const policy = policyOf(config);
  const offsets = (policy.midRolls ?? []).map((m) => m?.offsetS);
  let other: string;
  if (args.type === "midroll" && policy.midRollInterval) other = "a midrollinterval slot";
  else if (args.type === "midrollinterval" && offsets.length)
    other =
      offsets.length === 1
        ? `a midroll slot at offset ${offsets[0]}`
        : `midroll slots at offsets ${offsets.join(", ")}`;
  else return undefined;
  return new Error(
    `${KIND} ${idOf(args)}: VoD push zone ${args.zoneId} already has ${other}, and midroll and midrollinterval slots ` +
      `are mutually exclusive on a zone. The API cannot remove a slot, so keep to the kind the zone has, or use ` +
      `another zone. (API: ${err.apiMessage ?? err.message})`,
  );
}

/** The zone's roster through the read extension, or why it cannot be had. */
async function readRoster(
  context: HandlerContext,
  zoneId: number,
): Promise<{ config: adInsertion.AdInsertionConfig } | { why: string }> {
  try {
    const config = await context.readLive(KIND, adInsertion.ops.getAdInsertion, () =>
      adInsertion.getAdInsertion(context.client(), zoneId),
    );
    return config ? { config } : { why: "the API has no read for a zone's slots" };
  } catch (err) {
    return { why: `reading the zone's slots failed: ${(err as Error).message}` };
  }
}

/** `maxDurationS: 30, maxAds: 3`: settings as a program declares them. */
const shown = (settings: Inputs) =>
  Object.entries(settings)
    .filter(([key, value]) => (SETTINGS as readonly string[]).includes(key) && value !== undefined)
    .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
    .join(", ") || "no settings";

/**
 * How the slot as it is compares with the declaration, setting by setting. A setting the roster
 * does not show (§2.8 shows only `maxDurationS` and a midroll's offset for certain) is compared
 * with what the stack last recorded, since the refused write changed nothing; on a create there
 * is no record, so it is `unknown`. A setting the program no longer declares but the stack had
 * written is still held: a difference. A default the API fills in for a setting never declared
 * (a midrollinterval's `breakId`) is none.
 */
function compareSlot(args: Args, live: Inputs, recorded: Inputs | undefined) {
  const differing: string[] = [];
  const unknown: string[] = [];
  for (const key of SETTINGS) {
    if (args[key] === undefined) {
      if (recorded?.[key] !== undefined) differing.push(key);
    } else if (live[key] !== undefined) {
      if (!sameValue(args[key], live[key])) differing.push(key);
    } else if (recorded) {
      if (!sameValue(args[key], recorded[key])) differing.push(key);
    } else unknown.push(key);
  }
  return { differing, unknown };
}

/**
 * The schedule refused the slot. On an add-only API (§4.2 "adds"; docs/design.md, "§4.2")
 * that is the answer for a slot whose identity is already on the zone. Where the roster can be
 * read, it settles what happened: a slot that already holds the declared values is success (an
 * interrupted run, or a change already made in the dashboard), one that holds others cannot be
 * changed, and one not there (or a zone holding the other of midroll and midrollinterval) was
 * refused for another reason. This reads after a write only because the write was refused, to say
 * what the slot holds; the read is tried once per run.
 */
async function settleRefusal(
  context: HandlerContext,
  args: Args,
  recorded: Inputs | undefined,
  err: ValidationError,
): Promise<Inputs> {
  const id = idOf(args);
  const apiSaid = err.apiMessage ?? err.message;
  const roster = await readRoster(context, args.zoneId);
  const entry = "config" in roster ? entryOf(policyOf(roster.config), args.type, args.offset) : undefined;
  // The zone holds the other of midroll and midrollinterval: that rule refused it, on any API.
  const conflict = "config" in roster ? exclusivity(args, roster.config, err) : undefined;
  if (conflict) throw conflict;
  if (entry === null) throw err; // not on the zone: refused for another reason, in the API's words
  const cannot =
    `${KIND} ${id}: the slot already exists on VoD push zone ${args.zoneId}, and the API has no operation that updates ` +
    `or removes a slot (the API only adds slots; it answered: "${apiSaid}").`;
  const remove = "remove the slot in the dashboard and run `pulumi up` again to add it with the declared values.";
  const takeOver = `If it does (say, an interrupted run added it), take it over: set adoptId: "${id}" and run \`pulumi up\` again.`;
  if ("config" in roster && entry) {
    const live = inputsOf(entry);
    const { differing, unknown } = compareSlot(args, live, recorded);
    if (!differing.length && !unknown.length) {
      context.inform(
        `${KIND} ${id}: already on the zone with the declared values (the API refused a second one); recorded as it is.`,
      );
      return outputsOf(roster.config, args);
    }
    const holds = `${cannot} It holds ${shown(live)} live (read from the zone's ad insertion settings)`;
    if (!differing.length) {
      throw new Error(
        `${holds}; they do not show ${unknown.join(", ")}, so whether it holds the declared ${shown(pickInputs(args, unknown))} ` +
          `cannot be checked. ${takeOver} Otherwise ${remove}`,
      );
    }
    const keep = `declare ${shown(live)}`;
    throw new Error(
      `${holds}, where the program declares ${shown(args)}. ` +
        (recorded
          ? `Either keep the live value (${keep}), or ${remove}`
          : `To take it over as it is, ${keep} with adoptId: "${id}"; or ${remove}`),
    );
  }
  // Nothing shows the roster: the API's own words say what it refused.
  const why = "why" in roster ? roster.why : "the zone's ad insertion settings do not show slots of this type";
  if (recorded) {
    if (/exclusive/i.test(apiSaid)) throw err;
    throw new Error(
      `${cannot} What it holds now cannot be shown (${why}); the stack last recorded ${shown(recorded)}, and the program ` +
        `declares ${shown(args)}. Either keep the value it holds (declare it again), or ${remove}`,
    );
  }
  if (!/already|exist|duplicate|at most one|unique/i.test(apiSaid)) throw err;
  throw new Error(
    `${cannot} Whether it holds the declared values cannot be checked (${why}). ${takeOver} Otherwise ${remove}`,
  );
}

/** The §4.2 body: only the fields the slot's type takes (the client's body schema is strict per type). */
function bodyOf(args: Args): adInsertion.AdBreakSlotBody {
  const { type, maxDurationS, breakId, maxAds, fillCeilingS } = args;
  const common = { maxDurationS, breakId, maxAds, fillCeilingS };
  return type === "midroll"
    ? { type, ...common, offset: args.offset as number }
    : type === "midrollinterval"
      ? { type, ...common, intervalS: args.intervalS, maxBreaks: args.maxBreaks }
      : { type, ...common };
}

const settingsOf = settingsHandler<Args>((context) => ({
  declaration,

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

  readPath: adInsertion.ops.getAdInsertion,

  async read({ zoneId, type, offset }): Promise<LiveObject | "gone"> {
    const config = await adInsertion.getAdInsertion(context.client(), zoneId as number);
    const entry = entryOf(policyOf(config), type as SlotType, offset as number | undefined);
    if (entry === null) return "gone";
    return {
      inputs: entry ? inputsOf(entry) : {},
      outputs: outputsOf(config, { type: type as SlotType, offset: offset as number | undefined }),
    };
  },

  async apply(args, recorded) {
    let config: adInsertion.AdInsertionConfig;
    try {
      config = await adInsertion.addAdBreakSlot(context.client(), args.zoneId, bodyOf(args));
    } catch (err) {
      if (err instanceof ValidationError && err.sent) return settleRefusal(context, args, recorded, err);
      throw err;
    }
    // §2.8 names no message or warnings, but a write's answer may carry them (§2.1).
    context.reportNotes(KIND, idOf(args), config);
    return outputsOf(config, args);
  },

  // Where nothing reads the roster, an add-only API leaves adoption as the only way to take over
  // a slot that is already there; nothing is known of it but the declaration.
  adoptUnread: () => ({ live: null, state: null, name: null }),

  released: (id, props) =>
    `AdBreakSlot ${id}: no longer managed by the stack (destroyed or replaced), but the slot stays live on VoD push zone ` +
    `${props.zoneId}'s ad-break timeline: the API has no operation that removes a slot.`,
}));

/**
 * The input by which the SDK class passes a slot-claim conflict (resource.ts, same key): two
 * resources of one program claiming one slot. The provider never sees a resource's name, so the
 * message comes from the program side; failing `check` makes it one error of the resource.
 */
const CLAIM_CONFLICT_KEY = "slotClaimConflict";

export const handler: KindHandler = (context) => {
  const settings = settingsOf(context);
  return {
    ...settings,
    async check(olds, news) {
      const { [CLAIM_CONFLICT_KEY]: conflict, ...inputs } = news;
      // Unknown at preview while the identity is: nothing to judge yet.
      if (typeof conflict === "string" && conflict !== UNKNOWN)
        return { inputs, failures: [{ property: "", reason: conflict }] };
      return settings.check(olds, inputs);
    },
    /**
     * The schedule PUT replaces the slot as a whole, so a setting removed from the program is a
     * change (the next PUT clears it), unlike settings kinds whose undeclared values stay as they are.
     */
    async diff(id, olds, news) {
      const diff = await settings.diff(id, olds, news);
      const removed = SETTINGS.some((key) => olds[key] !== undefined && news[key] === undefined);
      return removed ? { ...diff, changes: true } : diff;
    },
  };
};
