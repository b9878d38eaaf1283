/** Live streams: §4.4, §4.19 and the single-stream reads. Shapes: §2.5 stream, §2.6 platform, §2.7 playback. */
import { z } from "zod";
import type { CdnstreamClient } from "../core/client";
import { defineOperation, type RequestOptions } from "../core/operation";
import {
  anyId,
  DomainLock,
  envelope,
  flag01,
  GeoBlock,
  intMin,
  IpAccess,
  loose,
  numeric,
  openEnum,
  SecureToken,
  strId,
  timestamp,
  UserAgent,
  yn,
  ynIn,
} from "./shapes";
import { RETENTION_MAX_DAYS } from "./stream-limits";

/** §2.5 transcode / §2.6 platform transcode. */
const Transcode = loose({ ltc: z.number(), type: z.string(), enabled: z.boolean(), isEditable: z.boolean() });

/** §2.6 stream platform entry. */
export const StreamPlatform = loose({
  id: anyId,
  rtmp: z.string(),
  auth: yn,
  username: z.string(),
  password: z.string(),
  key: z.string(),
  isSRT: z.boolean(),
  schedule: z.string(),
  scheduletime: z.string().nullable(),
  codec: z.string(),
  /** `HH:MM`. */
  length: z.string(),
  relid: z.number(),
  dedicatedLTC: flag01,
  transcode: Transcode,
  disabled: flag01,
  name: z.string(),
  platform_id: z.number(),
  provider_id: z.number(),
  video_id: z.string(),
});

const urlPair = loose({ hls: z.string(), dash: z.string() });
/** §2.7 playback URLs; the player maps are kept as sent. */
export const StreamPlaybackUrls = loose({
  scheme: z.string(),
  url_prefix: z.string(),
  rtmp: z.string(),
  rtsp: z.string(),
  hlsManifest: z.string(),
  dashManifest: z.string(),
  hls: z.string(),
  dash: z.string(),
  players: loose({}),
  tokenized: loose({ path: urlPair, token: urlPair, players: loose({}) }).nullable(),
});

const protocolRows = z.array(z.array(z.string()).nullable()).nullable();

/** §2.5 stream object (push, timeshift). */
export const Stream = loose({
  type: openEnum(["push", "timeshift"]),
  id: anyId,
  serviceid: z.number(),
  name: z.string(),
  codec: z.string(),
  /** Arrays of protocol names; may hold empty arrays or null entries. */
  ingests: protocolRows,
  protocols: protocolRows,
  parentid: anyId.nullable(),
  parent: loose({ id: anyId, name: z.string(), codec: z.string(), stype: z.string(), rtmpauth: yn }),
  server: z.union([z.string(), z.number()]),
  backup: z.string(),
  dedicatedLTC: flag01,
  hasAdvancedFeatures: flag01,
  draft: flag01,
  /** `0` enabled, `1` disabled (§3). */
  disabled: flag01,
  monitoring_id: z.unknown(),
  monitoring_triggers: z.unknown(),
  created_at: z.string(),
  updated_at: z.string(),
  lastseen_at: z.unknown(),
  /** Null, or when the stream was deleted: a date string or Unix seconds (§2.5). */
  deleted: timestamp,
  ingestsLock: z.number(),
  protocolsLock: z.number(),
  status: z.string(),
  has: loose({ rtmp: z.number(), rtsp: z.number(), hls: z.number(), dash: z.number(), rtmpauth: z.boolean() }),
  parts: loose({ pp: z.string(), sn: z.string(), full: z.string() }),
  hash: z.string(),
  platformsCount: z.number(),
  ssl_enabled: z.boolean(),
  restream: loose({}),
  /** Timeshift only: `shift` is the delay in seconds. */
  timeshift: loose({ shift: numeric, type: z.string() }),
  fms: loose({ server: loose({ country: z.string(), meta: loose({ fmsUrl: z.string() }) }) }),
  /** Push only; `retention` is days, as a string. */
  ndvr: loose({ enabled: yn, retention: z.union([z.string(), z.number()]) }),
  record: loose({ enabled: yn, retention: z.union([z.string(), z.number()]), stream: z.unknown() }),
  rtmpauth: loose({ password: z.string(), active: yn }),
  securetoken: SecureToken,
  domainlock: DomainLock,
  geoblock: GeoBlock,
  ipaccess: IpAccess,
  useragent: UserAgent,
  transcode: Transcode,
  platforms: z.array(StreamPlatform),
  messages: loose({ warning: z.array(z.string()) }),
  adInsertion: loose({}).nullable(),
  playbackurls: StreamPlaybackUrls,
}).required({ id: true });
export type Stream = z.infer<typeof Stream>;

/** Which stream family a path addresses (§4.4 has one path per family). */
export type StreamKind = "push" | "timeshift";

/** §4.4 body: `1` disables, `0` enables. */
export const StreamStatusBody = z.strictObject({
  disabled: z.union([z.literal(0), z.literal(1)], { error: "must be 0 (enable) or 1 (disable)" }),
});
export type StreamStatusBody = z.input<typeof StreamStatusBody>;

// §4.19 groups, written nested here and flattened to bracketed keys on the wire.
const flagGroup = <K extends string>(...keys: K[]) =>
  Object.fromEntries(keys.map((k) => [k, ynIn.optional()])) as Record<K, z.ZodOptional<typeof ynIn>>;
const text = z.string().optional();

const TimeshiftGroups = {
  domainlock: z.strictObject({ ...flagGroup("enabled", "policy", "noreferer", "active"), list: text, ips: text }),
  geoblock: z.strictObject({
    ...flagGroup("enabled", "policy", "active"),
    list: z.array(z.string().regex(/^[A-Za-z]{2}$/, "must be a two-letter country code")).optional(),
    ips: text,
  }),
  ipaccess: z.strictObject({ ...flagGroup("enabled", "policy", "active"), list: text, ips: text }),
  ndvr: z.strictObject({
    ...flagGroup("enabled"),
    retention: intMin(0, "(days)")
      .max(RETENTION_MAX_DAYS.ndvr, `must be at most ${RETENTION_MAX_DAYS.ndvr} days (ndvr retention)`)
      .optional(),
  }),
  record: z.strictObject({
    ...flagGroup("enabled"),
    server: intMin(0, "(recording server id)").optional(),
    retention: intMin(0, "(days)")
      .max(RETENTION_MAX_DAYS.record, `must be at most ${RETENTION_MAX_DAYS.record} days (record retention)`)
      .optional(),
  }),
  securetoken: z.strictObject({
    ...flagGroup("enabled", "keyip", "active"),
    policy: z.enum(["D", "F"], { error: 'must be "D" (dynamic) or "F" (fixed)' }).optional(),
    list: text,
    ips: text,
    session: z.string().regex(/^\d+$/, 'must be a whole number of seconds as a string ("0" = unlimited)').optional(),
    timeout: intMin(0, "(token validity in seconds)").optional(),
  }),
  useragent: z.strictObject({ ...flagGroup("enabled", "policy", "casesensitive", "active"), list: text, ips: text }),
};

/**
 * §4.19 body, nested for editors: `{ name, codec, domainlock: { enabled: "Y" } }` is sent as
 * `{ "_METHOD": "PUT", "name": ..., "codec": ..., "domainlock[enabled]": "Y" }`. Which keys the
 * API requires is not shown, so none is required here.
 */
export const CreateTimeshiftBody = z
  .strictObject({
    name: z.string().min(1, "must not be empty").optional(),
    codec: z.enum(["h264", "h265"], { error: 'must be "h264" or "h265"' }).optional(),
    protocols: z
      .array(z.enum(["HLS", "RTMP", "DASH", "RTSP"], { error: "must be HLS, RTMP, DASH or RTSP" }))
      .optional(),
    /** Delay in seconds. */
    timeshift: intMin(0, "(delay in seconds)").optional(),
    /** Parent stream or push zone id. */
    parent: intMin(0, "(parent id)").optional(),
    ...z.object(TimeshiftGroups).partial().shape,
  })
  .transform((input) => {
    const wire: Record<string, unknown> = { _METHOD: "PUT" };
    for (const [key, value] of Object.entries(input)) {
      if (value === undefined) continue;
      if (key in TimeshiftGroups) {
        for (const [sub, v] of Object.entries(value as object)) if (v !== undefined) wire[`${key}[${sub}]`] = v;
      } else wire[key] = value;
    }
    return wire;
  });
export type CreateTimeshiftBody = z.input<typeof CreateTimeshiftBody>;

const streamResponse = z.looseObject({ ...envelope, stream: Stream });
/** §4.4 has one path per stream family; the two operations differ only in it. */
const statusOp = <K extends StreamKind>(kind: K) =>
  defineOperation({
    id: "4.4",
    method: "POST",
    path: `/v2/streams/${kind}/{streamid}/status`,
    params: z.strictObject({ streamid: strId }),
    body: StreamStatusBody,
    response: streamResponse,
  });
/** Extension beyond the spec (docs/design.md, "Single-object reads"): one read path per stream family. */
const readOp = <K extends StreamKind>(kind: K) =>
  defineOperation({
    id: `ext:${kind}-stream`,
    method: "GET",
    path: `/v2/streams/${kind}/{streamid}`,
    params: z.strictObject({ streamid: strId }),
    response: streamResponse,
  });

/** §4.4 Enable (`disabled: 0`) or disable (`disabled: 1`) a push stream. */
export const setPushStreamStatus = statusOp("push");
/** §4.4 Enable (`disabled: 0`) or disable (`disabled: 1`) a timeshift stream. */
export const setTimeshiftStreamStatus = statusOp("timeshift");
/** §4.19 Create a delayed (timeshift) stream. Not idempotent, so `connect-only` (retry.ts). */
export const createTimeshiftStream = defineOperation({
  id: "4.19",
  method: "POST",
  path: "/v2/streams/timeshift/new",
  retry: "connect-only",
  body: CreateTimeshiftBody,
  response: streamResponse,
});
/** Extension beyond the spec: `GET /v2/streams/push/{id}` (refresh/import read, docs/design.md). */
export const getPushStream = readOp("push");
/** Extension beyond the spec: `GET /v2/streams/timeshift/{id}` (refresh/import read, docs/design.md). */
export const getTimeshiftStream = readOp("timeshift");

export const ops = {
  setPushStreamStatus,
  setTimeshiftStreamStatus,
  createTimeshiftStream,
  getPushStream,
  getTimeshiftStream,
};

/** §4.4 Enable (`disabled: 0`) or disable (`disabled: 1`) a push or timeshift stream: the operation of `kind`. */
export const setStreamStatus = (
  c: CdnstreamClient,
  kind: StreamKind,
  streamId: string | number,
  body: StreamStatusBody,
  o?: RequestOptions,
) => (kind === "push" ? setPushStreamStatus : setTimeshiftStreamStatus)(c, streamId, body, o);
/** Extension beyond the spec: `GET /v2/streams/{push|timeshift}/{id}` (refresh/import read, docs/design.md). */
export const getStream = (c: CdnstreamClient, kind: StreamKind, streamId: string | number, o?: RequestOptions) =>
  (kind === "push" ? getPushStream : getTimeshiftStream)(c, streamId, o);
