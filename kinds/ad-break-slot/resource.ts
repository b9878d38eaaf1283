import * as pulumi from "@pulumi/pulumi";
import { registration } from "../resource";
import type { Declares } from "../common/declare";
import type { declaration } from "./declaration";
import { KINDS } from "../registry";

/** The kinds of ad-break slot (`type` of `POST /v2/zones/vod/push/{zoneid}/adinsertion/schedule`, the API's object states: immutable after creation). */
export type AdBreakSlotType = "preroll" | "midroll" | "postroll" | "midrollinterval";

/**
 * Arguments of an {@link AdBreakSlot}. Which fields a slot takes depends on its `type` (`POST /v2/zones/vod/push/{zoneid}/adinsertion/schedule`);
 * `check` rejects a missing or misplaced one before any request is sent.
 */
export interface AdBreakSlotArgs {
  /** The VoD push zone's id (`{zoneid}` of `POST /v2/zones/vod/push/{zoneid}/adinsertion/schedule`); ad insertion must be on for it. Changing it replaces the slot. */
  zoneId: pulumi.Input<number>;
  /**
   * `type` of `POST /v2/zones/vod/push/{zoneid}/adinsertion/schedule`: `preroll`, `postroll`, `midrollinterval` (one of each per zone) or `midroll` (one per
   * `offset`). midroll and midrollinterval slots are mutually exclusive on a zone. Changing it replaces the slot.
   */
  type: pulumi.Input<AdBreakSlotType>;
  /** `maxDurationS` of `POST /v2/zones/vod/push/{zoneid}/adinsertion/schedule`: the break's maximum length, 1 to 3600 seconds. */
  maxDurationS: pulumi.Input<number>;
  /**
   * `offset` of `POST /v2/zones/vod/push/{zoneid}/adinsertion/schedule`: seconds from the asset's start, min 0. Required for a midroll slot, forbidden for
   * the others. Part of the midroll's identity: changing it replaces the slot (the old one stays live).
   */
  offset?: pulumi.Input<number>;
  /**
   * `intervalS` of `POST /v2/zones/vod/push/{zoneid}/adinsertion/schedule`: seconds between recurring breaks, min 1. Required for a midrollinterval slot,
   * forbidden for the others; sent as both `intervalS` and `intervalSeconds`.
   */
  intervalS?: pulumi.Input<number>;
  /** `maxBreaks` of `POST /v2/zones/vod/push/{zoneid}/adinsertion/schedule`: midrollinterval only; min 0, and 0 (or omitted) means unlimited. */
  maxBreaks?: pulumi.Input<number>;
  /** `breakId` of `POST /v2/zones/vod/push/{zoneid}/adinsertion/schedule`: a correlation id, or for a midrollinterval the id prefix (the API's default is `mid`). */
  breakId?: pulumi.Input<string>;
  /** `maxAds` of `POST /v2/zones/vod/push/{zoneid}/adinsertion/schedule`: per-break pod-size cap, min 0. */
  maxAds?: pulumi.Input<number>;
  /** `fillCeilingS` of `POST /v2/zones/vod/push/{zoneid}/adinsertion/schedule`: per-break overshoot ceiling in seconds, min 0. */
  fillCeilingS?: pulumi.Input<number>;
  /**
   * Adopt the existing slot with this id (format `301/preroll` or `301/midroll/60`) instead of
   * scheduling it: `create` reads the zone's roster and fails, naming each difference, unless the
   * declared values equal the live ones, so adopting changes nothing. Use it where you would use the
   * `import` option, which dynamic resources of @pulumi/pulumi 3.246 cannot serve. Ignored after creation.
   */
  adoptId?: pulumi.Input<string>;
}

/** One slot of the roster (`vodAdBreakPolicy` of the ad-insertion configuration); which fields appear depends on the API. */
export interface AdBreakRosterEntry {
  /** The longest the break may run, in seconds. */
  maxDurationS?: number;
  /** The shortest ad the break takes, in seconds (preroll). */
  minAdLengthS?: number;
  /** Where a midroll break starts, in seconds from the asset's start. */
  offsetS?: number;
  /** Seconds between breaks of a midrollinterval slot. */
  intervalS?: number;
  /** How many breaks a midrollinterval slot makes; 0 or absent is unlimited. */
  maxBreaks?: number;
  /** The break's correlation id, or the id prefix of a midrollinterval slot's breaks. */
  breakId?: string;
  /** The most ads in one break. */
  maxAds?: number;
  /** How far, in seconds, a break may run over its maximum to fit its ads. */
  fillCeilingS?: number;
}

/**
 * Schedules one ad break on a VoD push zone's timeline: a preroll, a postroll, a midroll at an
 * offset, or midrolls at an interval, each with its length and pod size (custom plan).
 *
 * Sent through `POST /v2/zones/vod/push/{zoneid}/adinsertion/schedule`. A slot's identity is its
 * zone, type, and a midroll's offset: the id is `<zoneId>/<type>`, or `<zoneId>/midroll/<offset>`.
 * Two AdBreakSlot resources of one program claiming the same identity fail at preview, naming both.
 *
 * The spec does not say whether re-sending an identity replaces the slot (the operation "adds an
 * ad break slot"; there is no update or removal), so both kinds of API are handled:
 * - where it replaces (an upsert), a change is applied in place, as a whole: a setting removed from
 *   the program is cleared on the next update, and applying twice never adds a second slot;
 * - where it only adds (a second slot of an identity is refused), a change to an existing slot
 *   fails, changing nothing, with a message that says the slot exists, what it holds (where the API
 *   can show it) and the two ways on: keep the live value, or remove the slot in the dashboard and
 *   run `up` again. A create that finds its slot already there (say, after an interrupted run)
 *   succeeds where the roster shows the declared values, and otherwise says to import it.
 *
 * Refresh reads the zone's roster (`GET /v2/zones/vod/push/{id}/adinsertion`, a path the spec does
 * not list): it detects changed settings the roster echoes (`maxDurationS`, and `breakId`, `maxAds`,
 * `fillCeilingS`, `intervalS`, `maxBreaks` where present), and a slot gone from the roster drops out of
 * state so the next `up` schedules it again. Where the API has no such read, refresh keeps the last
 * applied state and says once that drift cannot be detected, and an import takes the declared
 * values on your word (with a warning). The API cannot remove a slot: destroying or replacing the
 * resource leaves the slot live on the zone, and says so.
 *
 * @typescriptOnly In TypeScript, a slot is taken over with `adoptId` (the id above) where other
 * languages run `pulumi import`.
 */
export class AdBreakSlot extends pulumi.CustomResource {
  /** The VoD push zone's id. */
  declare readonly zoneId: pulumi.Output<number>;
  /** The slot's type. */
  declare readonly type: pulumi.Output<AdBreakSlotType>;
  /** The break's maximum length in seconds. */
  declare readonly maxDurationS: pulumi.Output<number>;
  /** A midroll's offset in seconds. */
  declare readonly offset: pulumi.Output<number | undefined>;
  /** A midrollinterval's interval in seconds. */
  declare readonly intervalS: pulumi.Output<number | undefined>;
  /** A midrollinterval's break cap (0 = unlimited). */
  declare readonly maxBreaks: pulumi.Output<number | undefined>;
  /** The correlation id (or midrollinterval id prefix). */
  declare readonly breakId: pulumi.Output<string | undefined>;
  /** The per-break pod-size cap. */
  declare readonly maxAds: pulumi.Output<number | undefined>;
  /** The per-break overshoot ceiling in seconds. */
  declare readonly fillCeilingS: pulumi.Output<number | undefined>;
  /**
   * This slot's entry in the zone's roster (`vodAdBreakPolicy` of the ad-insertion configuration) as the API last returned it;
   * null when the roster does not show slots of this type. To show a zone's whole timeline,
   * combine the `live` outputs of its slots.
   */
  declare readonly live: pulumi.Output<AdBreakRosterEntry | null>;
  /** The zone's ad insertion state (`state` of the ad-insertion configuration, e.g. `enabled`). */
  declare readonly state: pulumi.Output<string | null>;
  /** The zone's ad insertion configuration name (`name` of the ad-insertion configuration). */
  declare readonly name: pulumi.Output<string | null>;

  constructor(name: string, args: AdBreakSlotArgs, opts?: pulumi.CustomResourceOptions) {
    const registered = registration(KINDS.AdBreakSlot, name, { ...args, ...claimed(name, args) }, opts);
    try {
      super(registered.type, name, registered.props, registered.options);
    } finally {
      registered.restoreStacks();
    }
  }
}

const _bound: Declares<typeof declaration, AdBreakSlotArgs, AdBreakSlot> = true;

/**
 * Slot identities claimed by the AdBreakSlot resources of each program run, keyed by the run's
 * stack resource (`pulumi.runtime.getStackResource()`, present in @pulumi/pulumi 3.246 and in
 * the newest releases): runs one after another in one process (Automation API inline programs)
 * each start with no claims, and a finished run's claims are dropped with its stack resource.
 * The check lives here because the dynamic provider's `check` sees one resource's inputs and
 * no name or URN, so it cannot know of a second resource.
 */
const claims = new WeakMap<object, Map<string, string>>();

/** Records `name`'s claim on its slot; when another resource has it, the message naming both. */
function claim(name: string, zoneId: unknown, type: unknown, offset: unknown): string | undefined {
  const run = pulumi.runtime.getStackResource();
  if (!run) return undefined; // not in a program run: no other resource to meet
  const slot = type === "midroll" ? `${zoneId}/midroll/${offset}` : `${zoneId}/${type}`;
  let claimed = claims.get(run);
  if (!claimed) claims.set(run, (claimed = new Map()));
  const first = claimed.get(slot);
  if (first === undefined) {
    claimed.set(slot, name);
    return undefined;
  }
  const rule = type === "midroll" ? `one midroll slot per offset` : `one ${type} slot`;
  return (
    `AdBreakSlot "${name}" and AdBreakSlot "${first}" both claim slot ${slot} (VoD push zone ${zoneId} has ${rule}): ` +
    "the two would overwrite each other, or on an API that only adds slots one of them would fail. Keep one resource for " +
    "the slot, or give the other another zone, type or offset."
  );
}

/** The input that carries a claim conflict to the provider's `check` (handler.ts, same key). */
const CLAIM_CONFLICT_KEY = "slotClaimConflict";

/**
 * Records `name`'s claim on its slot, and returns what to add to its inputs: a conflict travels
 * to the provider's `check`, which fails the resource at preview (and in an up) before anything
 * is sent, as one error of that resource. Plain values are compared at once; values only known
 * later when they resolve (while one is unknown at preview, nothing can be compared). Throwing
 * from the constructor instead would fail the program as an unhandled exception, with a stack
 * trace and the message twice; and an exception thrown inside an Output that feeds a resource's
 * inputs can leave the engine waiting on the registration instead of failing.
 */
function claimed(name: string, args: AdBreakSlotArgs): Record<string, pulumi.Input<string | undefined>> {
  const { zoneId, type, offset } = args;
  const plain = (value: unknown) => !pulumi.Output.isInstance(value) && !(value instanceof Promise);
  if (plain(zoneId) && plain(type) && plain(offset)) {
    const conflict = claim(name, zoneId, type, offset);
    return conflict ? { [CLAIM_CONFLICT_KEY]: conflict } : {};
  }
  return { [CLAIM_CONFLICT_KEY]: pulumi.all([zoneId, type, offset]).apply(([z, t, o]) => claim(name, z, t, o)) };
}
