/**
 * TimeshiftStream (§4.19): creates a delayed copy of a push stream (or HTTP push zone). Unlike
 * the settings kinds it makes a new object, and §4.19 is its only write besides §4.4 status:
 * `disabled` updates in place through §4.4; every other input replaces (a new stream).
 * Create is never retried once sent (docs/design.md, "Rate limits, retry safety"); a failure that may have reached the
 * API tells the user to look for the stream and adopt it (`adoptId`) instead of running blindly.
 * Read: GET /v2/streams/timeshift/{id} (an extension, tried once per run; where it is absent,
 * refresh keeps the state and adoption takes the declared values on the user's word). Delete: the
 * API has no delete; the stream is disabled (§4.4, the nearest safe inverse, docs/design.md) and the
 * warning says it still exists. `warnings` holds what the create's answer said beside its result
 * (§4.19 `warnings` and `errors`, and the stream's `messages.warning`).
 */
import { z } from "zod";
import { ApiError, ConfigError, ConnectionError, isConnectPhase, NotFoundError, streams, ValidationError } from "../../provider/client";
import { apiClient, configure, readLive, reportNotes, UNVERIFIED_ADOPTION, warn } from "../../provider/context";
import {
  ADOPT_KEY, checkInputs, diffInputs, inputsFromLive, pickInputs, PROVIDER_KEY, sameSet, sameValue,
  type Comparator, type DiffRules, type Inputs,
} from "../../provider/inputs";
import { hostnames, ipsOrCidrs, positiveId, sameHosts, splitList, toYN, yn } from "../../provider/rules";
import type { Handler } from "../../provider/shim";

const KIND = "TimeshiftStream";

// ---- inputs, in the SDK's shape (booleans, arrays); §4.19 keys appear only in bodyOf/liveInputs ----

const flag = z.boolean({ error: "must be true or false" }).optional();
const ips = ipsOrCidrs.optional();
const int = (min: number, max: number, why: string) =>
  z.number({ error: (issue) => (issue.input === undefined ? `is required ${why}` : `must be a whole number ${why}`) }).int(`must be a whole number ${why}`).min(min, `must be at least ${min} ${why}`).max(max, `must be at most ${max} ${why}`);
const MAX = Number.MAX_SAFE_INTEGER;

const Args = z.strictObject({
  // §4.19 does not say which keys are required; the emulator (and so this provider) needs these three.
  name: z.string({ error: "is required (the stream's friendly name, §4.19)" }).min(1, "must not be empty").max(255, "must be at most 255 characters"),
  parent: positiveId("parent push stream or HTTP push zone"),
  timeshift: int(1, MAX, "(delay in seconds, §4.19)"),
  codec: z.enum(["h264", "h265"], { error: 'must be "h264" or "h265" (§4.19)' }).optional(),
  protocols: z.array(z.enum(["HLS", "RTMP", "DASH", "RTSP"], { error: "must be HLS, RTMP, DASH or RTSP (§4.19)" })).min(1, "must name at least one protocol").optional(),
  disabled: z.boolean({ error: "must be true (disabled) or false (enabled), §4.4" }).optional(),
  domainLock: z.strictObject({ enabled: flag, policy: yn.optional(), noreferer: yn.optional(), active: flag, domains: hostnames.optional(), ips }).optional(),
  geoBlock: z.strictObject({ enabled: flag, policy: flag, active: flag, countries: z.array(z.string().regex(/^[A-Z]{2}$/, "must be an ISO 3166 alpha-2 code in capitals, such as DE")).optional(), ips }).optional(),
  ipAccess: z.strictObject({ enabled: flag, policy: flag, active: flag, addresses: ips, ips }).optional(),
  ndvr: z.strictObject({ enabled: flag, retentionDays: int(0, 180, "days (§4.19 ndvr[retention], maximum 180)").optional() }).optional(),
  record: z.strictObject({ enabled: flag, server: positiveId("recording server").optional(), retentionDays: int(0, 90, "days (§4.19 record[retention], maximum 90)").optional() }).optional(),
  secureToken: z
    .strictObject({
      enabled: flag, keyIp: flag, active: flag,
      policy: z.enum(["dynamic", "fixed"], { error: 'must be "dynamic" (D) or "fixed" (F), §2.4' }).optional(),
      key: z.string().min(1, "must not be empty").optional(),
      ips,
      sessionSeconds: int(0, MAX, "(seconds, 0 = unlimited)").optional(),
      timeoutSeconds: int(1, MAX, "(token validity in seconds)").optional(),
    })
    .optional(),
  userAgent: z
    .strictObject({ enabled: flag, policy: flag, caseSensitive: flag, active: flag, patterns: z.array(z.string().regex(/^[^,]+$/, "must be a non-empty pattern without commas (§4.19 sends them comma-separated)")).optional(), ips })
    .optional(),
  adoptId: z.string().regex(/^\d+$/, 'must be an existing timeshift stream\'s numeric id, e.g. "5001"').optional(),
});
type Args = z.infer<typeof Args>;

const INPUT_KEYS = ["name", "parent", "timeshift", "codec", "protocols", "disabled", "domainLock", "geoBlock", "ipAccess", "ndvr", "record", "secureToken", "userAgent"] as const;

const YN = (value: boolean | undefined) => (value === undefined ? undefined : toYN(value));
const csv = (list: string[] | undefined) => list?.join(",");

/** The §4.19 body (the client flattens groups to `group[key]`). */
function bodyOf(a: Args): streams.CreateTimeshiftBody {
  const { domainLock: dl, geoBlock: gb, ipAccess: ia, ndvr, record, secureToken: st, userAgent: ua } = a;
  return {
    name: a.name, codec: a.codec, protocols: a.protocols, timeshift: a.timeshift, parent: a.parent,
    domainlock: dl && { enabled: YN(dl.enabled), policy: dl.policy, noreferer: dl.noreferer, active: YN(dl.active), list: csv(dl.domains), ips: csv(dl.ips) },
    geoblock: gb && { enabled: YN(gb.enabled), policy: YN(gb.policy), active: YN(gb.active), list: gb.countries, ips: csv(gb.ips) },
    ipaccess: ia && { enabled: YN(ia.enabled), policy: YN(ia.policy), active: YN(ia.active), list: csv(ia.addresses), ips: csv(ia.ips) },
    ndvr: ndvr && { enabled: YN(ndvr.enabled), retention: ndvr.retentionDays },
    record: record && { enabled: YN(record.enabled), server: record.server, retention: record.retentionDays },
    securetoken: st && {
      enabled: YN(st.enabled), keyip: YN(st.keyIp), active: YN(st.active),
      policy: st.policy === undefined ? undefined : st.policy === "dynamic" ? "D" : "F",
      list: st.key, ips: csv(st.ips), session: st.sessionSeconds === undefined ? undefined : String(st.sessionSeconds), timeout: st.timeoutSeconds,
    },
    useragent: ua && { enabled: YN(ua.enabled), policy: YN(ua.policy), casesensitive: YN(ua.caseSensitive), active: YN(ua.active), list: csv(ua.patterns), ips: csv(ua.ips) },
  };
}

// ---- the live stream, back in the SDK's shape; a field the API does not send stays undefined ----

const bool = (v: unknown) => (v === "Y" ? true : v === "N" ? false : undefined);
const list = (v: unknown) => (typeof v === "string" ? splitList(v) : undefined);
const num = (v: unknown) => (v === undefined || v === null || v === "" || Number.isNaN(Number(v)) ? undefined : Number(v));
const defined = (o: Inputs): Inputs => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
type Group = Record<string, unknown> | undefined;

function liveInputs(s: streams.Stream): Inputs {
  const dl = s.domainlock, gb = s.geoblock, ia = s.ipaccess, st = s.securetoken, ua = s.useragent;
  const fromGroup = (g: Group, fields: Inputs) => (g ? defined(fields) : undefined);
  return defined({
    name: s.parts?.sn, // `name` is composed `<prefix>-<name>`; `parts.sn` is the name as sent
    parent: num(s.parentid ?? s.parent?.id),
    timeshift: num(s.timeshift?.shift),
    codec: s.codec,
    protocols: s.protocols ? s.protocols.flatMap((row) => row ?? []) : undefined,
    disabled: s.disabled === undefined ? undefined : s.disabled === "1",
    domainLock: fromGroup(dl, { enabled: bool(dl?.enabled), policy: dl?.policy, noreferer: dl?.noreferer, active: bool(dl?.active), domains: list(dl?.list), ips: list(dl?.ips) }),
    geoBlock: fromGroup(gb, { enabled: bool(gb?.enabled), policy: bool(gb?.policy), active: bool(gb?.active), countries: gb?.list, ips: list(gb?.ips) }),
    ipAccess: fromGroup(ia, { enabled: bool(ia?.enabled), policy: bool(ia?.policy), active: bool(ia?.active), addresses: list(ia?.list), ips: list(ia?.ips) }),
    ndvr: fromGroup(s.ndvr, { enabled: bool(s.ndvr?.enabled), retentionDays: num(s.ndvr?.retention) }),
    record: fromGroup(s.record, { enabled: bool(s.record?.enabled), server: num((s.record as Group)?.server), retentionDays: num(s.record?.retention) }),
    secureToken: fromGroup(st, {
      enabled: bool(st?.enabled), keyIp: bool(st?.keyip), active: bool(st?.active),
      policy: st?.policy === "D" ? "dynamic" : st?.policy === "F" ? "fixed" : undefined,
      key: st?.list, ips: list(st?.ips), sessionSeconds: num(st?.session), timeoutSeconds: num(st?.timeout),
    }),
    userAgent: fromGroup(ua, {
      enabled: bool(ua?.enabled), policy: bool(ua?.policy), caseSensitive: bool(ua?.casesensitive), active: bool(ua?.active),
      patterns: ua?.listArr ?? (typeof ua?.list === "string" ? ua.list.split(";;;").filter(Boolean) : undefined), ips: list(ua?.ips),
    }),
  });
}

const asSet: Comparator = (a, b) => sameSet(a as unknown[], b as unknown[]);
const asNumber: Comparator = (a, b) => Number(a) === Number(b);

/**
 * Group comparators: only the sub-fields the program declares count. Against the live stream a
 * sub-field the API does not send cannot differ (`live`); against recorded inputs one missing is
 * newly declared, so it is a change.
 */
const group = (fields: Record<string, Comparator>, live: boolean): Comparator => (declared, other) =>
  other !== undefined &&
  Object.entries((declared ?? {}) as Inputs).every(([key, value]) => {
    const was = (other as Inputs)[key];
    return value === undefined || (was === undefined ? live : (fields[key] ?? sameValue)(value, was));
  });

const comparators = (live: boolean): Record<string, Comparator> => ({
  parent: (a, b) => String(a) === String(b),
  timeshift: asNumber,
  protocols: asSet,
  domainLock: group({ domains: sameHosts, ips: asSet }, live),
  geoBlock: group({ countries: asSet, ips: asSet }, live),
  ipAccess: group({ addresses: asSet, ips: asSet }, live),
  ndvr: group({ retentionDays: asNumber }, live),
  record: group({ server: asNumber, retentionDays: asNumber }, live),
  secureToken: group({ ips: asSet, sessionSeconds: asNumber, timeoutSeconds: asNumber }, live),
  userAgent: group({ patterns: asSet, ips: asSet }, live),
});

/** A secure token group with its key replaced by `mark`: credentials never reach a message or an input. */
const withKey = (token: unknown, mark: string): unknown =>
  token && typeof token === "object" && (token as Inputs).key !== undefined ? { ...(token as Inputs), key: mark } : token;

const rules: DiffRules = {
  // §4.19 is the only way to set these, so any change makes a new stream; §4.4 changes `disabled`.
  replaceOn: INPUT_KEYS.filter((key) => key !== "disabled"),
  compare: comparators(false),
};
/** Comparing with the live stream (refresh, adoption). */
const liveRules = { compare: comparators(true) };

/** What the stream is, where it plays, and its credentials (the SDK marks those secret). */
function outputsOf(stream: streams.Stream) {
  const urls = stream.playbackurls;
  // §2.7: the tokenized form has "the same fields" as the plain one (rtmp and rtsp included).
  const tokenized = urls?.tokenized as Record<string, unknown> | null | undefined;
  const text = (value: unknown) => (typeof value === "string" ? value : null);
  return {
    streamId: String(stream.id),
    composedName: stream.name ?? null,
    status: stream.status ?? null,
    parentId: stream.parentid ?? stream.parent?.id ?? null,
    parentName: stream.parent?.name ?? null,
    playbackUrls: {
      hls: urls?.hls ?? null, dash: urls?.dash ?? null, hlsManifest: urls?.hlsManifest ?? null, dashManifest: urls?.dashManifest ?? null,
      rtmp: urls?.rtmp ?? null, rtsp: urls?.rtsp ?? null,
    },
    // Secret outputs: absent (not null) when the API sends none, because the engine stores
    // every secret output, null included, as its own ciphertext in every checkpoint.
    ...defined({
      tokenizedPlaybackUrls: tokenized
        ? { hls: text(tokenized.hls), dash: text(tokenized.dash), rtmp: text(tokenized.rtmp), rtsp: text(tokenized.rtsp) }
        : undefined,
      secureTokenKey: stream.securetoken?.list || undefined,
      rtmpAuthPassword: stream.rtmpauth?.password || undefined,
    }),
  };
}
const CREDENTIAL_OUTPUTS = ["tokenizedPlaybackUrls", "secureTokenKey", "rtmpAuthPassword"];

/** Outputs always hold the declared inputs, so `diff` can compare against them. */
const outsOf = (args: Inputs, stream: streams.Stream, warnings: string[]) => ({
  ...pickInputs(args, [...INPUT_KEYS, ADOPT_KEY]),
  ...outputsOf(stream),
  warnings,
});

/** True when the error proves the API created nothing: refused before sending, or a 4xx refusal (a 429 included). */
function createdNothing(err: unknown): boolean {
  if (err instanceof ConfigError) return true;
  if (err instanceof ValidationError && !err.sent) return true;
  if (err instanceof ConnectionError) return isConnectPhase(err.code);
  const status = err instanceof ApiError ? err.status : undefined;
  return status !== undefined && status >= 400 && status < 500 && status !== 408;
}

async function createStream(args: Args) {
  try {
    return await streams.createTimeshiftStream(apiClient(), bodyOf(args));
  } catch (err) {
    if (createdNothing(err)) throw err;
    throw new Error(
      `${KIND} "${args.name}": the create request (§4.19) failed after it may have reached the API, and it is never retried ` +
        `automatically because a retry could make a second stream. Before running again, look in the account for a timeshift ` +
        `stream named "<prefix>-${args.name}" with parent ${args.parent}: if it exists, set adoptId: "<its id>" on this resource ` +
        `to take it over; if it does not, run \`pulumi up\` again. Cause: ${(err as Error).message}`,
    );
  }
}

/** The `create` of an adopting resource: read, compare every readable declared field, write nothing. */
async function adopt(args: Args, id: string) {
  const found = await readLive(KIND, streams.ops.getTimeshiftStream, () => streams.getStream(apiClient(), "timeshift", id));
  if (found === undefined) {
    // Adoption is how a create that may have reached the API is recovered: where nothing can
    // read the stream, the user's word (adoptId, the declared values) is all there is.
    warn(`${KIND} ${id}: ${UNVERIFIED_ADOPTION}`);
    return { id, outs: { ...pickInputs(args, [...INPUT_KEYS, ADOPT_KEY]), streamId: id, warnings: [] } };
  }
  const { stream } = found;
  const live = liveInputs(stream);
  const differing = INPUT_KEYS.filter(
    (key) => args[key] !== undefined && live[key] !== undefined && !(liveRules.compare[key] ?? sameValue)(args[key], live[key]),
  );
  if (differing.length) {
    const shown = (value: unknown) => JSON.stringify(withKey(value, "[secret]"));
    const detail = differing.map((key) => `${key} is ${shown(live[key])} live but declared ${shown(args[key])}`).join("; ");
    throw new Error(
      `${KIND} adoptId "${id}": adopting requires the declared inputs to match the live stream: ${detail}. ` +
        "Declare the live values to adopt it; a later change to any of them (except disabled) makes a new stream.",
    );
  }
  return { id, outs: outsOf(args, stream, []) };
}

/** The stream exists but a later step failed: the engine records it (by id) and retries the update. */
class InitError extends Error {
  constructor(
    message: string,
    readonly id: string,
    readonly properties: Inputs,
    readonly reasons = [message],
  ) {
    super(message);
  }
}

export const handler = {
  configure,

  async check(_olds, news) {
    return checkInputs(Args, news);
  },

  async diff(_id, olds, news) {
    return diffInputs(olds, news, rules);
  },

  async create(inputs) {
    const args = inputs as Args;
    if (typeof args.adoptId === "string") return adopt(args, args.adoptId);
    const created = await createStream(args);
    const id = String(created.stream.id);
    // §4.19 answers with `warnings` and `errors` (null when none), and the stream may carry its own.
    const warnings = reportNotes(KIND, id, { ...created, warnings: [...(created.warnings ?? []), ...(created.stream.messages?.warning ?? [])] });
    if (!args.disabled) return { id, outs: outsOf(args, created.stream, warnings) };
    try {
      const answer = await streams.setStreamStatus(apiClient(), "timeshift", id, { disabled: 1 });
      reportNotes(KIND, id, answer);
      return { id, outs: outsOf(args, answer.stream, warnings) };
    } catch (err) {
      const message = `${KIND} ${id}: created, but disabling it (§4.4) failed: ${(err as Error).message} It is recorded in the stack; run \`pulumi up\` again to disable it.`;
      throw new InitError(message, id, { ...outsOf(args, created.stream, warnings), [PROVIDER_KEY]: inputs[PROVIDER_KEY] });
    }
  },

  async read(id, props) {
    const found = await readLive(KIND, streams.ops.getTimeshiftStream, () => streams.getStream(apiClient(), "timeshift", id));
    if (found === undefined) return { id, props };
    if (found.stream.deleted) return { id: "" }; // deleted outside the stack: the next `up` creates it again
    const declared = pickInputs(props, [...INPUT_KEYS, ADOPT_KEY]);
    const inputs = inputsFromLive(declared, liveInputs(found.stream), liveRules);
    // Never record a live credential as an input: a key changed outside the stack shows as a marker.
    const token = inputs.secureToken as Inputs | undefined;
    if (token?.key !== undefined && token.key !== (declared.secureToken as Inputs | undefined)?.key) {
      inputs.secureToken = withKey(token, "(changed outside the stack)");
    }
    // A credential the API no longer sends must not linger from the last state.
    const kept = Object.fromEntries(Object.entries(props).filter(([key]) => !CREDENTIAL_OUTPUTS.includes(key)));
    return { id, props: { ...kept, ...inputs, ...outputsOf(found.stream) }, inputs };
  },

  async update(id, olds, news) {
    const args = news as Args;
    // Only `disabled` updates in place (every other input replaces): with none declared there
    // is nothing to send, and nothing is read back.
    if (args.disabled === undefined) return { outs: { ...olds, ...pickInputs(args, [...INPUT_KEYS, ADOPT_KEY]) } };
    const answer = await streams.setStreamStatus(apiClient(), "timeshift", id, { disabled: args.disabled ? 1 : 0 });
    reportNotes(KIND, id, answer);
    return { outs: outsOf(args, answer.stream, (olds.warnings as string[] | undefined) ?? []) };
  },

  async delete(id, props) {
    const what = `${KIND} ${id}${props.composedName ? ` (${props.composedName})` : ""}`;
    try {
      reportNotes(KIND, id, await streams.setStreamStatus(apiClient(), "timeshift", id, { disabled: 1 }));
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      warn(`${what}: not found in the account, so there is nothing to disable; released from the stack.`);
      return;
    }
    warn(
      `${what}: disabled, not deleted: the API has no delete for streams (§4.19 only creates), so it stays in the account, ` +
        "disabled (§4.4). Delete it in the dashboard if it is no longer needed.",
    );
  },
} satisfies Handler;
