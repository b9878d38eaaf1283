import * as pulumi from "@pulumi/pulumi";
import { registration } from "../resource";
import type { Declares } from "../common/declare";
import type { declaration } from "./declaration";
import { KINDS } from "../registry";

/**
 * Domain lock of a timeshift stream (`domainlock[...]` of `POST /v2/streams/timeshift/new`, the API's access-control objects). `policy` and `noreferer` stay
 * `"Y" | "N"` because the spec describes them three conflicting ways (the API's access-control objects).
 */
export interface TimeshiftDomainLockArgs {
  /** `domainlock[enabled]`. */
  enabled?: pulumi.Input<boolean>;
  /**
   * `domainlock[policy]`, sent as written. The spec says three things (the API's access-control objects): VoD pull zone update:
   * `Y` = whitelist, `N` = blacklist; bulk update: `Y` = blacklist, `N` = whitelist; timeshift create:
   * `Y` = allow listed domains, `N` = deny.
   */
  policy?: pulumi.Input<"Y" | "N">;
  /**
   * `domainlock[noreferer]`, sent as written. The spec says three things (the API's access-control objects): VoD pull zone update:
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

/** Geo block (`geoblock[...]` of `POST /v2/streams/timeshift/new`, the API's access-control objects). */
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

/** IP access (`ipaccess[...]` of `POST /v2/streams/timeshift/new`, the API's access-control objects). */
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

/** Network DVR (`ndvr[...]` of `POST /v2/streams/timeshift/new`). */
export interface TimeshiftNdvrArgs {
  /** `ndvr[enabled]`. */
  enabled?: pulumi.Input<boolean>;
  /** `ndvr[retention]`: days, 0 to 180 (the API's limits). */
  retentionDays?: pulumi.Input<number>;
}

/** Recording (`record[...]` of `POST /v2/streams/timeshift/new`). */
export interface TimeshiftRecordArgs {
  /** `record[enabled]`. */
  enabled?: pulumi.Input<boolean>;
  /** `record[server]`: the recording server's id. */
  server?: pulumi.Input<number>;
  /** `record[retention]`: days, 0 to 90 (the API's limits). */
  retentionDays?: pulumi.Input<number>;
}

/** Secure token (`securetoken[...]` of `POST /v2/streams/timeshift/new`, the API's access-control objects). */
export interface TimeshiftSecureTokenArgs {
  /** `securetoken[enabled]`. */
  enabled?: pulumi.Input<boolean>;
  /** `securetoken[keyip]`: bind tokens to the viewer's IP. */
  keyIp?: pulumi.Input<boolean>;
  /** `securetoken[active]`. */
  active?: pulumi.Input<boolean>;
  /** `securetoken[policy]`: `"dynamic"` is sent as `D`, `"fixed"` as `F` (the API's access-control objects). */
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

/** User-agent filter (`useragent[...]` of `POST /v2/streams/timeshift/new`, the API's access-control objects). */
export interface TimeshiftUserAgentArgs {
  /** `useragent[enabled]`. */
  enabled?: pulumi.Input<boolean>;
  /** `useragent[policy]` (`Y` when true); the spec does not say what each value means. */
  policy?: pulumi.Input<boolean>;
  /** `useragent[casesensitive]`. */
  caseSensitive?: pulumi.Input<boolean>;
  /** `useragent[active]`. */
  active?: pulumi.Input<boolean>;
  /** `useragent[list]`: patterns without commas, sent comma-separated (stored `;;;`-joined, the API's access-control objects). */
  patterns?: pulumi.Input<pulumi.Input<string>[]>;
  /** `useragent[ips]`, sent comma-separated. */
  ips?: pulumi.Input<pulumi.Input<string>[]>;
}

/**
 * Arguments of a {@link TimeshiftStream}. Every argument but `disabled` can only be set by the
 * create call (`POST /v2/streams/timeshift/new`), so changing one replaces the stream (a new one is created, the old one disabled).
 */
export interface TimeshiftStreamArgs {
  /**
   * `name` of `POST /v2/streams/timeshift/new`: the friendly name. The API composes the stream's name as `<account prefix>-<name>`
   * (output `composedName`). Required here: the spec does not say which keys are required; the API
   * (as emulated) refuses a create without `name`, `parent` and `timeshift`.
   */
  name: pulumi.Input<string>;
  /** `parent` of `POST /v2/streams/timeshift/new`: the id of the push stream (or HTTP push zone) to delay. Required. */
  parent: pulumi.Input<number>;
  /** `timeshift` of `POST /v2/streams/timeshift/new`: the delay in seconds, at least 1. Required. */
  timeshift: pulumi.Input<number>;
  /** `codec` of `POST /v2/streams/timeshift/new`: `h264` or `h265` (the API's default is h264). */
  codec?: pulumi.Input<"h264" | "h265">;
  /** `protocols` of `POST /v2/streams/timeshift/new`: `HLS`, `RTMP`, `DASH`, `RTSP` (the API's default is HLS only); compared as a set. */
  protocols?: pulumi.Input<pulumi.Input<"HLS" | "RTMP" | "DASH" | "RTSP">[]>;
  /** Disable (`true`) or enable (`false`) the stream through `POST /v2/streams/{push|timeshift}/{streamid}/status`, after create and on update: the one in-place change. */
  disabled?: pulumi.Input<boolean>;
  /** Domain lock (`domainlock[...]` of `POST /v2/streams/timeshift/new`). */
  domainLock?: pulumi.Input<TimeshiftDomainLockArgs>;
  /** Geo block (`geoblock[...]` of `POST /v2/streams/timeshift/new`). */
  geoBlock?: pulumi.Input<TimeshiftGeoBlockArgs>;
  /** IP access (`ipaccess[...]` of `POST /v2/streams/timeshift/new`). */
  ipAccess?: pulumi.Input<TimeshiftIpAccessArgs>;
  /** Network DVR (`ndvr[...]` of `POST /v2/streams/timeshift/new`). */
  ndvr?: pulumi.Input<TimeshiftNdvrArgs>;
  /** Recording (`record[...]` of `POST /v2/streams/timeshift/new`). */
  record?: pulumi.Input<TimeshiftRecordArgs>;
  /** Secure token (`securetoken[...]` of `POST /v2/streams/timeshift/new`); its `key` is kept secret. */
  secureToken?: pulumi.Input<TimeshiftSecureTokenArgs>;
  /** User-agent filter (`useragent[...]` of `POST /v2/streams/timeshift/new`). */
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

/** Playback addresses of the stream (the stream's playback URLs; timeshift streams use DVR-style manifest names). */
export interface TimeshiftPlaybackUrls {
  /** HLS playback address (the `.m3u8` manifest); null when the API sends none. */
  hls: string | null;
  /** DASH playback address (the `.mpd` manifest); null when the API sends none. */
  dash: string | null;
  /** The HLS manifest's name, e.g. `playlist_dvr.m3u8`. */
  hlsManifest: string | null;
  /** The DASH manifest's name, e.g. `manifest_dvr.mpd`. */
  dashManifest: string | null;
  /** RTMP playback address (`rtmp` of the stream's playback URLs). */
  rtmp: string | null;
  /** RTSP playback address (`rtsp` of the stream's playback URLs). */
  rtsp: string | null;
}

/** Signed playback addresses (`tokenized` of the stream's playback URLs), each null when the API does not send it. */
export interface TimeshiftTokenizedPlaybackUrls {
  /** Signed HLS playback address. */
  hls: string | null;
  /** Signed DASH playback address. */
  dash: string | null;
  /** Signed RTMP playback address. */
  rtmp: string | null;
  /** Signed RTSP playback address. */
  rtsp: string | null;
}

/**
 * Creates a delayed (timeshift) copy of a live stream, with its own protocols, codec, recording
 * and access rules.
 *
 * Created through `POST /v2/streams/timeshift/new`. The create call is never retried once sent: if
 * it fails after it may have reached the API, the error says to look for the stream and import it
 * rather than run again blindly. Refresh reads `GET /v2/streams/timeshift/{id}` and detects
 * `disabled` (updated in place) and the declared fields the API returns (name as sent, parent,
 * delay, codec, protocols as a set, and the declared sub-fields of each group), each of which
 * replaces; the composed name is never compared. The API has no delete for streams: destroying (or
 * replacing) disables the stream through `POST /v2/streams/{push|timeshift}/{streamid}/status` and
 * says that it still exists.
 *
 * @typescriptOnly In TypeScript, an existing stream is taken over with `adoptId` where other
 * languages run `pulumi import`.
 */
export class TimeshiftStream extends pulumi.CustomResource {
  /** The friendly name as declared. */
  declare readonly name: pulumi.Output<string>;
  /** The parent stream's id as declared. */
  declare readonly parent: pulumi.Output<number>;
  /** The delay in seconds. */
  declare readonly timeshift: pulumi.Output<number>;
  /** Whether the stream is disabled, as declared. */
  declare readonly disabled: pulumi.Output<boolean | undefined>;
  /** The stream's id (`id` of the API's stream object), also the resource id. */
  declare readonly streamId: pulumi.Output<string>;
  /** The composed name, `<prefix>-<name>` (`name` of the API's stream object). */
  declare readonly composedName: pulumi.Output<string | null>;
  /** The stream's status (`status` of the API's stream object, e.g. `Deploying`). */
  declare readonly status: pulumi.Output<string | null>;
  /** The parent's id as the API reports it (`parentid` of the API's stream object). */
  declare readonly parentId: pulumi.Output<number | string | null>;
  /** The parent's name (`parent.name` of the API's stream object). */
  declare readonly parentName: pulumi.Output<string | null>;
  /** Playback addresses (the stream's playback URLs). */
  declare readonly playbackUrls: pulumi.Output<TimeshiftPlaybackUrls>;
  /** Signed playback addresses when the secure token is on (`tokenized` of the stream's playback URLs); secret; undefined otherwise. */
  declare readonly tokenizedPlaybackUrls: pulumi.Output<TimeshiftTokenizedPlaybackUrls | undefined>;
  /** The secure token key as the API holds it (`securetoken.list` of the API's access-control objects); secret; undefined when there is none. */
  declare readonly secureTokenKey: pulumi.Output<string | undefined>;
  /** The RTMP authentication password, when the API returns one (`rtmpauth.password` of the API's stream object); secret; undefined otherwise. */
  declare readonly rtmpAuthPassword: pulumi.Output<string | undefined>;
  /** Warnings the API returned with the create (`warnings` of `POST /v2/streams/timeshift/new`, and `errors` prefixed `error: `). */
  declare readonly warnings: pulumi.Output<string[]>;

  constructor(name: string, args: TimeshiftStreamArgs, opts?: pulumi.CustomResourceOptions) {
    const registered = registration(
      KINDS.TimeshiftStream,
      name,
      { ...args, secureToken: secretKey(args.secureToken) },
      opts,
    );
    try {
      super(registered.type, name, registered.props, registered.options);
    } finally {
      registered.restoreStacks();
    }
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
