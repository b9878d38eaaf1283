import * as pulumi from "@pulumi/pulumi";
import { registration } from "../resource";
import type { Declares } from "../common/declare";
import type { declaration } from "./declaration";
import { KINDS } from "../registry";

/** Arguments of a {@link StreamStatus}. */
export interface StreamStatusArgs {
  /** Which stream family: `push` or `timeshift` (`POST /v2/streams/{push|timeshift}/{streamid}/status` has a path for each). Changing it replaces the resource. */
  streamKind: pulumi.Input<"push" | "timeshift">;
  /** The stream's id (`{streamid}` of `POST /v2/streams/{push|timeshift}/{streamid}/status`). Changing it replaces the resource. */
  streamId: pulumi.Input<string | number>;
  /** `disabled` of `POST /v2/streams/{push|timeshift}/{streamid}/status`: `true` disables the stream (`1`), `false` enables it (`0`). */
  disabled: pulumi.Input<boolean>;
  /**
   * Adopt the existing object with this id (format `push/1234`) instead of writing the declared
   * settings: `create` reads it and fails, naming each difference, unless the declared values
   * equal the live ones, so adopting changes nothing. Use it where you would use the `import`
   * option, which dynamic resources of @pulumi/pulumi 3.246 cannot serve. Ignored after creation.
   */
  adoptId?: pulumi.Input<string>;
}

/**
 * Keeps a push or timeshift stream enabled or disabled.
 *
 * Written through `POST /v2/streams/{push|timeshift}/{streamid}/status`. Refresh reads the stream
 * through `GET /v2/streams/{kind}/{id}` and detects a changed `disabled`. Destroying the resource
 * leaves the stream as it is (the API has no "unset" for a status) and says so.
 *
 * @typescriptOnly In TypeScript, a stream's status is taken over with `adoptId` where other
 * languages run `pulumi import`.
 */
export class StreamStatus extends pulumi.CustomResource {
  /** Which stream family. */
  declare readonly streamKind: pulumi.Output<"push" | "timeshift">;
  /** The stream's id. */
  declare readonly streamId: pulumi.Output<string | number>;
  /** Whether the stream is disabled. */
  declare readonly disabled: pulumi.Output<boolean>;
  /** The stream's composed name (`name` of the API's stream object). */
  declare readonly name: pulumi.Output<string | null>;
  /** The stream's status as the API reports it (`status` of the API's stream object, e.g. `Deploying`). */
  declare readonly status: pulumi.Output<string | null>;
  /** Playback addresses (the stream's playback URLs). */
  declare readonly playbackUrls: pulumi.Output<{
    /** HLS playback address (the `.m3u8` manifest); null when the API sends none. */
    hls: string | null;
    /** DASH playback address (the `.mpd` manifest); null when the API sends none. */
    dash: string | null;
    /** RTMP playback address; null when the API sends none. */
    rtmp: string | null;
    /** RTSP playback address; null when the API sends none. */
    rtsp: string | null;
  }>;
  /** The push stream's RTMP authentication password (`rtmpauth.password` of the API's stream object); secret. */
  declare readonly rtmpAuthPassword: pulumi.Output<string | null>;
  /**
   * Warnings the API attached to the last change (`messages.warning` of the API's stream object, `warnings` of the API's response envelope, and
   * `errors` prefixed `error: `); a refresh keeps them.
   */
  declare readonly warnings: pulumi.Output<string[]>;

  constructor(name: string, args: StreamStatusArgs, opts?: pulumi.CustomResourceOptions) {
    const registered = registration(KINDS.StreamStatus, name, args, opts);
    try {
      super(registered.type, name, registered.props, registered.options);
    } finally {
      registered.restoreStacks();
    }
  }
}

const _bound: Declares<typeof declaration, StreamStatusArgs, StreamStatus> = true;
