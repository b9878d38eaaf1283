/**
 * The domain-lock settings that §4.5 (a VoD pull zone's lock) and §4.11 (the account-wide bulk
 * lock) share: their input rules, how they compare, and how they cross the API boundary
 * (booleans to `Y`/`N`, host and IP lists to comma strings; §2.4 shape on the way back).
 */
import { z } from "zod";
import type { zones } from "../../client";
import type { InputDeclaration } from "./declare";
import type { Inputs } from "./inputs";
import { hostnames, ipsOrCidrs, sameHosts, splitList, toYN, yn } from "./rules";

/** A boolean flag of the lock (`enabled`, and §4.5 `active` besides the shared settings). */
export const domainLockFlag = () => z.boolean({ error: "must be true (`Y`) or false (`N`)" }).optional();

/**
 * The shared settings as a kind declares them (kinds/common/declare.ts), in the spec's order. Host
 * names and the hex digits of IPv6 addresses are case-insensitive, so both compare as such sets.
 */
export const domainLockDeclarations = {
  enabled: { rule: domainLockFlag() },
  // `policy` and `noreferer` stay "Y" | "N": §2.4 gives three conflicting meanings.
  policy: { rule: yn.optional() },
  domains: { rule: hostnames.optional(), compare: sameHosts },
  ips: { rule: ipsOrCidrs.optional(), compare: sameHosts },
  noreferer: { rule: yn.optional() },
} satisfies Record<string, InputDeclaration>;

export type Lock = NonNullable<zones.Zone["domainlock"]>;

type DomainLockArgs = {
  [K in keyof typeof domainLockDeclarations]?: z.output<(typeof domainLockDeclarations)[K]["rule"]>;
};

/** The shared settings as the API takes them; undeclared ones stay out of the body. */
export function domainLockBody(args: DomainLockArgs) {
  return {
    enabled: args.enabled === undefined ? undefined : toYN(args.enabled),
    policy: args.policy,
    list: args.domains?.join(","),
    ips: args.ips?.join(","),
    noreferer: args.noreferer,
  };
}

/** A live lock in the SDK's shape; a field the API leaves out stays out (never a guess). */
export function domainLockInputs(lock: Lock): Inputs {
  const inputs: Inputs = {};
  if (lock.enabled !== undefined) inputs.enabled = lock.enabled === "Y";
  if (lock.policy !== undefined) inputs.policy = lock.policy;
  if (lock.list !== undefined) inputs.domains = splitList(lock.list);
  if (lock.ips !== undefined) inputs.ips = splitList(lock.ips);
  if (lock.noreferer !== undefined) inputs.noreferer = lock.noreferer;
  return inputs;
}

/** The lock as the API holds it (§2.4), for outputs. */
export function domainLockOutputs(lock: Lock) {
  return {
    enabled: lock.enabled ?? null,
    policy: lock.policy ?? null,
    noreferer: lock.noreferer ?? null,
    list: lock.list ?? null,
    ips: lock.ips ?? null,
  };
}
