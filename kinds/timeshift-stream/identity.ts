// Written by scripts/gen-identities.ts from ./declaration.ts: run `npm run gen` after
// changing the declaration (test/scripts/identities.test.ts fails while this file is stale).
import type { KindIdentity } from "../../sdk/resource";

/** What the resource class registers: the declaration's identity, as data (no zod, no rules). */
export const identity: KindIdentity = {
  type: "TimeshiftStream",
  shim: "timeshift-stream",
  secretOutputs: ["secureToken", "tokenizedPlaybackUrls", "secureTokenKey", "rtmpAuthPassword"],
  inputKeys: ["name", "parent", "timeshift", "codec", "protocols", "disabled", "domainLock", "geoBlock", "ipAccess", "ndvr", "record", "secureToken", "userAgent"],
  outputKeys: ["streamId", "composedName", "status", "parentId", "parentName", "playbackUrls", "tokenizedPlaybackUrls", "secureTokenKey", "rtmpAuthPassword", "warnings"],
};
