// Written by scripts/gen-identities.ts from ./declaration.ts: run `npm run gen` after
// changing the declaration (test/scripts/identities.test.ts fails while this file is stale).
import type { KindIdentity } from "../../sdk/resource";

/** What the resource class registers: the declaration's identity, as data (no zod, no rules). */
export const identity: KindIdentity = {
  type: "VodPullDomainLock",
  shim: "vod-pull-domain-lock",
  secretOutputs: [],
  inputKeys: ["zoneId", "enabled", "policy", "domains", "ips", "noreferer", "active"],
  outputKeys: ["name", "fqdn", "fqdnVoD", "sslEnabled", "liveLock"],
};
