/** Streams: enable/disable (§4.4, push and timeshift) and the stream reads. Timeshift create: timeshift.ts. */
import { z } from "zod";
import { Ctx, lookup, readRoute, Route } from "../route";
import { Kind } from "../store";
import { sqlTime } from "../time";
import { parse } from "../validate";

/** §4.4: `disabled` is an integer, 1 disables and 0 enables. */
const statusBody = z.strictObject({ disabled: z.literal([0, 1]) });

const DISABLED_WARNING = "The stream is disabled: ingest and playback are refused until it is enabled again";

function setStatus(kind: Kind, label: string) {
  return (ctx: Ctx): unknown => {
    // §4.4: {streamid} is typed string, so any text is looked up (and is 404 when unknown).
    const stream = lookup(ctx, kind, ctx.params.streamid, label, false);
    const { disabled } = parse(statusBody, ctx.body);
    stream.disabled = String(disabled);
    stream.updated_at = sqlTime(ctx.now);
    // §3: disabling may add a warning under messages.warning; enabling removes it.
    const { warning: _old, ...messages } = stream.messages ?? {};
    stream.messages = disabled ? { ...messages, warning: [DISABLED_WARNING] } : messages;
    ctx.store.commit();
    return {
      result: "success",
      message: disabled ? "Stream disabled successfully" : "Stream enabled successfully",
      stream,
    };
  };
}

export const routes: Route[] = [
  {
    method: "POST",
    path: "/v2/streams/timeshift/{streamid}/status",
    handler: setStatus("timeshiftStreams", "timeshift stream"),
    write: "Stream status updated",
  },
  {
    method: "POST",
    path: "/v2/streams/push/{streamid}/status",
    handler: setStatus("pushStreams", "push stream"),
    write: "Stream status updated",
  },
  readRoute("/v2/streams/push/{streamid}", "stream", "pushStreams", "push stream"),
  readRoute("/v2/streams/timeshift/{streamid}", "stream", "timeshiftStreams", "timeshift stream"),
];
