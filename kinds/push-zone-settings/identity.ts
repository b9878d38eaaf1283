// Written by scripts/gen-identities.ts from ./declaration.ts: run `npm run gen` after
// changing the declaration (test/scripts/identities.test.ts fails while this file is stale).
import type { KindIdentity } from "../../sdk/resource";

/** What the resource class registers: the declaration's identity, as data (no zod, no rules). */
export const identity: KindIdentity = {
  type: "PushZoneSettings",
  shim: "push-zone-settings",
  secretOutputs: ["authToken", "ftpPassword"],
  inputKeys: ["zoneId", "customDomains", "transcodingProfiles", "transcodeWebhook"],
  outputKeys: ["name", "fqdn", "hashId", "customDomainFqdns", "uploadHost", "serviceAddresses", "authToken", "ftpUsername", "ftpPassword", "warnings"],
};
