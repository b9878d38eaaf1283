/** PushZoneSettings (§4.1), declared once: custom domains, transcoding profiles and webhook of a push zone. */
import { z } from "zod";
import { hostnames, positiveId, sameHosts } from "../common/rules";
import { asSet, declareKind } from "../common/declare";

export const declaration = declareKind({
  name: "PushZoneSettings",
  folder: "push-zone-settings",
  spec: ["§4.1", "§2.2", "§2.3"],
  idFormat: "<zoneId>",
  idExample: "101",
  requiresASetting: true,
  inputs: {
    zoneId: { rule: positiveId("HTTP push zone"), replaces: true },
    // Host names are case-insensitive and the API keeps them as a comma list: compared as sets.
    customDomains: { rule: hostnames.optional(), compare: sameHosts },
    transcodingProfiles: {
      rule: z
        .array(
          z.union(
            [
              z.number().int().positive("must be a positive profile id"),
              z.string().regex(/^\d+$/, "must be a numeric profile id"),
            ],
            {
              error: 'must be a numeric profile id, such as 3 or "3"',
            },
          ),
          { error: "must be a list of profile ids, such as [3]" },
        )
        .optional(),
      compare: asSet,
    },
    transcodeWebhook: {
      rule: z
        .string()
        .refine(
          (s) => s === "" || (/^https?:\/\/[^\s/]+/i.test(s) && URL.canParse(s)),
          'must be an http(s) URL, or "" to clear it',
        )
        .optional(),
    },
  },
  outputs: {
    name: {},
    fqdn: {},
    hashId: {},
    customDomainFqdns: {},
    uploadHost: {},
    serviceAddresses: {},
    authToken: { secret: true },
    ftpUsername: {},
    ftpPassword: { secret: true },
    // §4.1 answers a write with warnings (the CNAME record to add); a read has none to give.
    warnings: { keptOnRefresh: true },
  },
});
