/** StreamStatus (§4.4): what it does for users is the class's doc (resource.ts). */
import * as streams from "../../client/resources/streams";
import { settingsHandler } from "../common/handlers/settings";
import type { ArgsOf } from "../common/declare";
import { declaration } from "./declaration";

type Args = ArgsOf<typeof declaration>;

/** Outputs read from the live stream: what it is and where to play it. */
function outputsOf(stream: streams.Stream) {
  const urls = stream.playbackurls;
  return {
    name: stream.name ?? null,
    status: stream.status ?? null,
    playbackUrls: {
      hls: urls?.hls ?? null,
      dash: urls?.dash ?? null,
      rtmp: urls?.rtmp ?? null,
      rtsp: urls?.rtsp ?? null,
    },
    // Credential: the SDK marks it secret in state.
    rtmpAuthPassword: stream.rtmpauth?.password ?? null,
  };
}

export const handler = settingsHandler<Args>((context) => ({
  declaration,

  readPath: ({ streamKind }) => (streamKind === "push" ? streams.ops.getPushStream : streams.ops.getTimeshiftStream),

  async read({ streamKind, streamId }) {
    const { stream } = await streams.getStream(context.client(), streamKind as streams.StreamKind, streamId as string);
    return { inputs: { disabled: stream.disabled === "1" }, outputs: outputsOf(stream) };
  },

  async apply(args) {
    const answer = await streams.setStreamStatus(context.client(), args.streamKind, args.streamId, {
      disabled: args.disabled ? 1 : 0,
    });
    const id = `${args.streamKind}/${args.streamId}`;
    // §3: a disable may come with `messages.warning`; §2.1 `warnings`/`errors` may come beside it.
    const warnings = context.reportNotes("StreamStatus", id, {
      ...answer,
      warnings: [...(answer.stream.messages?.warning ?? []), ...(answer.warnings ?? [])],
    });
    return { ...outputsOf(answer.stream), warnings };
  },

  released: (id, props) =>
    `StreamStatus ${id}: released from the stack; the stream stays ${props.disabled ? "disabled" : "enabled"} (the API has no "unset" for a status).`,
}));
