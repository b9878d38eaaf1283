/**
 * TimeshiftStream (§4.19): creates a delayed copy of a push stream, the one kind that makes its
 * object (kinds/common/handlers/object.ts); what it does for users is the class's doc (resource.ts).
 * Create is never retried once sent (docs/design.md, "Rate limits, retry safety"). Delete
 * disables the stream (§4.4), the nearest safe inverse of a create the API cannot undo.
 */
import {
  ApiError,
  ConfigError,
  ConnectionError,
  isConnectPhase,
  NotFoundError,
  ValidationError,
} from "../../client/core/errors";
import * as streams from "../../client/resources/streams";
import type { HandlerContext } from "../common/context";
import { objectHandler } from "../common/handlers/object";
import { outsOf, ResourceInitError } from "../common/handlers/shared";
import { PROVIDER_KEY, type Inputs } from "../common/inputs";
import { splitList, toYN } from "../common/rules";
import type { ArgsOf } from "../common/declare";
import { declaration } from "./declaration";

const KIND = declaration.name;

type Args = ArgsOf<typeof declaration>;

// ---- inputs, in the SDK's shape (booleans, arrays); §4.19 keys appear only in bodyOf/liveInputs ----

const YN = (value: boolean | undefined) => (value === undefined ? undefined : toYN(value));
const csv = (list: string[] | undefined) => list?.join(",");
/** What every §2.4 access-control group sends: its flags and the IPs it exempts. */
const groupBody = (group: { enabled?: boolean; active?: boolean; ips?: string[] }) => ({
  enabled: YN(group.enabled),
  active: YN(group.active),
  ips: csv(group.ips),
});

/** The §4.19 body (the client flattens groups to `group[key]`). */
function bodyOf(a: Args): streams.CreateTimeshiftBody {
  const { domainLock: dl, geoBlock: gb, ipAccess: ia, ndvr, record, secureToken: st, userAgent: ua } = a;
  return {
    name: a.name,
    codec: a.codec,
    protocols: a.protocols,
    timeshift: a.timeshift,
    parent: a.parent,
    domainlock: dl && { ...groupBody(dl), policy: dl.policy, noreferer: dl.noreferer, list: csv(dl.domains) },
    geoblock: gb && { ...groupBody(gb), policy: YN(gb.policy), list: gb.countries },
    ipaccess: ia && { ...groupBody(ia), policy: YN(ia.policy), list: csv(ia.addresses) },
    ndvr: ndvr && { enabled: YN(ndvr.enabled), retention: ndvr.retentionDays },
    record: record && { enabled: YN(record.enabled), server: record.server, retention: record.retentionDays },
    securetoken: st && {
      ...groupBody(st),
      keyip: YN(st.keyIp),
      policy: st.policy === undefined ? undefined : st.policy === "dynamic" ? "D" : "F",
      list: st.key,
      session: st.sessionSeconds === undefined ? undefined : String(st.sessionSeconds),
      timeout: st.timeoutSeconds,
    },
    useragent: ua && {
      ...groupBody(ua),
      policy: YN(ua.policy),
      casesensitive: YN(ua.caseSensitive),
      list: csv(ua.patterns),
    },
  };
}

// ---- the live stream, back in the SDK's shape; a field the API does not send stays undefined ----

const bool = (v: unknown) => (v === "Y" ? true : v === "N" ? false : undefined);
const list = (v: unknown) => (typeof v === "string" ? splitList(v) : undefined);
const num = (v: unknown) =>
  v === undefined || v === null || v === "" || Number.isNaN(Number(v)) ? undefined : Number(v);
const defined = (o: Inputs): Inputs => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
type Group = Record<string, unknown> | undefined;
/** What every live §2.4 access-control group holds: its flags and the IPs it exempts. */
const groupInputs = (group: Group) => ({
  enabled: bool(group?.enabled),
  active: bool(group?.active),
  ips: list(group?.ips),
});

function liveInputs(s: streams.Stream): Inputs {
  const { domainlock: dl, geoblock: gb, ipaccess: ia, securetoken: st, useragent: ua } = s;
  const fromGroup = (g: Group, fields: Inputs) => (g ? defined(fields) : undefined);
  return defined({
    name: s.parts?.sn, // `name` is composed `<prefix>-<name>`; `parts.sn` is the name as sent
    parent: num(s.parentid ?? s.parent?.id),
    timeshift: num(s.timeshift?.shift),
    codec: s.codec,
    protocols: s.protocols ? s.protocols.flatMap((row) => row ?? []) : undefined,
    disabled: s.disabled === undefined ? undefined : s.disabled === "1",
    domainLock: fromGroup(dl, {
      ...groupInputs(dl),
      policy: dl?.policy,
      noreferer: dl?.noreferer,
      domains: list(dl?.list),
    }),
    geoBlock: fromGroup(gb, { ...groupInputs(gb), policy: bool(gb?.policy), countries: gb?.list }),
    ipAccess: fromGroup(ia, { ...groupInputs(ia), policy: bool(ia?.policy), addresses: list(ia?.list) }),
    ndvr: fromGroup(s.ndvr, { enabled: bool(s.ndvr?.enabled), retentionDays: num(s.ndvr?.retention) }),
    record: fromGroup(s.record, {
      enabled: bool(s.record?.enabled),
      server: num((s.record as Group)?.server),
      retentionDays: num(s.record?.retention),
    }),
    secureToken: fromGroup(st, {
      ...groupInputs(st),
      keyIp: bool(st?.keyip),
      policy: st?.policy === "D" ? "dynamic" : st?.policy === "F" ? "fixed" : undefined,
      key: st?.list,
      sessionSeconds: num(st?.session),
      timeoutSeconds: num(st?.timeout),
    }),
    userAgent: fromGroup(ua, {
      ...groupInputs(ua),
      policy: bool(ua?.policy),
      caseSensitive: bool(ua?.casesensitive),
      patterns: ua?.listArr ?? (typeof ua?.list === "string" ? ua.list.split(";;;").filter(Boolean) : undefined),
    }),
  });
}

/** A secure token group with its key replaced by `mark`: credentials never reach a message or an input. */
const withKey = (token: unknown, mark: string): unknown =>
  token && typeof token === "object" && (token as Inputs).key !== undefined
    ? { ...(token as Inputs), key: mark }
    : token;

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
      hls: urls?.hls ?? null,
      dash: urls?.dash ?? null,
      hlsManifest: urls?.hlsManifest ?? null,
      dashManifest: urls?.dashManifest ?? null,
      rtmp: urls?.rtmp ?? null,
      rtsp: urls?.rtsp ?? null,
    },
    // Secret outputs: absent (not null) when the API sends none, because the engine stores
    // every secret output, null included, as its own ciphertext in every checkpoint.
    ...defined({
      tokenizedPlaybackUrls: tokenized
        ? {
            hls: text(tokenized.hls),
            dash: text(tokenized.dash),
            rtmp: text(tokenized.rtmp),
            rtsp: text(tokenized.rtsp),
          }
        : undefined,
      secureTokenKey: stream.securetoken?.list || undefined,
      rtmpAuthPassword: stream.rtmpauth?.password || undefined,
    }),
  };
}

const outs = (args: Args, stream: streams.Stream, warnings: string[]) =>
  outsOf(declaration, args, { ...outputsOf(stream), warnings });

/** True when the error proves the API created nothing: refused before sending, or a 4xx refusal (a 429 included). */
function createdNothing(err: unknown): boolean {
  if (err instanceof ConfigError) return true;
  if (err instanceof ValidationError && !err.sent) return true;
  if (err instanceof ConnectionError) return isConnectPhase(err.code);
  const status = err instanceof ApiError ? err.status : undefined;
  return status !== undefined && status >= 400 && status < 500 && status !== 408;
}

async function createStream(context: HandlerContext, args: Args) {
  try {
    return await streams.createTimeshiftStream(context.client(), bodyOf(args));
  } catch (err) {
    if (createdNothing(err)) throw err;
    throw new Error(
      `${KIND} "${args.name}": the create request failed after it may have reached the API, and it is never retried ` +
        `automatically because a retry could make a second stream. Before running again, look in the account for a timeshift ` +
        `stream named "<prefix>-${args.name}" with parent ${args.parent}: if it exists, set adoptId: "<its id>" on this resource ` +
        `to take it over; if it does not, run \`pulumi up\` again. Cause: ${(err as Error).message}`,
    );
  }
}

export const handler = objectHandler<Args>((context) => ({
  declaration,
  noun: "stream",
  readPath: streams.ops.getTimeshiftStream,

  async read(id) {
    const { stream } = await streams.getStream(context.client(), "timeshift", id);
    return { inputs: liveInputs(stream), outputs: outputsOf(stream), deleted: Boolean(stream.deleted) };
  },

  adoptUnread: (id) => ({ streamId: id, warnings: [] }),
  shown: (value) => JSON.stringify(withKey(value, "[secret]")),
  adoptAdvice:
    "Declare the live values to adopt it; a later change to any of them (except disabled) makes a new stream.",

  // Never record a live credential as an input: a key changed outside the stack shows as a marker.
  refreshed(inputs, declared) {
    const token = inputs.secureToken as Inputs | undefined;
    if (token?.key === undefined || token.key === (declared.secureToken as Inputs | undefined)?.key) return inputs;
    return { ...inputs, secureToken: withKey(token, "(changed outside the stack)") };
  },

  async create(args, inputs) {
    const created = await createStream(context, args);
    const id = String(created.stream.id);
    // §4.19 answers with `warnings` and `errors` (null when none), and the stream may carry its own.
    const warnings = context.reportNotes(KIND, id, {
      ...created,
      warnings: [...(created.warnings ?? []), ...(created.stream.messages?.warning ?? [])],
    });
    if (!args.disabled) return { id, outs: outs(args, created.stream, warnings) };
    try {
      const answer = await streams.setStreamStatus(context.client(), "timeshift", id, { disabled: 1 });
      context.reportNotes(KIND, id, answer);
      return { id, outs: outs(args, answer.stream, warnings) };
    } catch (err) {
      const message = `${KIND} ${id}: created, but disabling it failed: ${(err as Error).message} It is recorded in the stack; run \`pulumi up\` again to disable it.`;
      // The stream exists: with its id and properties, the engine records it and retries the update.
      const properties = { ...outs(args, created.stream, warnings), [PROVIDER_KEY]: inputs[PROVIDER_KEY] };
      throw new ResourceInitError(message, id, properties);
    }
  },

  async update(id, olds, args) {
    // Only \`disabled\` updates in place (every other input replaces): with none declared there
    // is nothing to send, and nothing is read back.
    if (args.disabled === undefined) return { ...olds, ...outsOf(declaration, args, {}) };
    const answer = await streams.setStreamStatus(context.client(), "timeshift", id, {
      disabled: args.disabled ? 1 : 0,
    });
    context.reportNotes(KIND, id, answer);
    return outs(args, answer.stream, (olds.warnings as string[] | undefined) ?? []);
  },

  async delete(id, props) {
    const what = `${KIND} ${id}${props.composedName ? ` (${props.composedName})` : ""}`;
    try {
      context.reportNotes(KIND, id, await streams.setStreamStatus(context.client(), "timeshift", id, { disabled: 1 }));
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      context.warn(`${what}: not found in the account, so there is nothing to disable; released from the stack.`);
      return;
    }
    context.warn(
      `${what}: disabled, not deleted: the API has no delete for streams, so it stays in the account, ` +
        "disabled. Delete it in the dashboard if it is no longer needed.",
    );
  },
}));
