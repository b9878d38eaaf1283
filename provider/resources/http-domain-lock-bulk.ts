/**
 * HttpDomainLockBulk (§4.11): the account-wide HTTP zone domain lock. The path holds no id, so
 * there is one object per account: the resource id (and `adoptId`) is the fixed `account`.
 * `mode` says what a write does (DESIGN.md "Bulk domain lock"): `save` stores the account
 * default only; `append` also merges domains/IPs into every HTTP push and pull zone as a set
 * union (idempotent); `overwrite` replaces them. Changing `mode` is an in-place update.
 *
 * Drift: every mode saves the account default, and the emulator serves it through
 * GET /v2/zones/http/settings/security/domainlock (an extension), so refresh compares the
 * declared settings with the account default. Not detectable: per-zone values after
 * `append`/`overwrite` (a zone changed out of band is not reported), and `mode` itself, which
 * the API does not keep. Where that read answers 404/405 (`--strict-spec`, or an API without
 * it), refresh keeps the last applied state and warns once (DESIGN.md: the §4.11 response
 * carries no settings).
 * Delete releases management: zones keep their locks, and the warning says so.
 */
import { z } from "zod";
import { zones } from "../client";
import { apiClient, readLive } from "../context";
import { DOMAIN_LOCK_SETTINGS, domainLockBody, domainLockCompare, domainLockFields, domainLockInputs, domainLockOutputs, type Lock } from "../domain-lock";
import type { DiffRules } from "../inputs";
import { settingsHandler } from "../settings-handler";

const KIND = "HttpDomainLockBulk";
/** The one id: §4.11 is account-wide. */
export const ACCOUNT_ID = "account";

const SETTINGS = DOMAIN_LOCK_SETTINGS;

const Args = z
  .strictObject({
    mode: z.enum(["save", "append", "overwrite"], { error: 'must be "save", "append" or "overwrite" (§4.11)' }),
    ...domainLockFields,
    adoptId: z.string().optional(),
  })
  .refine((args) => SETTINGS.some((key) => args[key] !== undefined), {
    message: `declare at least one of ${SETTINGS.join(", ")}: an ${KIND} with none manages nothing`,
  });
type Args = z.infer<typeof Args>;

const rules: DiffRules = {
  // No identity input: there is one account default, and `mode` only says how to write it.
  replaceOn: [],
  // The API does not keep `mode` (§4.11 saves only the settings), so no live value can
  // contradict it: refresh and adoption keep the declared one, and `diff` sees every change.
  compare: domainLockCompare,
};

/** The account default as the API holds it, or null where it cannot be read. */
function outputsOf(lock: Lock | undefined) {
  return {
    accountDefault: lock ? domainLockOutputs(lock) : null,
  };
}

export const handler = settingsHandler<Args>({
  kind: KIND,
  args: Args,
  inputKeys: ["mode", ...SETTINGS],
  rules,

  idOf: () => ACCOUNT_ID,

  parseId(id) {
    if (id !== ACCOUNT_ID) throw new Error(`${KIND} id "${id}" is not "${ACCOUNT_ID}": §4.11 is account-wide, so its only id is "${ACCOUNT_ID}".`);
    return {};
  },

  async read() {
    const { domainlock } = await zones.getBulkDomainLock(apiClient());
    // `mode` is not kept by the API, so it is never read back.
    return { inputs: domainLockInputs(domainlock ?? {}), outputs: outputsOf(domainlock ?? {}) };
  },

  async apply(args) {
    await zones.updateBulkDomainLock(apiClient(), { ...domainLockBody(args), mode: args.mode });
    // The §4.11 response carries no settings: read the default back so the outputs a refresh
    // records are the ones `up` recorded (no refresh shows a change that did not happen).
    const live = await readLive(KIND, () => zones.getBulkDomainLock(apiClient()));
    return outputsOf(live?.domainlock);
  },

  released: () =>
    `${KIND} ${ACCOUNT_ID}: released from the stack; the account default stays as it is and zones keep their domain locks (the API has no delete for a lock).`,
});
