import * as pulumi from "@pulumi/pulumi";

/** The kinds of ad-break slot (§4.2 `type`, §3: immutable after creation). */
export type AdBreakSlotType = "preroll" | "midroll" | "postroll" | "midrollinterval";

/**
 * Arguments of an {@link AdBreakSlot}. Which fields a slot takes depends on its `type` (§4.2);
 * `check` rejects a missing or misplaced one before any request is sent.
 */
export interface AdBreakSlotArgs {
  /** The VoD push zone's id (§4.2 `{zoneid}`); ad insertion must be on for it. Changing it replaces the slot. */
  zoneId: pulumi.Input<number>;
  /**
   * §4.2 `type`: `preroll`, `postroll`, `midrollinterval` (one of each per zone) or `midroll` (one per
   * `offset`). midroll and midrollinterval slots are mutually exclusive on a zone. Changing it replaces the slot.
   */
  type: pulumi.Input<AdBreakSlotType>;
  /** §4.2 `maxDurationS`: the break's maximum length, 1 to 3600 seconds. */
  maxDurationS: pulumi.Input<number>;
  /**
   * §4.2 `offset`: seconds from the asset's start, min 0. Required for a midroll slot, forbidden for
   * the others. Part of the midroll's identity: changing it replaces the slot (the old one stays live).
   */
  offset?: pulumi.Input<number>;
  /**
   * §4.2 `intervalS`: seconds between recurring breaks, min 1. Required for a midrollinterval slot,
   * forbidden for the others; sent as both `intervalS` and `intervalSeconds`.
   */
  intervalS?: pulumi.Input<number>;
  /** §4.2 `maxBreaks`: midrollinterval only; min 0, and 0 (or omitted) means unlimited. */
  maxBreaks?: pulumi.Input<number>;
  /** §4.2 `breakId`: a correlation id, or for a midrollinterval the id prefix (the API's default is `mid`). */
  breakId?: pulumi.Input<string>;
  /** §4.2 `maxAds`: per-break pod-size cap, min 0. */
  maxAds?: pulumi.Input<number>;
  /** §4.2 `fillCeilingS`: per-break overshoot ceiling in seconds, min 0. */
  fillCeilingS?: pulumi.Input<number>;
  /**
   * Adopt the existing slot with this id (format `301/preroll` or `301/midroll/60`) instead of
   * scheduling it: `create` reads the zone's roster and fails, naming each difference, unless the
   * declared values equal the live ones, so adopting changes nothing. Use it where you would use the
   * `import` option, which dynamic resources of @pulumi/pulumi 3.246 cannot serve. Ignored after creation.
   */
  adoptId?: pulumi.Input<string>;
}

/** One slot of the roster (§2.8 `vodAdBreakPolicy`); which fields appear depends on the API. */
export interface AdBreakRosterEntry {
  maxDurationS?: number;
  minAdLengthS?: number;
  offsetS?: number;
  intervalS?: number;
  maxBreaks?: number;
  breakId?: string;
  maxAds?: number;
  fillCeilingS?: number;
}


/**
 * One slot on a VoD push zone's ad-break timeline (§4.2, custom plan).
 *
 * The schedule call is an upsert keyed by the slot's identity (zone, type, and a midroll's offset),
 * so applying twice never adds a second slot; it replaces the slot as a whole, so a setting removed
 * from the program is cleared on the next update. Id (and adopt id): `<zoneId>/<type>`, or
 * `<zoneId>/midroll/<offset>`. Refresh reads the zone's roster (`GET /v2/zones/vod/push/{id}/adinsertion`):
 * it detects changed settings the roster echoes (`maxDurationS`, and `breakId`, `maxAds`,
 * `fillCeilingS`, `intervalS`, `maxBreaks` where present), and a slot gone from the roster drops out of
 * state so the next `up` schedules it again. The API cannot remove a slot: destroying or replacing
 * the resource leaves the slot live on the zone, and says so.
 */
export class AdBreakSlot extends pulumi.dynamic.Resource {
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
   * This slot's entry in the zone's roster (§2.8 `vodAdBreakPolicy`) as the API last returned it;
   * null when the roster does not show slots of this type. To show a zone's whole timeline,
   * combine the `live` outputs of its slots.
   */
  declare readonly live: pulumi.Output<AdBreakRosterEntry | null>;
  /** The zone's ad insertion state (§2.8 `state`, e.g. `enabled`). */
  declare readonly state: pulumi.Output<string | null>;
  /** The zone's ad insertion configuration name (§2.8 `name`). */
  declare readonly name: pulumi.Output<string | null>;

  constructor(name: string, args: AdBreakSlotArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      require("../provider/shims/ad-break-slot"),
      name,
      {
        offset: undefined,
        intervalS: undefined,
        maxBreaks: undefined,
        breakId: undefined,
        maxAds: undefined,
        fillCeilingS: undefined,
        ...args,
        live: undefined,
        state: undefined,
        name: undefined,
      },
      opts,
      "cdnstream",
      "AdBreakSlot",
    );
  }
}
