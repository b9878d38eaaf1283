import * as pulumi from "@pulumi/pulumi";
import { CdnstreamResource } from "../../sdk/resource";
import type { Declares } from "../declare";
import { declaration } from "./declaration";

/**
 * Domain lock of a timeshift stream (§4.19 `domainlock[...]`, §2.4). `policy` and `noreferer` stay
 * `"Y" | "N"` because the spec describes them three conflicting ways (§2.4).
 */
export interface TimeshiftDomainLockArgs {
  /** `domainlock[enabled]`. */
  enabled?: pulumi.Input<boolean>;
  /**
   * `domainlock[policy]`, sent as written. The spec says three things (§2.4): VoD pull zone update:
   * `Y` = whitelist, `N` = blacklist; bulk update: `Y` = blacklist, `N` = whitelist; timeshift create:
   * `Y` = allow listed domains, `N` = deny.
   */
  policy?: pulumi.Input<"Y" | "N">;
  /**
   * `domainlock[noreferer]`, sent as written. The spec says three things (§2.4): VoD pull zone update:
   * `Y` = allow requests without referer; bulk update: `Y` = block requests with empty referer;
   * timeshift create: `Y` = blocked.
   */
  noreferer?: pulumi.Input<"Y" | "N">;
  /** `domainlock[active]`. */
  active?: pulumi.Input<boolean>;
  /** `domainlock[list]`: the domains, sent comma-separated; compared as a set, ignoring case. */
  domains?: pulumi.Input<pulumi.Input<string>[]>;
  /** `domainlock[ips]`: IPs allowed regardless of the lock, sent comma-separated. */
  ips?: pulumi.Input<pulumi.Input<string>[]>;
}

/** Geo block (§4.19 `geoblock[...]`, §2.4). */
export interface TimeshiftGeoBlockArgs {
  /** `geoblock[enabled]`. */
  enabled?: pulumi.Input<boolean>;
  /** `geoblock[policy]` (`Y` when true); the spec does not say what each value means. */
  policy?: pulumi.Input<boolean>;
  /** `geoblock[active]`. */
  active?: pulumi.Input<boolean>;
  /** `geoblock[list]`: ISO 3166 alpha-2 country codes in capitals, e.g. `DE`. */
  countries?: pulumi.Input<pulumi.Input<string>[]>;
  /** `geoblock[ips]`, sent comma-separated. */
  ips?: pulumi.Input<pulumi.Input<string>[]>;
}

/** IP access (§4.19 `ipaccess[...]`, §2.4). */
export interface TimeshiftIpAccessArgs {
  /** `ipaccess[enabled]`. */
  enabled?: pulumi.Input<boolean>;
  /** `ipaccess[policy]` (`Y` when true); the spec does not say what each value means. */
  policy?: pulumi.Input<boolean>;
  /** `ipaccess[active]`. */
  active?: pulumi.Input<boolean>;
  /** `ipaccess[list]`: IPs or CIDR ranges, sent comma-separated. */
  addresses?: pulumi.Input<pulumi.Input<string>[]>;
  /** `ipaccess[ips]`, sent comma-separated. */
  ips?: pulumi.Input<pulumi.Input<string>[]>;
}

/** Network DVR (§4.19 `ndvr[...]`). */
export interface TimeshiftNdvrArgs {
  /** `ndvr[enabled]`. */
  enabled?: pulumi.Input<boolean>;
  /** `ndvr[retention]`: days, 0 to 180 (§8). */
  retentionDays?: pulumi.Input<number>;
}

/** Recording (§4.19 `record[...]`). */
export interface TimeshiftRecordArgs {
  /** `record[enabled]`. */
  enabled?: pulumi.Input<boolean>;
  /** `record[server]`: the recording server's id. */
  server?: pulumi.Input<number>;
  /** `record[retention]`: days, 0 to 90 (§8). */
  retentionDays?: pulumi.Input<number>;
}

/** Secure token (§4.19 `securetoken[...]`, §2.4). */
export interface TimeshiftSecureTokenArgs {
  /** `securetoken[enabled]`. */
  enabled?: pulumi.Input<boolean>;
  /** `securetoken[keyip]`: bind tokens to the viewer's IP. */
  keyIp?: pulumi.Input<boolean>;
  /** `securetoken[active]`. */
  active?: pulumi.Input<boolean>;
  /** `securetoken[policy]`: `"dynamic"` is sent as `D`, `"fixed"` as `F` (§2.4). */
  policy?: pulumi.Input<"dynamic" | "fixed">;
  /** `securetoken[list]`: the token key. Kept secret in state (the constructor wraps it with `pulumi.secret`). */
  key?: pulumi.Input<string>;
  /** `securetoken[ips]`, sent comma-separated. */
  ips?: pulumi.Input<pulumi.Input<string>[]>;
  /** `securetoken[session]`: seconds, `0` = unlimited (sent as a string). */
  sessionSeconds?: pulumi.Input<number>;
  /** `securetoken[timeout]`: token validity in seconds, at least 1. */
  timeoutSeconds?: pulumi.Input<number>;
}

/** User-agent filter (§4.19 `useragent[...]`, §2.4). */
export interface TimeshiftUserAgentArgs {
  /** `useragent[enabled]`. */
  enabled?: pulumi.Input<boolean>;
  /** `useragent[policy]` (`Y` when true); the spec does not say what each value means. */
  policy?: pulumi.Input<boolean>;
  /** `useragent[casesensitive]`. */
  caseSensitive?: pulumi.Input<boolean>;
  /** `useragent[active]`. */
  active?: pulumi.Input<boolean>;
  /** `useragent[list]`: patterns without commas, sent comma-separated (stored `;;;`-joined, §2.4). */
  patterns?: pulumi.Input<pulumi.Input<string>[]>;
  /** `useragent[ips]`, sent comma-separated. */
  ips?: pulumi.Input<pulumi.Input<string>[]>;
}

/**
 * Arguments of a {@link TimeshiftStream}. Every argument but `disabled` can only be set by the
 * create call (§4.19), so changing one replaces the stream (a new one is created, the old one disabled).
 */
export interface TimeshiftStreamArgs {
  /**
   * §4.19 `name`: the friendly name. The API composes the stream's name as `<account prefix>-<name>`
   * (output `composedName`). Required here: the spec does not say which keys are required; the API
   * (as emulated) refuses a create without `name`, `parent` and `timeshift`.
   */
  name: pulumi.Input<string>;
  /** §4.19 `parent`: the id of the push stream (or HTTP push zone) to delay. Required. */
  parent: pulumi.Input<number>;
  /** §4.19 `timeshift`: the delay in seconds, at least 1. Required. */
  timeshift: pulumi.Input<number>;
  /** §4.19 `codec`: `h264` or `h265` (the API's default is h264). */
  codec?: pulumi.Input<"h264" | "h265">;
  /** §4.19 `protocols`: `HLS`, `RTMP`, `DASH`, `RTSP` (the API's default is HLS only); compared as a set. */
  protocols?: pulumi.Input<pulumi.Input<"HLS" | "RTMP" | "DASH" | "RTSP">[]>;
  /** Disable (`true`) or enable (`false`) the stream through §4.4, after create and on update: the one in-place change. */
  disabled?: pulumi.Input<boolean>;
  /** Domain lock (§4.19 `domainlock[...]`). */
  domainLock?: pulumi.Input<TimeshiftDomainLockArgs>;
  /** Geo block (§4.19 `geoblock[...]`). */
  geoBlock?: pulumi.Input<TimeshiftGeoBlockArgs>;
  /** IP access (§4.19 `ipaccess[...]`). */
  ipAccess?: pulumi.Input<TimeshiftIpAccessArgs>;
  /** Network DVR (§4.19 `ndvr[...]`). */
  ndvr?: pulumi.Input<TimeshiftNdvrArgs>;
  /** Recording (§4.19 `record[...]`). */
  record?: pulumi.Input<TimeshiftRecordArgs>;
  /** Secure token (§4.19 `securetoken[...]`); its `key` is kept secret. */
  secureToken?: pulumi.Input<TimeshiftSecureTokenArgs>;
  /** User-agent filter (§4.19 `useragent[...]`). */
  userAgent?: pulumi.Input<TimeshiftUserAgentArgs>;
  /**
   * Adopt the existing timeshift stream with this id (e.g. `5001`) instead of creating one: `create`
   * reads it (`GET /v2/streams/timeshift/{id}`) and fails, naming each difference, unless every
   * declared field the API returns equals the live one, so adopting changes nothing. Use it where you
   * would use the `import` option, which dynamic resources of @pulumi/pulumi 3.246 cannot serve, and
   * after a create that failed once it may have reached the API. Ignored after creation.
   */
  adoptId?: pulumi.Input<string>;
}

/** Playback addresses of the stream (§2.7; timeshift streams use DVR-style manifest names). */
export interface TimeshiftPlaybackUrls {
  hls: string | null;
  dash: string | null;
  /** The HLS manifest's name, e.g. `playlist_dvr.m3u8`. */
  hlsManifest: string | null;
  /** The DASH manifest's name, e.g. `manifest_dvr.mpd`. */
  dashManifest: string | null;
  /** RTMP playback address (§2.7 `rtmp`). */
  rtmp: string | null;
  /** RTSP playback address (§2.7 `rtsp`). */
  rtsp: string | null;
}

/** Signed playback addresses (§2.7 `tokenized`), each null when the API does not send it. */
export interface TimeshiftTokenizedPlaybackUrls {
  hls: string | null;
  dash: string | null;
  rtmp: string | null;
  rtsp: string | null;
}

/**
 * A delayed (timeshift) copy of a live stream (§4.19).
 *
 * The create call is never retried once sent: if it fails after it may have reached the API, the
 * error says to look for the stream and adopt it with `adoptId` rather than run again blindly.
 * Refresh reads `GET /v2/streams/timeshift/{id}` and detects `disabled` (updated in place) and the
 * declared fields the API returns (name as sent, parent, delay, codec, protocols as a set, and the
 * declared sub-fields of each group), each of which replaces; the composed name is never compared.
 * The API has no delete for streams: destroying (or replacing) disables the stream through §4.4 and
 * says that it still exists.
 */
export class TimeshiftStream extends CdnstreamResource {
  /** The friendly name as declared. */
  declare readonly name: pulumi.Output<string>;
  /** The parent stream's id as declared. */
  declare readonly parent: pulumi.Output<number>;
  /** The delay in seconds. */
  declare readonly timeshift: pulumi.Output<number>;
  /** Whether the stream is disabled, as declared. */
  declare readonly disabled: pulumi.Output<boolean | undefined>;
  /** The stream's id (§2.5 `id`), also the resource id. */
  declare readonly streamId: pulumi.Output<string>;
  /** The composed name, `<prefix>-<name>` (§2.5 `name`). */
  declare readonly composedName: pulumi.Output<string | null>;
  /** The stream's status (§2.5 `status`, e.g. `Deploying`). */
  declare readonly status: pulumi.Output<string | null>;
  /** The parent's id as the API reports it (§2.5 `parentid`). */
  declare readonly parentId: pulumi.Output<number | string | null>;
  /** The parent's name (§2.5 `parent.name`). */
  declare readonly parentName: pulumi.Output<string | null>;
  /** Playback addresses (§2.7). */
  declare readonly playbackUrls: pulumi.Output<TimeshiftPlaybackUrls>;
  /** Signed playback addresses when the secure token is on (§2.7 `tokenized`); secret; undefined otherwise. */
  declare readonly tokenizedPlaybackUrls: pulumi.Output<TimeshiftTokenizedPlaybackUrls | undefined>;
  /** The secure token key as the API holds it (§2.4 `securetoken.list`); secret; undefined when there is none. */
  declare readonly secureTokenKey: pulumi.Output<string | undefined>;
  /** The RTMP authentication password, when the API returns one (§2.5 `rtmpauth.password`); secret; undefined otherwise. */
  declare readonly rtmpAuthPassword: pulumi.Output<string | undefined>;
  /** Warnings the API returned with the create (§4.19 `warnings`, and `errors` prefixed `error: `). */
  declare readonly warnings: pulumi.Output<string[]>;

  constructor(name: string, args: TimeshiftStreamArgs, opts?: pulumi.CustomResourceOptions) {
    super(declaration.identity, name, { ...args, secureToken: secretKey(args.secureToken) }, opts);
  }
}

const _bound: Declares<typeof declaration, TimeshiftStreamArgs, TimeshiftStream> = true;

/**
 * The secure token with its key wrapped by `pulumi.secret`, so the input is encrypted in state while
 * the other token fields stay readable in previews; a group given as one Output is wrapped whole.
 */
function secretKey(token: TimeshiftStreamArgs["secureToken"]): TimeshiftStreamArgs["secureToken"] {
  if (token === undefined || pulumi.Output.isInstance(token) || token instanceof Promise)
    return token && pulumi.secret(token);
  const plain = token as TimeshiftSecureTokenArgs;
  return plain.key === undefined ? plain : { ...plain, key: pulumi.secret(plain.key) };
}
