/** StreamStatus (§4.4), declared once: keeps a push or timeshift stream enabled or disabled. */
import { z } from "zod";
import { declareKind } from "../common/declare";

export const declaration = declareKind({
  name: "StreamStatus",
  folder: "stream-status",
  spec: ["§4.4", "§2.5", "§2.7"],
  idFormat: "<streamKind>/<streamId>",
  idExample: "push/1234",
  inputs: {
    streamKind: {
      rule: z.enum(["push", "timeshift"], { error: 'must be "push" or "timeshift"' }),
      replaces: true,
    },
    streamId: {
      rule: z.union(
        [
          z
            .string()
            .min(1, 'must not be empty: give the stream\'s id, e.g. 1234 or "1234"')
            .regex(/^[^/\s]*$/, "must be a stream id without slashes or spaces"),
          z.number().int("must be a whole number").positive("must be a positive stream id"),
        ],
        { error: 'must be the stream\'s id, e.g. 1234 or "1234"' },
      ),
      replaces: true,
      // The API echoes ids as strings; a program may declare a number.
      compare: (a, b) => String(a) === String(b),
    },
    disabled: { rule: z.boolean({ error: "must be true (disable, `1`) or false (enable, `0`)" }) },
  },
  outputs: {
    name: {},
    status: {},
    playbackUrls: {},
    rtmpAuthPassword: { secret: true },
    // What the last write's answer said beside its result; a read is not an answer to a write.
    warnings: { keptOnRefresh: true },
  },
});
