/** A stack's drift report as `cdnstream drift` records it, for the drift command's unit tests. */
import type { StackReport } from "../../provider/cli/drift-report";

export type StackOutcome = "clean" | "drift" | "error";

/**
 * The report of `stack` in project `project`: clean, drifted (one StreamStatus whose `disabled`
 * changed from false to true), or not checked, with `error` as what the engine said.
 */
export const stackResult = (
  stack: string,
  kind: StackOutcome,
  { project, error }: { project: string; error: string },
): StackReport => ({
  stack,
  cwd: "/proj",
  drifted: kind === "drift",
  resources:
    kind === "drift"
      ? [
          {
            urn: `urn:pulumi:${stack}::${project}::t::r`,
            name: "r",
            type: "pulumi-nodejs:dynamic/cdnstream:StreamStatus",
            deleted: false,
            properties: [{ property: "disabled", recorded: false, live: true }],
          },
        ]
      : [],
  ...(kind === "error" ? { error } : {}),
});
