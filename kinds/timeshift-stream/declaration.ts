/**
 * TimeshiftStream (§4.19), declared once: a delayed copy of a push stream (or HTTP push zone)
 * that the provider creates. §4.19 is its only write besides §4.4 status, so `disabled` updates
 * in place and every other input replaces (a new stream).
 */
import { z } from "zod";
// The API's limits, stated once by the client (§4.19, §8).
import { RETENTION_MAX_DAYS as MAX_DAYS } from "../../client/resources/stream-limits";
import { sameValue, type Comparator, type Inputs } from "../common/inputs";
import { hostnames, ipsOrCidrs, positiveId, sameHosts, yn } from "../common/rules";
import { asSet, declareKind, wholeNumber, type InputDeclaration } from "../common/declare";

const flag = z.boolean({ error: "must be true or false" }).optional();
const ips = ipsOrCidrs.optional();
const MAX = Number.MAX_SAFE_INTEGER;
const int = (min: number, max: number, why: string) => wholeNumber(min, why).max(max, `must be at most ${max} ${why}`);
const asNumber: Comparator = (a, b) => Number(a) === Number(b);

/**
 * Group comparators: only the sub-fields the program declares count. Against the live stream a
 * sub-field the API does not send cannot differ (`live`); against recorded inputs one missing is
 * newly declared, so it is a change.
 */
const groupOf =
  (fields: Record<string, Comparator>, live: boolean): Comparator =>
  (declared, other) =>
    other !== undefined &&
    Object.entries((declared ?? {}) as Inputs).every(([key, value]) => {
      const was = (other as Inputs)[key];
      return value === undefined || (was === undefined ? live : (fields[key] ?? sameValue)(value, was));
    });

/** A §4.19 group: a new stream when it changes, compared on its declared sub-fields. */
const group = <Rule extends z.ZodType>(rule: Rule, fields: Record<string, Comparator>) =>
  ({
    rule,
    replaces: true as const,
    compare: groupOf(fields, false),
    compareLive: groupOf(fields, true),
  }) satisfies InputDeclaration;

export const declaration = declareKind({
  name: "TimeshiftStream",
  folder: "timeshift-stream",
  spec: ["§4.19", "§4.4", "§2.4", "§2.5", "§2.7"],
  idFormat: "<streamId>",
  idExample: "5001",
  adoptId: z.string().regex(/^\d+$/, 'must be an existing timeshift stream\'s numeric id, e.g. "5001"').optional(),
  inputs: {
    // §4.19 does not say which keys are required; the emulator (and so this provider) needs these three.
    name: {
      rule: z
        .string({ error: "is required (the stream's friendly name)" })
        .min(1, "must not be empty")
        .max(255, "must be at most 255 characters"),
      replaces: true,
    },
    parent: {
      rule: positiveId("parent push stream or HTTP push zone"),
      replaces: true,
      compare: (a, b) => String(a) === String(b),
    },
    timeshift: { rule: int(1, MAX, "(delay in seconds)"), replaces: true, compare: asNumber },
    codec: { rule: z.enum(["h264", "h265"], { error: 'must be "h264" or "h265"' }).optional(), replaces: true },
    protocols: {
      rule: z
        .array(z.enum(["HLS", "RTMP", "DASH", "RTSP"], { error: "must be HLS, RTMP, DASH or RTSP" }))
        .min(1, "must name at least one protocol")
        .optional(),
      replaces: true,
      compare: asSet,
    },
    // §4.4 changes it in place.
    disabled: { rule: z.boolean({ error: "must be true (disabled) or false (enabled)" }).optional() },
    domainLock: group(
      z
        .strictObject({
          enabled: flag,
          policy: yn.optional(),
          noreferer: yn.optional(),
          active: flag,
          domains: hostnames.optional(),
          ips,
        })
        .optional(),
      { domains: sameHosts, ips: asSet },
    ),
    geoBlock: group(
      z
        .strictObject({
          enabled: flag,
          policy: flag,
          active: flag,
          countries: z
            .array(z.string().regex(/^[A-Z]{2}$/, "must be an ISO 3166 alpha-2 code in capitals, such as DE"))
            .optional(),
          ips,
        })
        .optional(),
      { countries: asSet, ips: asSet },
    ),
    ipAccess: group(z.strictObject({ enabled: flag, policy: flag, active: flag, addresses: ips, ips }).optional(), {
      addresses: asSet,
      ips: asSet,
    }),
    ndvr: group(
      z
        .strictObject({
          enabled: flag,
          retentionDays: int(0, MAX_DAYS.ndvr, `days (ndvr[retention], maximum ${MAX_DAYS.ndvr})`).optional(),
        })
        .optional(),
      { retentionDays: asNumber },
    ),
    record: group(
      z
        .strictObject({
          enabled: flag,
          server: positiveId("recording server").optional(),
          retentionDays: int(0, MAX_DAYS.record, `days (record[retention], maximum ${MAX_DAYS.record})`).optional(),
        })
        .optional(),
      { server: asNumber, retentionDays: asNumber },
    ),
    // Holds the token key: encrypted in state (the resource class also wraps the key in a secret).
    secureToken: {
      ...group(
        z
          .strictObject({
            enabled: flag,
            keyIp: flag,
            active: flag,
            policy: z.enum(["dynamic", "fixed"], { error: 'must be "dynamic" (D) or "fixed" (F)' }).optional(),
            key: z.string().min(1, "must not be empty").optional(),
            ips,
            sessionSeconds: int(0, MAX, "(seconds, 0 = unlimited)").optional(),
            timeoutSeconds: int(1, MAX, "(token validity in seconds)").optional(),
          })
          .optional(),
        { ips: asSet, sessionSeconds: asNumber, timeoutSeconds: asNumber },
      ),
      secret: true,
    },
    userAgent: group(
      z
        .strictObject({
          enabled: flag,
          policy: flag,
          caseSensitive: flag,
          active: flag,
          patterns: z
            .array(
              z
                .string()
                .regex(/^[^,]+$/, "must be a non-empty pattern without commas (the API takes them comma-separated)"),
            )
            .optional(),
          ips,
        })
        .optional(),
      { patterns: asSet, ips: asSet },
    ),
  },
  outputs: {
    streamId: {},
    composedName: {},
    status: {},
    parentId: {},
    parentName: {},
    playbackUrls: {},
    // Credentials: a refresh drops one the API no longer sends.
    tokenizedPlaybackUrls: { secret: true },
    secureTokenKey: { secret: true },
    rtmpAuthPassword: { secret: true },
    // What the create's answer said beside its result (§4.19 `warnings` and `errors`).
    warnings: {},
  },
});
