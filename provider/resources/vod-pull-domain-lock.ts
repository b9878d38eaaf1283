/**
 * VodPullDomainLock (§4.5): the domain lock of a VoD pull zone. Identity: the zone id (the
 * resource id and the `adoptId` format); a new zone replaces.
 * Only the settings the program declares are managed; one it leaves out is left as it is.
 * Domains and IPs are sets: order, duplicates and case never show as a difference.
 * Read: GET /v2/zones/vod/pull/{id} (an extension, DESIGN.md) -> `zone.domainlock`.
 * Delete releases management: the spec has no delete for a lock, so the zone keeps it as it is.
 */
import { z } from "zod";
import { zones } from "../client";
import { apiClient } from "../context";
import type { DiffRules, Inputs } from "../inputs";
import { hostname, ipOrCidr, positiveId, sameHosts, splitList, toYN, yn } from "../rules";
import { settingsHandler } from "../settings-handler";

const SETTINGS = ["enabled", "policy", "domains", "ips", "noreferer", "active"] as const;

const Args = z
  .strictObject({
    zoneId: positiveId("VoD pull zone"),
    enabled: z.boolean({ error: "must be true (`Y`) or false (`N`)" }).optional(),
    // `policy` and `noreferer` stay "Y" | "N": §2.4 gives three conflicting meanings.
    policy: yn.optional(),
    domains: z.array(hostname).optional(),
    ips: z.array(ipOrCidr).optional(),
    noreferer: yn.optional(),
    active: z.boolean({ error: "must be true (`Y`) or false (`N`)" }).optional(),
    adoptId: z.string().optional(),
  })
  .refine((args) => SETTINGS.some((key) => args[key] !== undefined), {
    message: `declare at least one of ${SETTINGS.join(", ")}: a VodPullDomainLock with none manages nothing`,
  });
type Args = z.infer<typeof Args>;

const rules: DiffRules = {
  replaceOn: ["zoneId"],
  // The API keeps lists as comma-joined strings; host names are case-insensitive, and so are
  // the hex digits of IPv6 addresses, so both compare as case-insensitive sets.
  compare: { domains: sameHosts, ips: sameHosts },
};

type Lock = NonNullable<zones.Zone["domainlock"]>;

/** The live lock in the SDK's shape; a field the API leaves out stays out (never a guess). */
function inputsOf(lock: Lock): Inputs {
  const inputs: Inputs = {};
  if (lock.enabled !== undefined) inputs.enabled = lock.enabled === "Y";
  if (lock.policy !== undefined) inputs.policy = lock.policy;
  if (lock.list !== undefined) inputs.domains = splitList(lock.list);
  if (lock.ips !== undefined) inputs.ips = splitList(lock.ips);
  if (lock.noreferer !== undefined) inputs.noreferer = lock.noreferer;
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
    liveLock: {
      enabled: lock.enabled ?? null,
      policy: lock.policy ?? null,
      noreferer: lock.noreferer ?? null,
      active: lock.active ?? null,
      list: lock.list ?? null,
      ips: lock.ips ?? null,
    },
  };
}

export const handler = settingsHandler<Args>({
  kind: "VodPullDomainLock",
  args: Args,
  inputKeys: ["zoneId", ...SETTINGS],
  rules,

  idOf: (args) => String(args.zoneId),

  parseId(id) {
    if (!/^\d+$/.test(id)) throw new Error(`VodPullDomainLock id "${id}" is not a zone id: use the numeric VoD pull zone id, e.g. "401".`);
    return { zoneId: Number(id) };
  },

  async read({ zoneId }) {
    const { zone } = await zones.getVodPullZone(apiClient(), zoneId as number);
    return { inputs: inputsOf(zone.domainlock ?? {}), outputs: outputsOf(zone) };
  },

  async apply(args) {
    const { zone } = await zones.updateVodPullDomainLock(apiClient(), args.zoneId, {
      enabled: args.enabled === undefined ? undefined : toYN(args.enabled),
      policy: args.policy,
      list: args.domains?.join(","),
      ips: args.ips?.join(","),
      noreferer: args.noreferer,
      active: args.active === undefined ? undefined : toYN(args.active),
      // §4.5: `S` (shared, zone-level) is the only mode given, and the one this kind manages.
      mode: "S",
    });
    return outputsOf(zone);
  },

  released: (id) =>
    `VodPullDomainLock ${id}: released from the stack; the zone's domain lock stays as it is (the API has no delete for a lock).`,
});
