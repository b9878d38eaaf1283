/**
 * VodPullDomainLock (§4.5): what it does for users is the class's doc (resource.ts). Read:
 * `zone.domainlock` of GET /v2/zones/vod/pull/{id}.
 */
import * as zones from "../../client/resources/zones";
import { domainLockBody, domainLockInputs, domainLockOutputs, type Lock } from "../common/domain-lock";
import type { Inputs } from "../common/inputs";
import { toYN } from "../common/rules";
import { settingsHandler } from "../common/handlers/settings";
import type { ArgsOf } from "../common/declare";
import { declaration } from "./declaration";

type Args = ArgsOf<typeof declaration>;

/** The live lock in the SDK's shape, `active` included. */
function inputsOf(lock: Lock): Inputs {
  const inputs = domainLockInputs(lock);
  if (lock.active !== undefined) inputs.active = lock.active === "Y";
  return inputs;
}

function outputsOf(zone: zones.Zone) {
  const lock = zone.domainlock ?? {};
  return {
    name: zone.name ?? null,
    fqdn: zone.fqdn ?? null,
    fqdnVoD: zone.fqdnVoD ?? null,
    sslEnabled: zone.ssl_enabled === undefined ? null : zone.ssl_enabled === "Y",
    // The lock as the API holds it (§2.4), whatever the program declares.
    liveLock: { ...domainLockOutputs(lock), active: lock.active ?? null },
  };
}

export const handler = settingsHandler<Args>((context) => ({
  declaration,

  readPath: zones.ops.getVodPullZone,

  async read({ zoneId }) {
    const { zone } = await zones.getVodPullZone(context.client(), zoneId as number);
    return { inputs: inputsOf(zone.domainlock ?? {}), outputs: outputsOf(zone) };
  },

  async apply(args) {
    const answer = await zones.updateVodPullDomainLock(context.client(), args.zoneId, {
      ...domainLockBody(args),
      active: args.active === undefined ? undefined : toYN(args.active),
      // §4.5: `S` (shared, zone-level) is the only mode given, and the one this kind manages.
      mode: "S",
    });
    context.reportNotes("VodPullDomainLock", String(args.zoneId), answer);
    return outputsOf(answer.zone);
  },

  released: (id) =>
    `VodPullDomainLock ${id}: released from the stack; the zone's domain lock stays as it is (the API has no delete for a lock).`,
}));
