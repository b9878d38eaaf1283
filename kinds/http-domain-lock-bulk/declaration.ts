/**
 * HttpDomainLockBulk (§4.11), declared once: the account-wide HTTP zone domain lock, one per
 * account. No input replaces: `mode` only says how a write reaches the zones (docs/design.md,
 * "§4.11: which zones").
 */
import { z } from "zod";
import { domainLockDeclarations } from "../common/domain-lock";
import { declareKind } from "../common/declare";

export const declaration = declareKind({
  name: "HttpDomainLockBulk",
  folder: "http-domain-lock-bulk",
  spec: ["§4.11", "§4.10", "§2.4"],
  idFormat: "account",
  idExample: "account",
  requiresASetting: true,
  inputs: {
    // The API does not keep `mode` (§4.11 saves only the settings), so no live value can
    // contradict it: refresh and adoption keep the declared one, and `diff` sees every change.
    mode: {
      rule: z.enum(["save", "append", "overwrite"], { error: 'must be "save", "append" or "overwrite"' }),
    },
    ...domainLockDeclarations,
  },
  outputs: {
    // What the last write sent; a refresh reports drift through the inputs, not by rewriting it.
    accountDefault: { keptOnRefresh: true },
    zonesOutOfStep: {},
  },
});
