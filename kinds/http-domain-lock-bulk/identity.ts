// Written by scripts/gen-identities.ts from ./declaration.ts: run `npm run gen` after
// changing the declaration (test/scripts/identities.test.ts fails while this file is stale).
import type { KindIdentity } from "../../sdk/resource";

/** What the resource class registers: the declaration's identity, as data (no zod, no rules). */
export const identity: KindIdentity = {
  type: "HttpDomainLockBulk",
  shim: "http-domain-lock-bulk",
  secretOutputs: [],
  inputKeys: ["mode", "enabled", "policy", "domains", "ips", "noreferer"],
  outputKeys: ["accountDefault", "zonesOutOfStep"],
};
