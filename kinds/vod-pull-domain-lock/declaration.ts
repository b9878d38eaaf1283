/** VodPullDomainLock (§4.5), declared once: the domain lock of a VoD pull zone. */
import { domainLockDeclarations, domainLockFlag } from "../common/domain-lock";
import { positiveId } from "../common/rules";
import { declareKind } from "../common/declare";

export const declaration = declareKind({
  name: "VodPullDomainLock",
  folder: "vod-pull-domain-lock",
  spec: ["§4.5", "§2.4"],
  idFormat: "<zoneId>",
  idExample: "401",
  requiresASetting: true,
  inputs: {
    zoneId: { rule: positiveId("VoD pull zone"), replaces: true },
    ...domainLockDeclarations,
    active: { rule: domainLockFlag() },
  },
  outputs: { name: {}, fqdn: {}, fqdnVoD: {}, sslEnabled: {}, liveLock: {} },
});
