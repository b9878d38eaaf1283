/**
 * HttpDomainLockBulk (§4.11): its writes and its drift (the account default, and after `append`
 * or `overwrite` each HTTP pull zone's lock) are the class's doc (resource.ts); which zones a
 * `mode` reaches, docs/design.md "§4.11: which zones".
 */
import * as zones from "../../client/resources/zones";
import type { HandlerContext } from "../common/context";
import { domainLockBody, domainLockInputs, domainLockOutputs, type Lock } from "../common/domain-lock";
import type { Inputs } from "../common/inputs";
import { sameHosts, splitList } from "../common/rules";
import { settingsHandler } from "../common/handlers/settings";
import type { ArgsOf } from "../common/declare";
import { declaration } from "./declaration";

const KIND = "HttpDomainLockBulk";
/** The one id: §4.11 is account-wide. */
export const ACCOUNT_ID = "account";

type Args = ArgsOf<typeof declaration>;

/** The lock fields as §2.4 writes them; null where the write sent (or the program declares) none. */
type LockFields = ReturnType<typeof domainLockOutputs>;

const FLAGS = ["enabled", "policy", "noreferer"] as const;
const LISTS = [
  ["list", "domains"],
  ["ips", "ips"],
] as const;

/**
 * The HTTP pull zones (§4.10) whose lock does not hold what was written, and the declared
 * properties as the zones hold them (for the properties that differ).
 */
async function pullZoneDrift(context: HandlerContext, written: LockFields, mode: "append" | "overwrite") {
  const pullZones = await zones.pullZones(context.client()).all();
  const outOfStep: number[] = [];
  const live: Inputs = {};
  const heldByAll: Record<string, string[]> = Object.fromEntries(
    LISTS.map(([field]) => [field, splitList(written[field])]),
  );
  for (const zone of [...pullZones].sort((a, b) => Number(a.id) - Number(b.id))) {
    const lock = (zone.domainlock ?? {}) as Lock;
    let differs = false;
    for (const flag of FLAGS) {
      if (written[flag] === null || lock[flag] === undefined || lock[flag] === written[flag]) continue;
      differs = true;
      if (!(flag in live)) Object.assign(live, domainLockInputs({ [flag]: lock[flag] }));
    }
    for (const [field, input] of LISTS) {
      if (written[field] === null || lock[field] === undefined) continue;
      const sent = splitList(written[field]);
      const held = splitList(lock[field]);
      const has = new Set(held.map((item) => item.toLowerCase()));
      const inStep = mode === "overwrite" ? sameHosts(sent, held) : sent.every((item) => has.has(item.toLowerCase()));
      if (inStep) continue;
      differs = true;
      if (mode === "overwrite") live[input] ??= held;
      heldByAll[field] = heldByAll[field].filter((item) => has.has(item.toLowerCase()));
    }
    if (differs) outOfStep.push(Number(zone.id));
  }
  if (mode === "append") {
    for (const [field, input] of LISTS)
      if (heldByAll[field].length !== splitList(written[field]).length) live[input] = heldByAll[field];
  }
  return { outOfStep, live };
}

export const handler = settingsHandler<Args>((context) => ({
  declaration,

  idOf: () => ACCOUNT_ID,

  parseId(id) {
    if (id !== ACCOUNT_ID)
      throw new Error(
        `${KIND} id "${id}" is not "${ACCOUNT_ID}": POST /v2/zones/http/settings/security/domainlock is account-wide, so its only id is "${ACCOUNT_ID}".`,
      );
    return {};
  },

  async read(_identity, recorded) {
    const mode = recorded?.mode;
    const zonesCompared = mode === "append" || mode === "overwrite";
    const found = await context.readLive(
      KIND,
      zones.ops.getBulkDomainLock,
      () => zones.getBulkDomainLock(context.client()),
      zonesCompared
        ? `refresh cannot see the account default, and compares each HTTP pull zone's lock with what \`${mode}\` wrote instead.`
        : undefined,
    );
    const lock = found ? (found.domainlock ?? {}) : undefined;
    // Adoption: the account default as it is (`mode` is not kept by the API, so never read back).
    if (!recorded)
      return lock && { inputs: domainLockInputs(lock), outputs: { accountDefault: domainLockOutputs(lock) } };
    if (!zonesCompared) return lock && { inputs: domainLockInputs(lock), outputs: {} };

    const written =
      (recorded.accountDefault as LockFields | null) ?? domainLockOutputs(domainLockBody(recorded) as Lock);
    const { outOfStep, live } = await pullZoneDrift(context, written, mode);
    if (outOfStep.length) {
      const shown =
        outOfStep.length > 20
          ? `${outOfStep.slice(0, 20).join(", ")} and ${outOfStep.length - 20} more`
          : outOfStep.join(", ");
      context.warn(
        `${KIND} ${ACCOUNT_ID}: ${outOfStep.length} HTTP pull zone(s) no longer hold the domain lock the last \`${mode}\` wrote: ` +
          `${shown} (output zonesOutOfStep). The next \`pulumi up\` writes it again.`,
      );
    }
    return { inputs: { ...(lock ? domainLockInputs(lock) : {}), ...live }, outputs: { zonesOutOfStep: outOfStep } };
  },

  async apply(args) {
    const body = { ...domainLockBody(args), mode: args.mode };
    context.reportNotes(KIND, ACCOUNT_ID, await zones.updateBulkDomainLock(context.client(), body));
    // The answer carries no settings and nothing in the spec reads them: record what was sent.
    const outputs: Inputs = { accountDefault: domainLockOutputs(domainLockBody(args) as Lock) };
    if (args.mode !== "save") outputs.zonesOutOfStep = [];
    return outputs;
  },

  released: () =>
    `${KIND} ${ACCOUNT_ID}: released from the stack; the account default stays as it is and zones keep their domain locks (the API has no delete for a lock).`,
}));
