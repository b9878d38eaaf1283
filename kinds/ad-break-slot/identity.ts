// Written by scripts/gen-identities.ts from ./declaration.ts: run `npm run gen` after
// changing the declaration (test/scripts/identities.test.ts fails while this file is stale).
import type { KindIdentity } from "../../sdk/resource";

/** What the resource class registers: the declaration's identity, as data (no zod, no rules). */
export const identity: KindIdentity = {
  type: "AdBreakSlot",
  shim: "ad-break-slot",
  secretOutputs: [],
  inputKeys: ["zoneId", "type", "maxDurationS", "offset", "intervalS", "maxBreaks", "breakId", "maxAds", "fillCeilingS"],
  outputKeys: ["live", "state", "name"],
};
